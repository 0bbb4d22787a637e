/** Index outbox rows in a department partition of `Employees` (transactional outbox). */
import { invalidOutboxSequence, notAnOutboxRowKey } from '../keyErrors';
import { assertDepartment, assertEmployeeId, isDepartmentName, isEmployeeId } from '../identifiers';
import { prefixRange } from '../text';

const OUTBOX_PREFIX = 'outbox_';
/** A sequence token: lowercase letters and digits, fixed order when compared as strings. */
const OUTBOX_SEQUENCE = /^[0-9a-z]{1,40}$/;

/**
 * RowKey of an index outbox row: `outbox_000223_<sequence>`. The employee id comes first, so one
 * employee's rows are contiguous, and the partition's rows are one range (`outboxRowKeyRange`).
 *
 * @throws {ValidationError} for an invalid employee id or a sequence that is not 1–40 characters
 *   of `[0-9a-z]`.
 */
export function outboxRowKey(employeeId: string, sequence: string): string {
  assertEmployeeId(employeeId);
  if (!OUTBOX_SEQUENCE.test(sequence)) {
    throw invalidOutboxSequence(sequence);
  }
  return `${OUTBOX_PREFIX}${employeeId}_${sequence}`;
}

/** Reverses {@link outboxRowKey}; `undefined` for any other RowKey. */
export function parseOutboxRowKey(
  rowKey: string,
): { employeeId: string; sequence: string } | undefined {
  if (!rowKey.startsWith(OUTBOX_PREFIX)) return undefined;
  const rest = rowKey.slice(OUTBOX_PREFIX.length);
  const employeeId = rest.slice(0, 6);
  const sequence = rest.slice(7);
  return isEmployeeId(employeeId) && rest[6] === '_' && OUTBOX_SEQUENCE.test(sequence)
    ? { employeeId, sequence }
    : undefined;
}

/** Bounds of every outbox row in a department partition (one range query drains them). */
export function outboxRowKeyRange(): { ge: string; lt: string } {
  return prefixRange(OUTBOX_PREFIX);
}

const OUTBOX_DEAD_LETTER_PREFIX = 'deadletter_';

/**
 * RowKey of the dead-letter record of an outbox row nobody can drain (no readable change), in the
 * same department partition: `deadletter_<the row's RowKey>`. Outside {@link outboxRowKeyRange}, so
 * drains never read it again.
 *
 * @throws {ValidationError} for a RowKey outside {@link outboxRowKeyRange}.
 */
export function outboxDeadLetterRowKey(outboxRowKey: string): string {
  const range = outboxRowKeyRange();
  if (!(outboxRowKey >= range.ge && outboxRowKey < range.lt)) {
    throw notAnOutboxRowKey(outboxRowKey);
  }
  return `${OUTBOX_DEAD_LETTER_PREFIX}${outboxRowKey}`;
}

/** Reverses {@link outboxDeadLetterRowKey}: the outbox row's RowKey; `undefined` for any other. */
export function parseOutboxDeadLetterRowKey(rowKey: string): string | undefined {
  if (!rowKey.startsWith(OUTBOX_DEAD_LETTER_PREFIX)) return undefined;
  const outboxRowKey = rowKey.slice(OUTBOX_DEAD_LETTER_PREFIX.length);
  const range = outboxRowKeyRange();
  return outboxRowKey >= range.ge && outboxRowKey < range.lt ? outboxRowKey : undefined;
}

/** Bounds of every outbox dead-letter record in a department partition. */
export function outboxDeadLetterRowKeyRange(): { ge: string; lt: string } {
  return prefixRange(OUTBOX_DEAD_LETTER_PREFIX);
}

/**
 * PartitionKey of the pending-work markers in `Employees` (home): one row per department whose
 * outbox rows no stored message stands for (src/indexing/drain/pendingMarkers.ts). It starts with
 * `.`, which no department name may contain, so it never collides with a department partition.
 */
export const PENDING_WORK_PARTITION_KEY = '.pending';

const PENDING_MARKER_PREFIX = 'pending_';

/**
 * RowKey of a department's pending-work marker: `pending_<department>`.
 *
 * @throws {ValidationError} for an invalid department name.
 */
export function pendingMarkerRowKey(department: string): string {
  assertDepartment(department);
  return `${PENDING_MARKER_PREFIX}${department}`;
}

/** Reverses {@link pendingMarkerRowKey}; `undefined` for any other RowKey. */
export function parsePendingMarkerRowKey(rowKey: string): string | undefined {
  if (!rowKey.startsWith(PENDING_MARKER_PREFIX)) return undefined;
  const department = rowKey.slice(PENDING_MARKER_PREFIX.length);
  return isDepartmentName(department) ? department : undefined;
}

/** Bounds of every pending-work marker in {@link PENDING_WORK_PARTITION_KEY}. */
export function pendingMarkerRowKeyRange(): { ge: string; lt: string } {
  return prefixRange(PENDING_MARKER_PREFIX);
}

/**
 * RowKey of the outbox walk's checkpoint (when the last full walk began, and the resume cursor of
 * one under way), in {@link PENDING_WORK_PARTITION_KEY}: it sorts after every marker, so the
 * sweep reads the markers and the checkpoint in one query of the whole partition.
 */
export const OUTBOX_WALK_ROW_KEY = '~outbox-walk';
