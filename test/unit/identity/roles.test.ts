import type { Principal } from '../../../src/identity/principal';
import {
  canEditDepartment,
  canReadDepartment,
  directoryEditorRole,
  directoryReaderRole,
  isEmployee,
  parseDirectoryEditorRole,
  parseDirectoryReaderRole,
} from '../../../src/identity/roles';

const principal = (roles: string[], employee?: Principal['employee']): Principal => ({
  userId: 'u',
  roles: new Set(roles),
  ...(employee ? { employee } : {}),
  claims: [],
});

describe('directory roles', () => {
  it('builds and parses department roles, spaces written %20 (Entra role values have none)', () => {
    expect(directoryReaderRole('Human Resources')).toBe('DirectoryReader:Human%20Resources');
    expect(directoryEditorRole('Human Resources')).toBe('DirectoryEditor:Human%20Resources');
    expect(parseDirectoryReaderRole('DirectoryReader:Human%20Resources')).toBe('Human Resources');
    expect(parseDirectoryEditorRole('DirectoryEditor:R_and-D%202')).toBe('R_and-D 2');
    expect(parseDirectoryReaderRole(directoryReaderRole('R_and-D 2'))).toBe('R_and-D 2');
    // Literal spaces are not how Entra writes role values: not accepted.
    expect(parseDirectoryReaderRole('DirectoryReader:Human Resources')).toBeUndefined();
    expect(parseDirectoryReaderRole('DirectoryReader:')).toBeUndefined();
    expect(parseDirectoryReaderRole('DirectoryEditor:Sales')).toBeUndefined();
    expect(parseDirectoryEditorRole('DirectoryAdmin')).toBeUndefined();
  });

  it('lets an admin or that department reader read a department, nobody else', () => {
    expect(canReadDepartment(principal(['DirectoryAdmin']), 'Sales')).toBe(true);
    expect(canReadDepartment(principal(['DirectoryReader:Sales']), 'Sales')).toBe(true);
    expect(canReadDepartment(principal(['DirectoryReader:Sales']), 'Marketing')).toBe(false);
    expect(canReadDepartment(principal(['DirectoryEditor:Sales']), 'Sales')).toBe(false);
    // Department names are case-sensitive partition keys: the role must match exactly.
    expect(canReadDepartment(principal(['DirectoryReader:sales']), 'Sales')).toBe(false);
    expect(canReadDepartment(principal([' DirectoryAdmin']), 'Sales')).toBe(false);
    expect(canReadDepartment(principal([]), 'Sales')).toBe(false);
    expect(
      canReadDepartment(principal(['DirectoryReader:Human%20Resources']), 'Human Resources'),
    ).toBe(true);
    expect(
      canReadDepartment(principal(['DirectoryReader:Human Resources']), 'Human Resources'),
    ).toBe(false);
    expect(canReadDepartment(principal(['DirectoryReader:Human']), 'Human Resources')).toBe(false);
  });

  it('lets an admin or that department editor write a department', () => {
    expect(canEditDepartment(principal(['DirectoryEditor:Sales']), 'Sales')).toBe(true);
    expect(canEditDepartment(principal(['DirectoryAdmin']), 'Sales')).toBe(true);
    expect(canEditDepartment(principal(['DirectoryEditor:Sales']), 'HR')).toBe(false);
    expect(canEditDepartment(principal(['DirectoryReader:Sales']), 'Sales')).toBe(false);
  });

  it('recognises the employee only by the pair of department and employee id', () => {
    const sales223 = principal([], { department: 'Sales', employeeId: '000223' });
    expect(isEmployee(sales223, 'Sales', '000223')).toBe(true);
    expect(isEmployee(sales223, 'HR', '000223')).toBe(false);
    expect(isEmployee(sales223, 'Sales', '000224')).toBe(false);
    expect(isEmployee(sales223, 'sales', '000223')).toBe(false);
    expect(isEmployee(principal([]), 'Sales', '000223')).toBe(false);
  });
});
