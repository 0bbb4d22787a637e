/**
 * Yearly reviews (compound key), API.md "Reviews":
 * `PUT /departments/{dept}/employees/{id}/reviews/{year}` and
 * `GET /departments/{dept}/employees/{id}/reviews` (one range query per page, ordered by year).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import { reviewBodySchema } from '../src/directory/validation';
import { employeeRoute, listParams } from './shared/input';
import { conditions, json, versionedJson, readJson, readParams, readQuery } from './shared/http';
import { anyOf, departmentEditor, self } from '../src/identity/access';
import { ETAG_HEADER, pageOf, reviewBody, reviewListItem } from './shared/output';
import { protectedRoute } from './shared/route';

const reviewRoute = employeeRoute.extend({
  year: z
    .string()
    .regex(/^\d{4}$/, 'must be a four-digit year, 1900-9999')
    .transform(Number)
    .refine((y) => y >= 1900, 'must be a four-digit year, 1900-9999'),
});
const listQuery = z.strictObject(listParams);

const reviews = 'departments/{dept}/employees/{id}/reviews';

/** `PUT .../reviews/{year}` → 200 with the review and its ETag. */
export const putReview = protectedRoute('putReview', {
  route: `${reviews}/{year}`,
  methods: ['PUT'],
  access: departmentEditor,
  schemas: {
    params: reviewRoute,
    body: reviewBodySchema,
    responses: {
      200: { description: 'The review as stored.', body: reviewBody, headers: ETAG_HEADER },
    },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept, id, year } = readParams(request, reviewRoute);
    // Validated by the directory (RouteSchemas.body).
    const body = await readJson(request, z.unknown());
    const result = await directory.reviews.put(dept, id, year, body, conditions(request));
    return versionedJson(200, result);
  },
});

/** `GET .../reviews` → `{items, continuationToken}` ordered by year. */
export const listReviews = protectedRoute('listReviews', {
  route: reviews,
  methods: ['GET'],
  access: anyOf(self, departmentEditor),
  schemas: {
    params: employeeRoute,
    query: listQuery,
    responses: {
      200: { description: 'A page of the reviews, ordered by year.', body: pageOf(reviewListItem) },
    },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const { select, pageSize, continuationToken } = readQuery(request, listQuery);
    return json(
      200,
      await directory.reviews.list(dept, id, select, { pageSize, continuationToken }),
    );
  },
});
