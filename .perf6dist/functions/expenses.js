"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listExpenseClaims = exports.submitExpenseClaim = void 0;
/**
 * Expense claims (log tail), API.md "Expenses":
 * `POST /departments/{dept}/employees/{id}/expenses` and
 * `GET /departments/{dept}/employees/{id}/expenses?top=10` (newest first, one `$top` query).
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const config_1 = require("../src/config");
const expenseClaims_1 = require("../src/expenses/expenseClaims");
const clients_1 = require("../src/storage/clients");
const http_1 = require("./shared/http");
const input_1 = require("./shared/input");
let log;
function expenseClaims() {
    log ??= new expenseClaims_1.ExpenseClaimLog((0, clients_1.getStorageClients)().table((0, config_1.getConfig)().tables.expenses));
    return log;
}
const claimBody = zod_1.z.strictObject({
    amount: zod_1.z
        .number()
        .positive()
        .max(expenseClaims_1.MAX_EXPENSE_AMOUNT)
        .refine((n) => /^\d+(\.\d{1,2})?$/.test(String(n)), 'must have at most two decimals'),
    currency: zod_1.z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code of three upper-case letters'),
    description: zod_1.z
        .string()
        .max(expenseClaims_1.MAX_EXPENSE_DESCRIPTION_LENGTH)
        .refine((text) => text.trim().length > 0, 'must not be blank'),
    submittedAt: input_1.instant.optional(),
});
const listQuery = zod_1.z.object({ top: (0, input_1.queryInt)(1, expenseClaims_1.MAX_EXPENSE_TOP).default(expenseClaims_1.DEFAULT_EXPENSE_TOP) });
function toJson(claim) {
    return { ...claim, submittedAt: claim.submittedAt.toISOString() };
}
/** `POST .../expenses` → 201 with the stored claim and its ETag. */
exports.submitExpenseClaim = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const body = await (0, http_1.readJson)(request, claimBody);
    const { claim, etag } = await expenseClaims().submit(dept, id, body);
    return (0, http_1.json)(201, toJson(claim), { etag });
});
/** `GET .../expenses?top=n` → the n newest claims. */
exports.listExpenseClaims = (0, http_1.handleErrors)(async (request) => {
    const { dept, id } = (0, http_1.readParams)(request, input_1.employeeRoute);
    const { top } = (0, http_1.readQuery)(request, listQuery);
    const claims = await expenseClaims().newest(dept, id, top);
    return (0, http_1.json)(200, { items: claims.map(toJson) });
});
functions_1.app.http('submitExpenseClaim', {
    route: 'departments/{dept}/employees/{id}/expenses',
    methods: ['POST'],
    authLevel: 'function',
    handler: exports.submitExpenseClaim,
});
functions_1.app.http('listExpenseClaims', {
    route: 'departments/{dept}/employees/{id}/expenses',
    methods: ['GET'],
    authLevel: 'function',
    handler: exports.listExpenseClaims,
});
//# sourceMappingURL=expenses.js.map