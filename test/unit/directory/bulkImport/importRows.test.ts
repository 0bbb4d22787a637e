/**
 * Screening an import's rows (pure): valid rows come out sorted by normalised last name with
 * exactly the fields a chunk needs, and a refused row carries the same plain-words message as a
 * single create's validation (rows are parsed without the error map first, for speed).
 */
import { screenRows, type PlacedFailure } from '../../../../src/directory/bulkImport/importRows';
import {
  describeIssues,
  newEmployeeSchema,
  plainWords,
} from '../../../../src/directory/validation';

const row = (employeeId: string, lastName: string, email = `e${employeeId}@contoso.com`) => ({
  employeeId,
  firstName: 'Ada',
  lastName,
  email,
});

it('keeps valid rows, sorted by normalised last name, with their place in the request', () => {
  const failed: PlacedFailure[] = [];
  const valid = screenRows([row('000002', ' Zed'), { ...row('000001', 'Ågren'), age: 41 }], failed);
  expect(failed).toEqual([]);
  expect(valid).toEqual([
    expect.objectContaining({
      employeeId: '000002',
      lastName: 'zed',
      displayLastName: ' Zed',
      position: 0,
      age: undefined,
    }),
    expect.objectContaining({
      employeeId: '000001',
      firstName: 'Ada',
      email: 'e000001@contoso.com',
      lastName: 'ågren',
      displayLastName: 'Ågren',
      age: 41,
      position: 1,
    }),
  ]);
});

it('refuses an invalid row with the plain-words message of the error map', () => {
  const bad = { ...row('12', 'Lovelace'), age: 'x', extra: true };
  const failed: PlacedFailure[] = [];
  expect(screenRows([row('000001', 'Byron'), bad], failed)).toHaveLength(1);
  const expected = newEmployeeSchema.safeParse(bad, { error: plainWords });
  expect(expected.success).toBe(false);
  // The error map's words, not zod's own ("Invalid input: expected number, received string").
  expect(failed[0]?.error.message).toContain('age: must be a number');
  expect(failed).toEqual([
    {
      position: 1,
      employeeId: '12',
      error: {
        code: 'InvalidInput',
        message: describeIssues(expected.error!.issues, 'employees[1]').message,
      },
    },
  ]);
});

it('refuses the second row of a repeated id or email', () => {
  const failed: PlacedFailure[] = [];
  const valid = screenRows(
    [row('000001', 'A'), row('000001', 'B'), row('000003', 'C', 'E000001@contoso.com')],
    failed,
  );
  expect(valid.map((r) => r.employeeId)).toEqual(['000001']);
  expect(failed.map((f) => [f.position, f.error.code])).toEqual([
    [1, 'DuplicateEmployeeId'],
    [2, 'DuplicateEmail'],
  ]);
});
