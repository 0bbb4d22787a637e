/**
 * Keys of index outbox rows: encode/decode round trip, refusal of invalid ids and sequences,
 * contiguity of one employee's rows, and the one range that holds the outbox rows only.
 */
import { ValidationError } from '../../../../src/domainErrors';
import * as employeesKeys from '../../../../src/storage/keys/tables/employees';
import * as outboxKeys from '../../../../src/storage/keys/tables/outbox';

/** The key families this test reads, under one name. */
const keys = { ...employeesKeys, ...outboxKeys };

const inRange = (key: string): boolean => {
  const range = keys.outboxRowKeyRange();
  return key >= range.ge && key < range.lt;
};

describe('index outbox keys', () => {
  it('round-trip an employee id and a sequence', () => {
    const rowKey = keys.outboxRowKey('000223', 'lx2k9a0b1f3e5d7c9a');
    expect(rowKey).toBe('outbox_000223_lx2k9a0b1f3e5d7c9a');
    expect(keys.parseOutboxRowKey(rowKey)).toEqual({
      employeeId: '000223',
      sequence: 'lx2k9a0b1f3e5d7c9a',
    });
  });

  it("keep one employee's rows contiguous and in sequence order", () => {
    const rowKeys = [
      keys.outboxRowKey('000001', 'b'),
      keys.outboxRowKey('000002', 'a'),
      keys.outboxRowKey('000001', 'a'),
      keys.outboxRowKey('000001', 'zz'),
    ].sort();
    expect(rowKeys.map((k) => keys.parseOutboxRowKey(k))).toEqual([
      { employeeId: '000001', sequence: 'a' },
      { employeeId: '000001', sequence: 'b' },
      { employeeId: '000001', sequence: 'zz' },
      { employeeId: '000002', sequence: 'a' },
    ]);
  });

  it.each([
    ['22', 'a'],
    ['0002230', 'a'],
    ['00022a', 'a'],
    ['000223', ''],
    ['000223', 'A'],
    ['000223', 'a_b'],
    ['000223', 'a-b'],
    ['000223', 'é'],
    ['000223', '\u0000'],
    ['000223', 'a'.repeat(41)],
  ])('refuse employee %p with sequence %p', (employeeId, sequence) => {
    expect(() => keys.outboxRowKey(employeeId, sequence)).toThrow(ValidationError);
  });

  it('parse nothing but outbox keys', () => {
    for (const other of [
      'outbox_',
      'outbox_000223',
      'outbox_000223_',
      'outbox_000223-abc',
      'outbox_00022_abc',
      'outbox_000223_ABC',
      'outbox_000223_a/b',
      'Outbox_000223_abc',
      'empid_000223',
      'email_a@b.c',
      '',
      `outbox_000223_${'a'.repeat(41)}`,
    ]) {
      expect(keys.parseOutboxRowKey(other)).toBeUndefined();
    }
  });

  it('select outbox rows only, with the range that one drain query uses', () => {
    expect(inRange(keys.outboxRowKey('000000', '0'))).toBe(true);
    expect(inRange(keys.outboxRowKey('999999', 'z'.repeat(40)))).toBe(true);
    for (const other of [
      keys.employeeRowKey('000223'),
      keys.emailRowKey('outbox@contoso.com'),
      keys.lastNameRowKey('Outbox'),
      keys.reviewRowKey('000223', 2024),
      keys.departmentCountShardRowKey(3),
      keys.DEPARTMENT_ROW_KEY,
      'outbox',
      'outboy',
    ]) {
      expect(inRange(other)).toBe(false);
    }
  });
});

describe('outbox dead-letter keys', () => {
  it('round-trip the RowKey of any outbox row, outside the outbox range', () => {
    for (const rowKey of [keys.outboxRowKey('000223', 'abc'), 'outbox_garbage']) {
      const dead = keys.outboxDeadLetterRowKey(rowKey);
      expect(dead).toBe(`deadletter_${rowKey}`);
      expect(keys.parseOutboxDeadLetterRowKey(dead)).toBe(rowKey);
      expect(inRange(dead)).toBe(false);
      const range = keys.outboxDeadLetterRowKeyRange();
      expect(dead >= range.ge && dead < range.lt).toBe(true);
    }
  });

  it('refuse what is no outbox row, and parse nothing else', () => {
    expect(() => keys.outboxDeadLetterRowKey('empid_000001')).toThrow(ValidationError);
    expect(keys.parseOutboxDeadLetterRowKey('deadletter_empid_000001')).toBeUndefined();
    expect(keys.parseOutboxDeadLetterRowKey('outbox_000001_a')).toBeUndefined();
  });
});
