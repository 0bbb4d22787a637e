/**
 * Departments (denormalization, one-to-many, client-side join cache), API.md "Departments":
 * `PUT/GET /departments/{dept}`, `GET /departments`, `PUT /departments/{dept}/manager`.
 */
import { app } from '@azure/functions';
import { z } from 'zod';
import { departmentBodySchema, managerBodySchema } from '../src/directory/validation';
import { directoryServices } from './shared/directory';
import { departmentRoute, listParams } from './shared/input';
import {
  handleErrors,
  ifMatch,
  json,
  readJson,
  readParams,
  readQuery,
  type HttpHandler,
} from './shared/http';

const listQuery = z.strictObject({
  pageSize: listParams.pageSize,
  continuationToken: listParams.continuationToken,
});

/** `PUT /departments/{dept}` → 201 created or 200 updated, with the department and its ETag. */
export const putDepartment: HttpHandler = handleErrors(async (request) => {
  const { dept } = readParams(request, departmentRoute);
  const body = await readJson(request, departmentBodySchema);
  const result = await directoryServices().departments.put(dept, body, {
    ifMatch: ifMatch(request),
  });
  return json(result.created ? 201 : 200, result.value, { etag: result.etag });
});

/** `GET /departments/{dept}` → the department (one point read) and its ETag. */
export const getDepartment: HttpHandler = handleErrors(async (request) => {
  const { dept } = readParams(request, departmentRoute);
  const result = await directoryServices().departments.get(dept);
  return json(200, result.value, { etag: result.etag });
});

/** `GET /departments` → a page of `{name, description}`. */
export const listDepartments: HttpHandler = handleErrors(async (request) => {
  const query = readQuery(request, listQuery);
  return json(200, await directoryServices().departments.list(query));
});

/** `PUT /departments/{dept}/manager` → the department with the manager's details copied on. */
export const setDepartmentManager: HttpHandler = handleErrors(async (request) => {
  const { dept } = readParams(request, departmentRoute);
  const { employeeId } = await readJson(request, managerBodySchema);
  const result = await directoryServices().departments.setManager(dept, employeeId, {
    ifMatch: ifMatch(request),
  });
  return json(200, result.value, { etag: result.etag });
});

app.http('listDepartments', {
  route: 'departments',
  methods: ['GET'],
  authLevel: 'function',
  handler: listDepartments,
});
app.http('getDepartment', {
  route: 'departments/{dept}',
  methods: ['GET'],
  authLevel: 'function',
  handler: getDepartment,
});
app.http('putDepartment', {
  route: 'departments/{dept}',
  methods: ['PUT'],
  authLevel: 'function',
  handler: putDepartment,
});
app.http('setDepartmentManager', {
  route: 'departments/{dept}/manager',
  methods: ['PUT'],
  authLevel: 'function',
  handler: setDepartmentManager,
});
