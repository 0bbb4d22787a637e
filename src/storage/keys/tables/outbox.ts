/** Index outbox rows in a department partition of `Employees` (transactional outbox). */
import { invalidOutboxSequence, notAnOutboxRowKey } from '../keyErrors';
import { assertEmployeeId, isEmployeeId } from '../identifiers';
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
 * RowKey of the outbox sweep's checkpoint (src/indexing/drain/outboxSweep.ts), in the department
 * listing's partition (`.departments`): it sorts after every department name (names use only
 * " " to "z"), so listing reads (`[" ", "~")`) never see it.
 */
export const OUTBOX_SWEEP_ROW_KEY = '~outbox-sweep';

/**
 * Bounds of the department listing's rows together with {@link OUTBOX_SWEEP_ROW_KEY}: the sweep
 * reads both in one query.
 */
export function departmentListingAndSweepRange(): { ge: string; lt: string } {
  return { ge: ' ', lt: '~~' };
}
