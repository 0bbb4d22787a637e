import {
  emailCopyEntity,
  employeeEntity,
  foreignProperties,
  incarnationOf,
  newIncarnation,
  readEmployeeMeta,
  storedToEmployee,
} from '../../../../src/directory/entities/employeeEntity';
import { projectEmployee } from '../../../../src/directory/entities/employeeSelect';
import type { StoredEntity } from '../../../../src/storage/tables/entities';

const stored = (props: Record<string, unknown>): StoredEntity => ({
  etag: 'e',
  partitionKey: 'Sales',
  rowKey: 'empid_000001',
  ...props,
});

describe('employee entities', () => {
  const entity = employeeEntity(
    'Sales',
    {
      employeeId: '000001',
      firstName: `O'Brien`,
      lastName: '山田',
      email: 'A/B#c?@x.com',
      age: 40,
    },
    { isManager: true, writeId: 'w1', reviewYears: [2024, 2020], preserved: { Nickname: 'Bobby' } },
  );

  it("writes keys, type, data, bookkeeping and keeps a newer version's properties", () => {
    expect(entity).toMatchObject({
      rowKey: 'empid_000001',
      EntityType: 'Employee.v1',
      IsManager: true,
      WriteId: 'w1',
      ReviewYears: '20202024',
      Nickname: 'Bobby',
    });
  });

  it('reads the review years and the data ETag as bookkeeping, never as a foreign property', () => {
    const read = readEmployeeMeta({ ...entity, DataETag: 'W/"1"' });
    expect(read).toMatchObject({ reviewYears: [2020, 2024], dataEtag: 'W/"1"' });
    expect(read.preserved).toEqual({ Nickname: 'Bobby' });
    const { ReviewYears: _years, ...legacy } = entity;
    expect(readEmployeeMeta(legacy).reviewYears).toBeUndefined();
    expect(readEmployeeMeta(legacy).dataEtag).toBeUndefined();
  });

  it('makes a key-safe email copy without the bookkeeping', () => {
    const copy = emailCopyEntity(entity);
    expect(copy.rowKey).toBe('email_a%2Fb%23c%3F@x.com');
    expect(copy).not.toHaveProperty('IsManager');
    expect(copy).not.toHaveProperty('WriteId');
    expect(copy).not.toHaveProperty('ReviewYears');
    expect(emailCopyEntity({ ...entity, DataETag: 'W/"1"' })).not.toHaveProperty('DataETag');
    expect(copy).toMatchObject({ EntityType: 'EmployeeEmail.v1', Nickname: 'Bobby' });
  });

  it('reads both back as the API JSON, and skips types it does not know', () => {
    const json = {
      department: 'Sales',
      employeeId: '000001',
      firstName: `O'Brien`,
      lastName: '山田',
      email: 'A/B#c?@x.com',
      age: 40,
    };
    expect(storedToEmployee(stored(entity))).toEqual(json);
    expect(storedToEmployee(stored(emailCopyEntity(entity)))).toEqual(json);
    expect(storedToEmployee(stored({ ...entity, EntityType: 'Employee.v2' }))).toBeUndefined();
    expect(storedToEmployee(stored({ EntityType: 'Department.v1' }))).toBeUndefined();
  });

  it('projects only the selected fields plus the keys; a missing age is null', () => {
    const { Age: _age, ...noAge } = entity;
    expect(projectEmployee(stored(noAge), ['age', 'email'])).toEqual({
      department: 'Sales',
      employeeId: '000001',
      age: null,
      email: 'A/B#c?@x.com',
    });
  });

  it('lists only foreign properties as preserved', () => {
    expect(foreignProperties(stored(entity))).toEqual({ Nickname: 'Bobby' });
  });
});

describe('incarnations', () => {
  const data = { employeeId: '000001', firstName: 'A', lastName: 'B', email: 'a@x.com' };
  const incarnation = newIncarnation();

  it('a new incarnation is 32 random hex digits', () => {
    expect(incarnation).toMatch(/^[0-9a-f]{32}$/);
    expect(newIncarnation()).not.toBe(incarnation);
  });

  it('is written on the employee, read back as bookkeeping, and left off the email copy', () => {
    const entity = employeeEntity('Sales', data, { isManager: false, writeId: 'w', incarnation });
    expect(entity.Incarnation).toBe(incarnation);
    expect(readEmployeeMeta(stored(entity)).incarnation).toBe(incarnation);
    expect(readEmployeeMeta(stored(entity)).preserved).toEqual({});
    expect(incarnationOf(entity)).toBe(incarnation);
    expect(emailCopyEntity(entity)).not.toHaveProperty('Incarnation');
  });

  it('an entity without one is legacy, and stays without one when written again', () => {
    const entity = employeeEntity('Sales', data, { isManager: false, writeId: 'w' });
    expect(entity).not.toHaveProperty('Incarnation');
    expect(incarnationOf(entity)).toBe('legacy');
    expect(readEmployeeMeta(stored(entity)).incarnation).toBeUndefined();
  });
});
