/**
 * Response schemas several HTTP adapters share (employees, departments, reviews, pages, the
 * `ETag` and `Location` headers). Each route declares what it answers with these, or with schemas
 * of its own next to its adapter, in its registration (`schemas.responses`), so the OpenAPI
 * description (functions/shared/openapi.ts) says what the code returns. The e2e tests hold every
 * response the host gives against that description (test/support/apiContract.ts), so a schema
 * that drifts from the code fails there.
 *
 * The objects are strict: a field the code adds without describing it is a contract change and
 * fails the check. Where the service has a type for the body, the schema `satisfies` it, so a
 * required field added to the type fails the build until the schema has it too.
 */
import { z } from 'zod';
import type { Department, DepartmentListItem, Employee, Review } from '../../src/directory';
import type { ResponseHeader } from './route';

/** `ETag` of a single-resource read or write. */
export const ETAG_HEADER: Readonly<Record<string, ResponseHeader>> = {
  etag: { description: "The entity's ETag: send it as `If-Match` to make a write conditional." },
};

/** A list page: `{items, continuationToken}` (`null` on the last page). */
export function pageOf(item: z.ZodType): z.ZodType {
  return z.strictObject({ items: z.array(item), continuationToken: z.string().nullable() });
}

/** A page's JSON body (as {@link pageOf} describes it), each item mapped to its JSON. */
export function pageBody<T, J>(
  page: { items: readonly T[]; continuationToken: string | null },
  toJson: (item: T) => J,
): { items: J[]; continuationToken: string | null } {
  return { items: page.items.map(toJson), continuationToken: page.continuationToken };
}

/** An ISO 8601 UTC instant as the API writes it (`Date.toISOString()`). */
export const isoInstant = z.iso.datetime();

/** An employee (src/directory/entities/employeeEntity.ts `Employee`). */
export const employeeBody = z.strictObject({
  department: z.string(),
  employeeId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  age: z.number().int().nullable(),
  photoUrl: z.string().optional(),
}) satisfies z.ZodType<Employee>;

/** An employee in a list: its keys plus the fields `select` names (every field without it). */
export const employeeListItem = employeeBody.partial().required({
  department: true,
  employeeId: true,
});

/** The manager's details copied onto a department. */
const managerBody = z.strictObject({
  employeeId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});

/** An employee count: a whole number, never negative. */
const employeeCount = z.number().int().min(0);

/** A department (src/directory/entities/departmentEntity.ts `Department`). */
export const departmentBody = z.strictObject({
  name: z.string(),
  description: z.string(),
  employeeCount,
  manager: managerBody.nullable(),
}) satisfies z.ZodType<Department>;

/** One row of `GET /departments`: the listing's copy with its (eventually consistent) count. */
export const departmentListItem = z.strictObject({
  name: z.string(),
  description: z.string(),
  employeeCount: employeeCount.describe(
    'Eventually consistent: the count as of countAsOf, refreshed by the index drain a few ' +
      'seconds after employees join or leave. GET /departments/{dept} gives the exact count.',
  ),
  countAsOf: z
    .string()
    .datetime()
    .describe('When employeeCount was read from the department (ISO 8601, UTC).'),
}) satisfies z.ZodType<DepartmentListItem>;

/** A yearly review (src/directory/employees/reviews.ts `Review`). */
export const reviewBody = z.strictObject({
  year: z.number().int(),
  managerRating: z.number(),
  peerRating: z.number(),
  comments: z.string(),
}) satisfies z.ZodType<Review>;

/** A review in a list: its year plus the fields `select` names (every field without it). */
export const reviewListItem = reviewBody.partial().required({ year: true });
