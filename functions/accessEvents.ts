/**
 * Resource-access events (prepend/append anti-pattern avoided), API.md "Access events":
 * `POST /access-events` and
 * `GET /departments/{dept}/employees/{id}/access-events?from=ISO&to=ISO` (oldest first, paged).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import {
  MAX_ACCESS_PAGE_SIZE,
  MAX_ACTION_LENGTH,
  MAX_RESOURCE_LENGTH,
  type AccessEvent,
} from '../src/access/accessLog';
import { json, readJson, readParams, readQuery } from './shared/http';
import { anyOf, self, telemetryWriter } from '../src/identity/access';
import { ETAG_HEADER, isoInstant, pageOf, pageBody } from './shared/output';
import { protectedRoute } from './shared/route';
import { departmentName, employeeId, employeeRoute, instant, queryInt } from './shared/input';

const eventBody = z.strictObject({
  department: departmentName,
  employeeId,
  resource: z.string().min(1).max(MAX_RESOURCE_LENGTH),
  action: z
    .string()
    .max(MAX_ACTION_LENGTH)
    .regex(
      /^[A-Za-z][A-Za-z0-9._-]*$/,
      'use letters, digits, ".", "_" or "-", starting with a letter',
    ),
  at: instant.optional(),
});

const windowQuery = z.object({
  from: instant,
  to: instant,
  pageSize: queryInt(1, MAX_ACCESS_PAGE_SIZE).optional(),
  continuationToken: z.string().optional(),
});

/** An event as the API shows it. */
const eventJson = z.strictObject({
  eventId: z.string(),
  department: z.string(),
  employeeId: z.string(),
  resource: z.string(),
  action: z.string(),
  at: isoInstant,
});

function toJson(event: AccessEvent): Record<string, unknown> {
  return { ...event, at: event.at.toISOString() };
}

/** `POST /access-events` → 201 with the stored event. */
export const recordAccessEvent = protectedRoute('recordAccessEvent', {
  route: 'access-events',
  methods: ['POST'],
  access: anyOf(telemetryWriter),
  schemas: {
    body: eventBody,
    responses: { 201: { description: 'The stored event.', body: eventJson, headers: ETAG_HEADER } },
  },
  uses: (s) => s.accessLog(),
  handler: async ({ request, use: accessLog }) => {
    const body = await readJson(request, eventBody);
    const { event, etag } = await accessLog.record(body);
    return json(201, toJson(event), { etag });
  },
});

/** `GET .../access-events?from&to` → one page of the window, oldest first. */
export const listAccessEvents = protectedRoute('listAccessEvents', {
  route: 'departments/{dept}/employees/{id}/access-events',
  methods: ['GET'],
  access: anyOf(self),
  schemas: {
    params: employeeRoute,
    query: windowQuery,
    responses: {
      200: { description: 'A page of the window, oldest first.', body: pageOf(eventJson) },
    },
  },
  uses: (s) => s.accessLog(),
  handler: async ({ request, use: accessLog }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const { from, to, pageSize, continuationToken } = readQuery(request, windowQuery);
    const page = await accessLog.window(dept, id, from, to, { pageSize, continuationToken });
    return json(200, pageBody(page, toJson));
  },
});
