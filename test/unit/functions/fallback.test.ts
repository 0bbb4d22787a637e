/**
 * What the fallback tells from the route templates alone: whether a path has the shape of a
 * registered route (literals ignoring case, `{p}` one segment, `{*p}` the rest), and the methods
 * such routes take, in `Allow` order.
 */
import { z } from 'zod';
import {
  allowedMethods,
  pathMatchesTemplate,
  protectedRoute,
  registeredRoutes,
  routesAt,
  type RegisteredRoute,
} from '../../../functions/shared/route';
import { anonymous, signedIn } from '../../../src/identity/access';

const route = (
  name: string,
  template: string,
  methods: RegisteredRoute['methods'],
  access = signedIn,
): RegisteredRoute => ({
  name,
  route: template,
  methods,
  access,
  schemas: { params: z.object({}), responses: { 200: { description: 'ok' } } },
});

const routes = [
  route('health', 'health', ['GET'], anonymous),
  route('getEmployee', 'departments/{dept}/employees/{id}', ['GET']),
  route('patchEmployee', 'departments/{dept}/employees/{id}', ['PATCH', 'DELETE']),
  route('importEmployees', 'departments/{dept}/employees/import', ['POST']),
  route('byEmail', 'departments/{dept}/employees/by-email/{*email}', ['GET']),
];

it.each([
  ['departments/Sales/employees/000123', 'departments/{dept}/employees/{id}', true],
  ['Departments/Sales/EMPLOYEES/000123', 'departments/{dept}/employees/{id}', true],
  ['departments/Sales/employees', 'departments/{dept}/employees/{id}', false],
  ['departments/Sales/employees/000123/x', 'departments/{dept}/employees/{id}', false],
  [
    'departments/S/employees/by-email/a%2Fb/c',
    'departments/{dept}/employees/by-email/{*email}',
    true,
  ],
  ['departments/S/employees/by-email', 'departments/{dept}/employees/by-email/{*email}', true],
  ['', 'health', false],
])('%s has the shape of %s: %s', (path, template, expected) => {
  expect(pathMatchesTemplate(path, template)).toBe(expected);
});

it('lists the methods of every route of that shape, in Allow order', () => {
  expect(allowedMethods('departments/Sales/employees/000123', routes)).toEqual([
    'GET',
    'PATCH',
    'DELETE',
  ]);
  // A literal segment and a parameter both take it: GET goes to getEmployee (the host decides).
  expect(allowedMethods('departments/Sales/employees/import', routes)).toEqual([
    'GET',
    'POST',
    'PATCH',
    'DELETE',
  ]);
  expect(allowedMethods('nothing/here', routes)).toEqual([]);
  expect(routesAt('health', routes).map((r) => r.access.anonymous)).toEqual([true]);
});

it('refuses an HTTP function whose name would sort after the fallback, which would take its requests', () => {
  const options = {
    route: 'late',
    access: signedIn,
    schemas: { params: z.object({}), responses: { 200: { description: 'ok' } } },
    handler: async () => ({ status: 200 }),
  };
  expect(() => protectedRoute('zzzLateRoute', { ...options, methods: ['GET'] })).toThrow(
    /'zzzLateRoute' sorts after 'zzRouteFallback'/,
  );
  expect(registeredRoutes().map((r) => r.name)).not.toContain('zzzLateRoute');
});
