/**
 * The HTTP trigger's route table: registration checks and which function a request reaches.
 */
import type { RegisteredFunction } from '../../../../../tools/host/core/registry';
import { describeFunction, type HostFunction } from '../../../../../tools/host/functions';
import { compareFunctionNames, createHttpDriver } from '../../../../../tools/host/http/httpDriver';
import { createLogger } from '../../../../../tools/host/log';
import type { FunctionRunner } from '../../../../../tools/host/runner';

function httpFunction(name: string, route: string | undefined, methods: string[]): HostFunction {
  const registration: RegisteredFunction = {
    metadata: {
      name,
      bindings: {
        request: { type: 'httpTrigger', direction: 'in', route, methods, authLevel: 'function' },
        $return: { type: 'http', direction: 'out' },
      },
    },
    callback: () => undefined,
  };
  return describeFunction(registration);
}

function driverWith(...functions: HostFunction[]) {
  const driver = createHttpDriver({
    routePrefix: 'api',
    runner: {} as FunctionRunner,
    logger: createLogger({ level: 'none' }),
  });
  for (const fn of functions) driver.add(fn);
  return driver;
}

function target(driver: ReturnType<typeof driverWith>, method: string, path: string): string {
  const found = driver.lookup(method, path);
  return found.kind === 'match'
    ? `${found.route.fn.name} ${JSON.stringify(found.params)}`
    : found.kind;
}

test('requests reach the first matching route in function-name order, ignoring case, as in Azure', () => {
  const driver = driverWith(
    httpFunction('employeeById', 'departments/{dept}/employees/{id:regex(^\\d{{6}}$)}', ['GET']),
    httpFunction('AnyEmployeePath', 'departments/{dept}/employees/{*rest}', ['GET']),
    httpFunction('employeesByLastName', 'departments/{dept}/employees/by-last-name', ['GET']),
  );
  // AnyEmployeePath sorts first (case ignored): its catch-all takes every path below it.
  expect(target(driver, 'GET', '/departments/Sales/employees/by-last-name')).toBe(
    'AnyEmployeePath {"dept":"Sales","rest":"by-last-name"}',
  );
  expect(target(driver, 'GET', '/departments/Sales/employees/000223')).toBe(
    'AnyEmployeePath {"dept":"Sales","rest":"000223"}',
  );
});

test("a route whose methods do not include the request's is passed over", () => {
  const driver = driverWith(
    httpFunction('aCatchAll', '{*path}', ['POST']),
    httpFunction('getItem', 'items/{id}', ['GET']),
  );
  expect(target(driver, 'GET', '/items/7')).toBe('getItem {"id":"7"}');
  expect(target(driver, 'POST', '/items/7')).toBe('aCatchAll {"path":"items/7"}');
});

test('function names compare as .NET OrdinalIgnoreCase does', () => {
  const names = ['webConsole', 'routeFallback', 'Zeta', 'alpha', 'sasLogs', 'a_b', 'aZ'];
  expect([...names].sort(compareFunctionNames)).toEqual([
    'alpha',
    'aZ',
    'a_b',
    'routeFallback',
    'sasLogs',
    'webConsole',
    'Zeta',
  ]);
});

test('the same route may serve different methods through different functions', () => {
  const driver = driverWith(
    httpFunction('getDepartment', 'departments/{dept}', ['GET']),
    httpFunction('putDepartment', 'departments/{dept}', ['PUT']),
  );
  expect(target(driver, 'get', '/departments/HR')).toBe('getDepartment {"dept":"HR"}');
  expect(target(driver, 'PUT', '/departments/HR')).toBe('putDepartment {"dept":"HR"}');
  expect(driver.lookup('DELETE', '/departments/HR')).toEqual({
    kind: 'methodMismatch',
    allowed: ['GET', 'PUT'],
  });
  expect(driver.lookup('GET', '/teams/HR')).toEqual({ kind: 'notFound' });
});

test('a function without a route is served at its name', () => {
  const health = httpFunction('health', undefined, ['GET']);
  const driver = driverWith(health);
  expect(target(driver, 'GET', '/HEALTH')).toBe('health {}');
  expect(driver.describe(health)).toBe('[GET] /api/health');
});

test('conflicting, reserved and malformed routes are refused, naming the function', () => {
  const driver = driverWith(httpFunction('first', 'items/{id}', ['GET', 'POST']));
  expect(() => driver.add(httpFunction('second', 'Items/{id}', ['POST']))).toThrow(
    "Function 'second': the route 'Items/{id}' [POST] conflicts with the route defined by function 'first'.",
  );
  expect(() => driver.add(httpFunction('third', 'items/{id}', []))).toThrow(
    /conflicts with the route defined by function 'first'/,
  );
  expect(() => driver.add(httpFunction('keys', 'admin/keys', ['GET']))).toThrow(
    /conflicts with the host's built-in routes/,
  );
  expect(() => driver.add(httpFunction('hooks', 'runtime/webhooks', ['GET']))).toThrow(
    /built-in routes/,
  );
  expect(() => driver.add(httpFunction('broken', 'items/{id:nope}', ['GET']))).toThrow(
    /Function 'broken': The route template 'items\/\{id:nope\}' is invalid/,
  );
  // Same template, other methods: fine.
  driver.add(httpFunction('fourth', 'items/{id}', ['DELETE']));
});
