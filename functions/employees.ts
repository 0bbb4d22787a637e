/**
 * Employees (intra-partition secondary index, entity group transactions), API.md "Employees":
 * create, import, point reads by id and by email, id/email range queries, PATCH, DELETE, and the
 * last-name lookup within a department.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { z } from 'zod';
import {
  anyOf,
  departmentEditor,
  departmentReader,
  departmentReaderWhenNamed,
  self,
} from '../src/identity/access';
import { canReadDepartment } from '../src/identity/roles';
import {
  employeePatchSchema,
  importBodySchema,
  newEmployeeSchema,
} from '../src/directory/validation';
import { findEmployeesAcrossOrganisation, getEmployeeByEmailEventually } from '../src/indexing';
import type { ImportResult } from '../src/directory';
import { conditions, json, versionedJson, readJson, readParams, readQuery } from './shared/http';
import { employeeBody, employeeListItem, ETAG_HEADER, pageOf } from './shared/output';
import { protectedRoute } from './shared/route';
import { departmentRoute, employeeRoute, listParams } from './shared/input';

/** An import body of 1,000 rows with long non-Latin names can pass the default 1 MiB. */
const MAX_IMPORT_BYTES = 4 * 1024 * 1024;

const listQuery = z.strictObject({
  fromId: z.string().optional(),
  toId: z.string().optional(),
  emailFrom: z.string().optional(),
  emailTo: z.string().optional(),
  emailPrefix: z.string().optional(),
  ...listParams,
});

const byEmailRoute = departmentRoute.extend({ email: z.string().min(1).max(1024) });
const byEmailQuery = z.strictObject({ consistency: z.enum(['strong', 'eventual']).optional() });

const lastNameQuery = z.strictObject({
  lastName: z.string().min(1).max(254),
  department: z.string().optional(),
  ...listParams,
});

const employees = 'departments/{dept}/employees';

/** What a single-employee read or write answers. */
const oneEmployee = { body: employeeBody, headers: ETAG_HEADER };

const importResult = z.strictObject({
  created: z.number().int().min(0),
  failed: z.array(
    z.strictObject({
      employeeId: z.string().nullable(),
      error: z.strictObject({ code: z.string(), message: z.string() }),
    }),
  ),
}) satisfies z.ZodType<ImportResult>;

/** `POST /departments/{dept}/employees` → 201 with the employee and its ETag. */
export const createEmployee = protectedRoute('createEmployee', {
  route: employees,
  methods: ['POST'],
  access: departmentEditor,
  schemas: {
    params: departmentRoute,
    body: newEmployeeSchema,
    responses: { 201: { description: 'Created.', ...oneEmployee } },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept } = readParams(request, departmentRoute);
    // Validated by the directory (RouteSchemas.body).
    const body = await readJson(request, z.unknown());
    const result = await directory.employees.create(dept, body);
    return versionedJson(201, result);
  },
});

/** `POST /departments/{dept}/employees/import` → 200 `{created, failed}`. */
export const importEmployees = protectedRoute('importEmployees', {
  route: `${employees}/import`,
  methods: ['POST'],
  access: departmentEditor,
  schemas: {
    params: departmentRoute,
    body: importBodySchema,
    responses: {
      200: { description: 'How many were created; the rows refused.', body: importResult },
    },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept } = readParams(request, departmentRoute);
    const body = await readJson(request, importBodySchema, MAX_IMPORT_BYTES);
    return json(200, await directory.employees.import(dept, body.employees));
  },
});

/** `GET /departments/{dept}/employees/{id}` → the employee and its ETag. */
export const getEmployee = protectedRoute('getEmployee', {
  route: `${employees}/{id}`,
  methods: ['GET'],
  access: anyOf(self, departmentReader),
  schemas: {
    params: employeeRoute,
    responses: { 200: { description: 'The employee.', ...oneEmployee } },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const result = await directory.employees.get(dept, id);
    return versionedJson(200, result);
  },
});

/**
 * `GET /departments/{dept}/employees/by-email/{email}` → the employee, from its email copy.
 * The route is a catch-all so an address with `/` may be sent raw; an encoded `%2F`, which the
 * host leaves encoded in route values, is decoded here.
 */
export const getEmployeeByEmail = protectedRoute('getEmployeeByEmail', {
  route: `${employees}/by-email/{*email}`,
  methods: ['GET'],
  access: departmentReader,
  schemas: {
    params: byEmailRoute,
    query: byEmailQuery,
    responses: { 200: { description: 'The employee with that email.', ...oneEmployee } },
  },
  uses: (s) => ({ directory: s.directory(), index: s.indexStores().index }),
  handler: async ({ request, use: { directory, index } }) => {
    const { dept, email } = readParams(request, byEmailRoute);
    const { consistency } = readQuery(request, byEmailQuery);
    const address = email.replace(/%2F/gi, '/');
    const result =
      consistency === 'eventual'
        ? await getEmployeeByEmailEventually(index, dept, address)
        : await directory.employees.getByEmail(dept, address);
    return versionedJson(200, result);
  },
});

/** `GET /departments/{dept}/employees?fromId&toId | emailFrom&emailTo | emailPrefix` → a page. */
export const listEmployees = protectedRoute('listEmployees', {
  route: employees,
  methods: ['GET'],
  access: departmentReader,
  schemas: {
    params: departmentRoute,
    query: listQuery,
    responses: { 200: { description: 'A page of employees.', body: pageOf(employeeListItem) } },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept } = readParams(request, departmentRoute);
    const { pageSize, continuationToken, select, ...range } = readQuery(request, listQuery);
    return json(
      200,
      await directory.employees.list(dept, range, {
        pageSize,
        continuationToken,
        select,
      }),
    );
  },
});

/** `PATCH /departments/{dept}/employees/{id}` → the employee and its new ETag. */
export const patchEmployee = protectedRoute('patchEmployee', {
  route: `${employees}/{id}`,
  methods: ['PATCH'],
  access: departmentEditor,
  schemas: {
    params: employeeRoute,
    body: employeePatchSchema,
    responses: { 200: { description: 'The employee as changed.', ...oneEmployee } },
  },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept, id } = readParams(request, employeeRoute);
    const body = await readJson(request, z.unknown());
    const result = await directory.employees.patch(dept, id, body, conditions(request));
    return versionedJson(200, result);
  },
});

/** `DELETE /departments/{dept}/employees/{id}` → 204. */
export const deleteEmployee = protectedRoute('deleteEmployee', {
  route: `${employees}/{id}`,
  methods: ['DELETE'],
  access: departmentEditor,
  schemas: { params: employeeRoute, responses: { 204: { description: 'Deleted.' } } },
  uses: (s) => s.directory(),
  handler: async ({ request, use: directory }) => {
    const { dept, id } = readParams(request, employeeRoute);
    await directory.employees.delete(dept, id, conditions(request));
    return { status: 204 };
  },
});

/**
 * `GET /employees?lastName=X&department=D` → `{items, continuationToken}` through the index
 * entity. Without a department the whole organisation is searched, and only employees of
 * departments the caller may read come back.
 */
export const findEmployeesByLastName = protectedRoute('findEmployeesByLastName', {
  route: 'employees',
  methods: ['GET'],
  access: departmentReaderWhenNamed,
  schemas: {
    query: lastNameQuery,
    // A named department that does not exist.
    errors: [404],
    responses: {
      200: {
        description: 'A page of employees with that last name.',
        body: pageOf(employeeListItem),
      },
    },
  },
  // The value readQuery will use (a repeated key: the last one), so the rule and the search
  // always see the same department.
  target: (request) => ({ department: request.query.getAll('department').at(-1) }),
  uses: (s) => ({ directory: s.directory(), stores: s.indexStores() }),
  handler: async ({ request, principal, use: { directory, stores } }) => {
    const { lastName, department, pageSize, continuationToken, select } = readQuery(
      request,
      lastNameQuery,
    );
    if (department === undefined) {
      // Organisation-wide: through the last-name index (option 1 or 3, LASTNAME_INDEX_MODE).
      return json(
        200,
        await findEmployeesAcrossOrganisation(stores.employees, stores.lastNames, lastName, {
          pageSize,
          continuationToken,
          select,
          mayReadDepartment: (name) => canReadDepartment(principal, name),
        }),
      );
    }
    return json(
      200,
      await directory.employees.findByLastName(department, lastName, {
        pageSize,
        continuationToken,
        select,
      }),
    );
  },
});
