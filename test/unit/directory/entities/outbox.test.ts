/**
 * Index outbox rows: what a row stores and reads back, packing of large change lists, and rows
 * that are damaged or of another type.
 */
import {
  MAX_OUTBOX_CHANGES_CHARS,
  newOutboxSequence,
  outboxEntity,
  packOutboxChanges,
  readOutboxRow,
  type OutboxChange,
} from '../../../../src/directory/entities/outbox';
import { parseOutboxRowKey } from '../../../../src/storage/keys/tables/outbox';

const stored = (entity: Record<string, unknown>) => ({ ...entity, etag: 'W/"1"' });

describe('index outbox rows', () => {
  it('store and read back changes with awkward names and addresses', () => {
    const changes: OutboxChange[] = [
      {
        employeeId: '000001',
        reason: 'updated',
        current: { email: 'o\'brien+"x"@contoso.com', lastName: 'Ørsted-Ünal \\ 😀' },
        previous: { email: 'old@contoso.com', lastName: "O'Brien" },
      },
      { employeeId: '000002', reason: 'deleted', previous: { email: 'gone@contoso.com' } },
      { employeeId: '000003', reason: 'imported', current: { email: 'i@c.o', lastName: 'x' } },
    ];
    const entity = outboxEntity('Sales', changes, 'abc');
    expect(entity.rowKey).toBe('outbox_000001_abc');
    const row = readOutboxRow(stored(entity));
    expect(row).toEqual({ rowKey: 'outbox_000001_abc', etag: 'W/"1"', changes });
  });

  it('make unique, well-formed sequences that sort by time', () => {
    const a = newOutboxSequence(1_000);
    const b = newOutboxSequence(2_000_000_000_000);
    expect(parseOutboxRowKey(`outbox_000001_${a}`)).toBeDefined();
    expect(a < b).toBe(true);
    expect(newOutboxSequence(5)).not.toBe(newOutboxSequence(5));
  });

  it('pack many changes into rows that each fit one string property', () => {
    const changes: OutboxChange[] = Array.from({ length: 200 }, (_, i) => ({
      employeeId: String(i).padStart(6, '0'),
      reason: 'imported',
      current: { email: `${'e'.repeat(240)}${i}@c.o`, lastName: 'n'.repeat(200) },
    }));
    const packed = packOutboxChanges(changes);
    expect(packed.length).toBeGreaterThan(1);
    expect(packed.flat()).toEqual(changes);
    for (const part of packed) {
      expect(String(outboxEntity('Sales', part).Changes).length).toBeLessThanOrEqual(
        MAX_OUTBOX_CHANGES_CHARS,
      );
    }
    expect(() => outboxEntity('Sales', changes)).toThrow(/characters/);
    expect(() => outboxEntity('Sales', [])).toThrow();
  });

  it('skip other entities and drop unreadable changes, keeping the row to delete', () => {
    const entity = outboxEntity('Sales', [{ employeeId: '000001', reason: 'created' }], 'a');
    expect(readOutboxRow({ ...stored(entity), EntityType: 'Employee.v1' })).toBeUndefined();
    expect(readOutboxRow({ ...stored(entity), rowKey: 'empid_000001' })).toBeUndefined();
    expect(readOutboxRow(entity)).toBeUndefined(); // no ETag: not read from storage
    for (const damaged of ['not json', '{"id":"000001"}', '[{"id":"12"},42,null]']) {
      expect(readOutboxRow({ ...stored(entity), Changes: damaged })?.changes).toEqual([]);
    }
    const oddReason = readOutboxRow({
      ...stored(entity),
      Changes: JSON.stringify([{ id: '000001', r: 'exploded', e: 'a@b.c' }]),
    });
    // An unknown reason reads as an update; an email without a last name is no current state.
    expect(oddReason?.changes).toEqual([{ employeeId: '000001', reason: 'updated' }]);
  });
});
