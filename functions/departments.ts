/**
 * Departments (denormalization, one-to-many, client-side join cache), API.md "Departments":
 * `PUT/GET /departments/{dept}`, `GET /departments`, `PUT /departments/{dept}/manager`.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import { departmentEditor, signedIn } from '../src/identity/access';
import { isDirectoryAdmin } from '../src/identity/roles';
import { departmentBodySchema, managerBodySchema } from '../src/directory/validation';
import { departmentRoute, listParams } from './shared/input';
import {
  conditions,
  ifMatch,
  json,
  versionedJson,
  readJson,
  readParams,
  readQuery,
} from './shared/http';
import { departmentBody, departmentListItem, ETAG_HEADER, pageOf } from './shared/output';
import { protectedRoute } from './shared/route';

const listQuery = z.strictObject({
  pageSize: listParams.pageSize,
  continuationToken: listParams.continuationToken,
});

/**
 * `GET /departments` → a page of `{name, description, employeeCount, countAsOf}`: one range query
 * over the listing, whose counts the index drain keeps (eventually consistent).
 */
export const listDepartments = protectedRoute('listDepartments', {
  route: 'departments',
  methods: ['GET'],
  access: signedIn,
  schemas: {
    query: listQuery,
    responses: {
      200: {
        description:
          'A page of departments, each with its employee count as the listing carries it ' +
          '(eventually consistent: as of countAsOf; GET /departments/{dept} is exact).',
        body: pageOf(departmentListItem),
      },
    },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const query = readQuery(request, listQuery);
    return json(200, await directory.departments.list(query));
  },
});

/** A department as `GET` shows it: with the account holding it, for admins only. */
/** What a single-department write answers. */
const oneDepartment = { body: departmentBody, headers: ETAG_HEADER };

/** What setting the manager answers. */
const withManager = { description: "The department with its manager's details.", ...oneDepartment };

const departmentView = departmentBody.extend({ account: z.string().optional() });

/**
 * `GET /departments/{dept}` → the department (one point read) and its ETag; with data spread over
 * several accounts a `DirectoryAdmin` also sees which one holds it (`account`, docs/accounts.md).
 */
export const getDepartment = protectedRoute('getDepartment', {
  route: 'departments/{dept}',
  methods: ['GET'],
  access: signedIn,
  schemas: {
    params: departmentRoute,
    responses: {
      200: { description: 'The department.', body: departmentView, headers: ETAG_HEADER },
    },
  },
  uses: (s) => ({ directory: s.directory(), placement: s.placement() }),
  handler: async ({ request, principal, use: { directory, placement } }) => {
    const { dept } = readParams(request, departmentRoute);
    const result = await directory.departments.get(dept);
    // With one account there is nothing to say: the body stays exactly as before.
    if (!isDirectoryAdmin(principal) || !placement.spread) return versionedJson(200, result);
    const { account } = await placement.ofDepartment(dept);
    return json(200, { ...result.value, account }, { etag: result.etag });
  },
});

/**
 * `PUT /departments/{dept}` → 201 created or 200 updated, with the department and its ETag.
 * Its editor may update it; only an admin may create one (known only once it is read: 403 then).
 */
export const putDepartment = protectedRoute('putDepartment', {
  route: 'departments/{dept}',
  methods: ['PUT'],
  access: departmentEditor,
  schemas: {
    params: departmentRoute,
    body: departmentBodySchema,
    // A PUT states the department: `{}` creates it (or keeps it as it is), no body is refused.
    bodyRequired: true,
    responses: {
      200: { description: 'Updated.', ...oneDepartment },
      201: { description: 'Created (admin only).', ...oneDepartment },
    },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, principal, use: directory }) => {
    const { dept } = readParams(request, departmentRoute);
    // Validated by the directory (RouteSchemas.body).
    const body = await readJson(request, z.unknown());
    const result = await directory.departments.put(dept, body, {
      ifMatch: ifMatch(request),
      mayCreate: isDirectoryAdmin(principal),
    });
    return json(result.created ? 201 : 200, result.value, { etag: result.etag });
  },
});

/** `PUT /departments/{dept}/manager` → the department with the manager's details copied on. */
export const setDepartmentManager = protectedRoute('setDepartmentManager', {
  route: 'departments/{dept}/manager',
  methods: ['PUT'],
  access: departmentEditor,
  schemas: {
    params: departmentRoute,
    body: managerBodySchema,
    responses: { 200: withManager },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept } = readParams(request, departmentRoute);
    const { employeeId } = await readJson(request, managerBodySchema);
    const result = await directory.departments.setManager(dept, employeeId, conditions(request));
    return versionedJson(200, result);
  },
});
