import { ForbiddenError } from '../../../src/errors';
import type { Principal } from '../../../src/identity/principal';
import {
  canReadDepartment,
  directoryReaderRole,
  isEmployee,
  parseDirectoryReaderRole,
  requireDirectoryAdmin,
} from '../../../src/identity/roles';

const principal = (roles: string[], employeeId?: string): Principal => ({
  userId: 'u',
  roles: new Set(roles),
  employeeId,
  claims: [],
});

describe('directory roles', () => {
  it('builds and parses DirectoryReader roles, department names with spaces included', () => {
    expect(directoryReaderRole('Human Resources')).toBe('DirectoryReader:Human Resources');
    expect(parseDirectoryReaderRole('DirectoryReader:Human Resources')).toBe('Human Resources');
    expect(parseDirectoryReaderRole('DirectoryReader:')).toBeUndefined();
    expect(parseDirectoryReaderRole('DirectoryAdmin')).toBeUndefined();
  });

  it('lets an admin or that department reader read a department, nobody else', () => {
    expect(canReadDepartment(principal(['DirectoryAdmin']), 'Sales')).toBe(true);
    expect(canReadDepartment(principal(['DirectoryReader:Sales']), 'Sales')).toBe(true);
    expect(canReadDepartment(principal(['DirectoryReader:Sales']), 'Marketing')).toBe(false);
    // Department names are case-sensitive partition keys: the role must match exactly.
    expect(canReadDepartment(principal(['DirectoryReader:sales']), 'Sales')).toBe(false);
    expect(canReadDepartment(principal([]), 'Sales')).toBe(false);
  });

  it('recognises the employee only by the exact employee id claim', () => {
    expect(isEmployee(principal([], '000223'), '000223')).toBe(true);
    expect(isEmployee(principal([], '000223'), '000224')).toBe(false);
    expect(isEmployee(principal([]), '000223')).toBe(false);
  });

  it('demands DirectoryAdmin', () => {
    expect(() => requireDirectoryAdmin(principal(['DirectoryReader:Sales']), 'do it')).toThrow(
      ForbiddenError,
    );
    expect(() => requireDirectoryAdmin(principal(['DirectoryAdmin']), 'do it')).not.toThrow();
  });
});
