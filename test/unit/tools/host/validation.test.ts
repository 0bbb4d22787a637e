/**
 * The Functions host's startup rules for names and routes.
 */
import {
  duplicateNames,
  functionNameProblem,
  HostStartupError,
  isReservedRoute,
  namingProblems,
  routesConflict,
} from '../../../../tools/host/validation';

test('function names: a letter, then letters, digits, _ or -, at most 128; not "host", not admin*', () => {
  expect(functionNameProblem('archiveEmployee')).toBeUndefined();
  expect(functionNameProblem('a_b-c9')).toBeUndefined();
  expect(functionNameProblem('a'.repeat(128))).toBeUndefined();
  for (const bad of ['9lives', 'has space', 'dot.name', 'a'.repeat(129), '', 'Host']) {
    expect(functionNameProblem(bad)).toMatch(/is not a valid function name/);
  }
  expect(functionNameProblem('AdminTools')).toMatch(/names starting with 'admin' are reserved/);
});

test('duplicate names ignore case', () => {
  expect(duplicateNames(['a', 'B', 'A', 'b', 'c'])).toEqual(['A', 'b']);
});

test('routes in the host space are reserved', () => {
  expect(isReservedRoute('admin')).toBe(true);
  expect(isReservedRoute('/Admin/keys')).toBe(true);
  expect(isReservedRoute('runtime/webhooks/x')).toBe(true);
  expect(isReservedRoute('administrators')).toBe(true);
  expect(isReservedRoute('departments/admin')).toBe(false);
});

test('routes conflict when equal ignoring case and slashes and their methods overlap', () => {
  const a = { functionName: 'a', route: 'items/{id}', methods: ['GET'] };
  expect(
    routesConflict(a, { functionName: 'b', route: '/Items/{id}/', methods: ['GET', 'PUT'] }),
  ).toBe(true);
  expect(routesConflict(a, { functionName: 'b', route: 'items/{id}', methods: ['PUT'] })).toBe(
    false,
  );
  expect(routesConflict(a, { functionName: 'b', route: 'items/{id}', methods: [] })).toBe(true);
  expect(routesConflict(a, { functionName: 'b', route: 'items/{key}', methods: ['GET'] })).toBe(
    false,
  );
});

test('a startup error with several problems lists them all', () => {
  expect(new HostStartupError(['one']).message).toBe('one');
  expect(new HostStartupError(['one', 'two']).message).toBe(
    'The local host cannot start:\n  - one\n  - two',
  );
});

test('naming problems cover invalid names and duplicates together', () => {
  expect(namingProblems(['ok', 'Ok', '1bad'])).toEqual([
    expect.stringMatching(/'1bad' is not a valid function name/),
    "The function name 'Ok' must be unique within the function app (names ignore case).",
  ]);
});
