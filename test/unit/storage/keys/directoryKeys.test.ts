import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
  employeeRowKeyRange,
  nextEmployeeId,
  reviewRowKey,
  reviewsRowKeyRange,
  parseDepartmentListRowKey,
  parseDepartmentPartitionKey,
} from '../../../../src/storage/keys/tables/employees';
import { idIndexRowKeyRange } from '../../../../src/storage/keys/tables/employeeIndex';

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

  it('bounds the reviews and the by-id entries of an id range (one page of the paged audit)', () => {
    const reviews = reviewsRowKeyRange('000100', '000199');
    const inReviews = (key: string) => key >= reviews.ge && key < reviews.lt;
    expect(inReviews(reviewRowKey('000100', 2024))).toBe(true);
    expect(inReviews(reviewRowKey('000199', 9999))).toBe(true);
    expect(inReviews(reviewRowKey('000099', 2024))).toBe(false);
    expect(inReviews(reviewRowKey('000200', 1900))).toBe(false);
    expect(reviewsRowKeyRange()).toEqual(reviewsRowKeyRange(undefined, '999999'));

    const ids = idIndexRowKeyRange('000100', '000199');
    expect(ids).toEqual({ ge: '000100', lt: '000200' });
    const all = idIndexRowKeyRange();
    expect('000000' >= all.ge && '999999' < all.lt).toBe(true);
    expect('~fence' < all.lt).toBe(false); // the drain fence is no entry
    expect(nextEmployeeId('000199')).toBe('000200');
    expect(nextEmployeeId('999999')).toBeUndefined();
  });
});
