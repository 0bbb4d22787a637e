/**
 * Expense claims (log tail), API.md "Expenses":
 * `POST /departments/{dept}/employees/{id}/expenses` and
 * `GET /departments/{dept}/employees/{id}/expenses?top=10` (newest first, one `$top` query per
 * page).
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import {
  MAX_EXPENSE_AMOUNT,
  MAX_EXPENSE_DESCRIPTION_LENGTH,
  MAX_EXPENSE_TOP,
  type ExpenseClaim,
} from '../src/expenses/expenseClaims';
import { json, readJson, readParams, readQuery } from './shared/http';
import { anyOf, self } from '../src/identity/access';
import { ETAG_HEADER, isoInstant, pageOf, pageBody } from './shared/output';
import { protectedRoute } from './shared/route';
import { employeeRoute, instant, queryInt } from './shared/input';

const claimBody = z.strictObject({
  amount: z
    .number()
    .positive()
    .max(MAX_EXPENSE_AMOUNT)
    .refine((n) => /^\d+(\.\d{1,2})?$/.test(String(n)), 'must have at most two decimals'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code of three upper-case letters'),
  description: z
    .string()
    .max(MAX_EXPENSE_DESCRIPTION_LENGTH)
    .refine((text) => text.trim().length > 0, 'must not be blank'),
  submittedAt: instant.optional(),
});

const listQuery = z.object({
  top: queryInt(1, MAX_EXPENSE_TOP).optional(),
  pageSize: queryInt(1, MAX_EXPENSE_TOP).optional(),
  continuationToken: z.string().min(1).max(4096).optional(),
});

/** A claim as the API shows it. */
const claimJson = z.strictObject({
  claimId: z.string(),
  department: z.string(),
  employeeId: z.string(),
  amount: z.number(),
  currency: z.string(),
  description: z.string(),
  submittedAt: isoInstant,
});

function toJson(claim: ExpenseClaim): Record<string, unknown> {
  return { ...claim, submittedAt: claim.submittedAt.toISOString() };
}

/** `POST .../expenses` → 201 with the stored claim and its ETag. */
export const submitExpenseClaim = protectedRoute('submitExpenseClaim', {
  route: 'departments/{dept}/employees/{id}/expenses',
  methods: ['POST'],
  access: anyOf(self),
  schemas: {
    params: employeeRoute,
    body: claimBody,
    responses: { 201: { description: 'The stored claim.', body: claimJson, headers: ETAG_HEADER } },
  },
  uses: (s) => s.expenseClaims(),
  handler: async ({ request, use: expenseClaims }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const body = await readJson(request, claimBody);
    const { claim, etag } = await expenseClaims.submit(dept, id, body);
    return json(201, toJson(claim), { etag });
  },
});

/**
 * `GET .../expenses?top=n` → the n newest claims (one query with `$top`), and a token for the
 * claims past them; without `top`, pages of `pageSize` (default 100) like every list.
 */
export const listExpenseClaims = protectedRoute('listExpenseClaims', {
  route: 'departments/{dept}/employees/{id}/expenses',
  methods: ['GET'],
  access: anyOf(self),
  schemas: {
    params: employeeRoute,
    query: listQuery,
    responses: {
      200: { description: 'A page of the claims, newest first.', body: pageOf(claimJson) },
    },
  },
  uses: (s) => s.expenseClaims(),
  handler: async ({ request, use: expenseClaims }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const { top, pageSize, continuationToken } = readQuery(request, listQuery);
    const options = { pageSize: top ?? pageSize, continuationToken };
    const page = await expenseClaims.page(dept, id, options);
    return json(200, pageBody(page, toJson));
  },
});
