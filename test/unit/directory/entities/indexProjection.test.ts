import { employeeEntity } from '../../../../src/directory/entities/employeeEntity';
import { expectedSamePartitionIndexes } from '../../../../src/directory/entities/indexProjection';

const primary = (dept: string, id: string, lastName: string, email: string) =>
  employeeEntity(
    dept,
    { employeeId: id, firstName: 'F', lastName, email, age: 30 },
    { isManager: id === '000001', writeId: 'w' },
  );

describe('expected same-partition indexes', () => {
  it('derives one email copy per employee and one last-name entity per department and name', () => {
    const expected = expectedSamePartitionIndexes([
      primary('Sales', '000002', 'Jones', 'B@x.com'),
      primary('Sales', '000001', 'JONES', 'a@x.com'),
      primary('Ops', '000003', 'Jones', 'c@x.com'),
      { partitionKey: 'Sales', rowKey: 'department', EntityType: 'Department.v1' },
      { partitionKey: 'Sales', rowKey: 'empid_000009', EntityType: 'Employee.v9' },
    ]);
    expect(expected.emailCopies.map((c) => [c.partitionKey, c.rowKey])).toEqual([
      ['Sales', 'email_b@x.com'],
      ['Sales', 'email_a@x.com'],
      ['Ops', 'email_c@x.com'],
    ]);
    expect(expected.emailCopies[1]).not.toHaveProperty('IsManager');
    expect(expected.emailCopies[1]).toMatchObject({
      EntityType: 'EmployeeEmail.v1',
      Email: 'a@x.com',
      EmployeeId: '000001',
    });
    expect(expected.lastNameIndexes).toEqual([
      expect.objectContaining({
        partitionKey: 'Sales',
        rowKey: 'lastname_jones',
        Ids00: '000001000002',
        Count: 2,
      }),
      expect.objectContaining({
        partitionKey: 'Ops',
        rowKey: 'lastname_jones',
        Ids00: '000003',
        Count: 1,
      }),
    ]);
  });
});
