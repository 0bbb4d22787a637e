/**
 * What the console offers a caller follows the API's own rules (src/identity/roles.ts): admins
 * open everything, readers and editors their departments (a space written %20 in the role),
 * an employee their own card; nobody signed in, nothing.
 */
import {
  abilitiesOf,
  canEdit,
  canRead,
  isSelf,
  openableDepartments,
} from '../../../console/abilities';

describe('console abilities', () => {
  it('gives an admin every department', () => {
    const admin = abilitiesOf({ label: 'A', roles: ['DirectoryAdmin'] });
    expect(admin.admin).toBe(true);
    expect(canRead(admin, 'Anything')).toBe(true);
    expect(canEdit(admin, 'Anything')).toBe(true);
  });

  it('gives readers and editors exactly their departments, spaces decoded', () => {
    const caller = abilitiesOf({
      label: 'R',
      roles: [
        'DirectoryReader:Human%20Resources',
        'DirectoryEditor:Sales',
        'DirectoryReader:Sales',
        'TelemetryWriter',
      ],
    });
    expect(caller.admin).toBe(false);
    expect(caller.reads).toEqual(['Human Resources', 'Sales']);
    expect(caller.edits).toEqual(['Sales']);
    expect(canRead(caller, 'Human Resources')).toBe(true);
    expect(canEdit(caller, 'Human Resources')).toBe(false);
    expect(canRead(caller, 'sales')).toBe(false); // exact, as the API compares
    expect(openableDepartments(caller)).toEqual(['Human Resources', 'Sales']);
  });

  it('ignores role values the API does not accept (a literal space)', () => {
    expect(abilitiesOf({ label: 'X', roles: ['DirectoryReader:Human Resources'] }).reads).toEqual(
      [],
    );
  });

  it('knows an employee by department and id together', () => {
    const me = abilitiesOf({
      label: 'E',
      roles: [],
      employee: { department: 'Sales', employeeId: '000123' },
    });
    expect(isSelf(me, 'Sales', '000123')).toBe(true);
    expect(isSelf(me, 'HR', '000123')).toBe(false);
    expect(openableDepartments(me)).toEqual([]);
  });

  it('gives nobody anything', () => {
    expect(abilitiesOf(undefined)).toEqual({ admin: false, reads: [], edits: [] });
  });
});
