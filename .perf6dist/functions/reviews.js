"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listReviews = exports.putReview = void 0;
/**
 * Yearly reviews (compound key), API.md "Reviews":
 * `PUT /departments/{dept}/employees/{id}/reviews/{year}` and
 * `GET /departments/{dept}/employees/{id}/reviews` (one range query, ordered by year).
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const validation_1 = require("../src/directory/validation");
const directory_1 = require("./shared/directory");
const input_1 = require("./shared/input");
const http_1 = require("./shared/http");
const reviewRoute = input_1.employeeRoute.extend({
    year: zod_1.z
        .string()
        .regex(/^\d{4}$/, 'must be a four-digit year, 1900-9999')
        .transform(Number)
        .refine((y) => y >= 1900, 'must be a four-digit year, 1900-9999'),
});
const listQuery = zod_1.z.strictObject({ select: input_1.selectParam.optional() });
/** `PUT .../reviews/{year}` → 200 with the review and its ETag. */
exports.putReview = (0, http_1.handleErrors)(async (request) => {
    const { dept, id, year } = (0, http_1.readParams)(request, reviewRoute);
    const body = await (0, http_1.readJson)(request, validation_1.reviewBodySchema);
    const result = await (0, directory_1.directoryServices)().reviews.put(dept, id, year, body, {
        ifMatch: (0, http_1.ifMatch)(request),
    });
    return (0, http_1.json)(200, result.value, { etag: result.etag });
});
/** `GET .../reviews` → `{items}` ordered by year. */
exports.listReviews = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const { select } = (0, http_1.readQuery)(request, listQuery);
    return (0, http_1.json)(200, await (0, directory_1.directoryServices)().reviews.list(dept, id, select));
});
const reviews = 'departments/{dept}/employees/{id}/reviews';
functions_1.app.http('listReviews', {
    route: reviews,
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.listReviews,
});
functions_1.app.http('putReview', {
    route: `${reviews}/{year}`,
    methods: ['PUT'],
    authLevel: 'function',
    handler: exports.putReview,
});
//# sourceMappingURL=reviews.js.map