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
  it('builds and parses DirectoryReader roles, spaces written %20 (Entra role values have none)', () => {
    expect(directoryReaderRole('Human Resources')).toBe('DirectoryReader:Human%20Resources');
    expect(parseDirectoryReaderRole('DirectoryReader:Human%20Resources')).toBe('Human Resources');
    expect(parseDirectoryReaderRole('DirectoryReader:Human Resources')).toBe('Human Resources');
    expect(parseDirectoryReaderRole(directoryReaderRole('R_and-D 2'))).toBe('R_and-D 2');
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
    expect(
      canReadDepartment(principal(['DirectoryReader:Human%20Resources']), 'Human Resources'),
    ).toBe(true);
    expect(
      canReadDepartment(principal(['DirectoryReader:Human Resources']), 'Human Resources'),
    ).toBe(true);
    expect(canReadDepartment(principal(['DirectoryReader:Human']), 'Human Resources')).toBe(false);
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
