/** Keys of the pending-work markers and the outbox walk's checkpoint (`.pending` in Employees). */
import { ValidationError } from '../../../../src/domainErrors';
import { parseDepartmentPartitionKey } from '../../../../src/storage/keys/tables/employees';
import {
  OUTBOX_WALK_ROW_KEY,
  parsePendingMarkerRowKey,
  PENDING_WORK_PARTITION_KEY,
  pendingMarkerRowKey,
  pendingMarkerRowKeyRange,
} from '../../../../src/storage/keys/tables/outbox';

it('round-trips a department through its marker RowKey, and refuses other keys', () => {
  for (const department of ['Sales', 'zz Last', 'R-D_1']) {
    expect(parsePendingMarkerRowKey(pendingMarkerRowKey(department))).toBe(department);
  }
  expect(parsePendingMarkerRowKey(OUTBOX_WALK_ROW_KEY)).toBeUndefined();
  expect(parsePendingMarkerRowKey('pending_')).toBeUndefined();
  expect(() => pendingMarkerRowKey('bad/name')).toThrow(ValidationError);
});

it('keeps the partition apart from every department, and the checkpoint after every marker', () => {
  expect(parseDepartmentPartitionKey(PENDING_WORK_PARTITION_KEY)).toBeUndefined();
  const range = pendingMarkerRowKeyRange();
  const key = pendingMarkerRowKey('zzzz');
  expect(key >= range.ge && key < range.lt).toBe(true);
  expect(OUTBOX_WALK_ROW_KEY >= range.lt).toBe(true);
  // Every RowKey of the partition is below DEL: readPendingWork reads [" ", DEL) whole.
  expect(OUTBOX_WALK_ROW_KEY < '\u007f' && key < '\u007f').toBe(true);
});
