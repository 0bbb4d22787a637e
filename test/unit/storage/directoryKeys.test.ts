import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
  employeeRowKeyRange,
  parseDepartmentListRowKey,
  parseDepartmentPartitionKey,
} from '../../../src/storage/keys';

describe('directory keys', () => {
  it('keeps the department listing partition apart from every department partition', () => {
    expect(parseDepartmentPartitionKey(DEPARTMENT_LIST_PARTITION_KEY)).toBeUndefined();
    expect(departmentListRowKey('Sales Ops_2-x')).toBe('Sales Ops_2-x');
    expect(parseDepartmentListRowKey(departmentListRowKey('Sales'))).toBe('Sales');
    expect(parseDepartmentListRowKey('.x')).toBeUndefined();
    expect(() => departmentListRowKey("x' or 1 eq 1")).toThrow(
      expect.objectContaining({ code: 'InvalidDepartment' }),
    );
  });

  it('bounds an inclusive id range by the next id, without control characters', () => {
    expect(employeeRowKeyRange('000100', '000199')).toEqual({
      ge: 'empid_000100',
      lt: 'empid_000200',
    });
    expect(employeeRowKeyRange(undefined, '999999')).toEqual({ ge: 'empid_', lt: 'empid`' });
    const { ge, lt } = employeeRowKeyRange('000199', '000199');
    expect('empid_000199' >= ge && 'empid_000199' < lt).toBe(true);
    expect('empid_000200' < lt).toBe(false);
  });
});
