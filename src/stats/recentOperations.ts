/**
 * Operation markers of the message counters: the ids of the increments a day entity has recently
 * taken, kept in the entity's own `RecentOperations` property and rewritten by the same Merge that
 * changes the counter, so the marker commits (or not) in the same entity group transaction as the
 * count it guards.
 *
 * An increment whose answer was lost re-reads the day entity and finds its id there even when
 * other writers have incremented since — which a single "last operation" property cannot tell.
 *
 * The list is bounded two ways: an id is forgotten {@link OPERATION_MEMORY_MS} after it was
 * written (an increment stops retrying long before, see {@link OPERATION_RETRY_WINDOW_MS}), and at
 * most {@link MAX_REMEMBERED_OPERATIONS} ids are kept (the oldest go first), about 24 KiB of text,
 * well inside the 64 KiB of one string property.
 *
 * Stored form: `<id>.<seconds>` entries separated by spaces, oldest first, where `<id>` is 16
 * lowercase hex digits and `<seconds>` the Unix time of the write in base 36.
 */

/** How long an id stays in the list after its increment wrote it. */
export const OPERATION_MEMORY_MS = 10 * 60_000;

/**
 * How long after its first transaction an increment may still retry: half the memory, so clock
 * differences between writers (they prune by their own clocks) cannot forget an id still in use.
 */
export const OPERATION_RETRY_WINDOW_MS = OPERATION_MEMORY_MS / 2;

/** Most ids one day entity remembers; beyond it the oldest are dropped. */
export const MAX_REMEMBERED_OPERATIONS = 1_000;

const OPERATION_ID = /^[0-9a-f]{16}$/;
const ENTRY = /^([0-9a-f]{16})\.([0-9a-z]{1,8})$/;

/** True for a well-formed operation id (16 lowercase hex digits). */
export function isOperationId(id: string): boolean {
  return OPERATION_ID.test(id);
}

interface Entry {
  id: string;
  seconds: number;
}

/** Parses the stored list; malformed entries (or a value that is not text) are ignored. */
function parse(stored: unknown): Entry[] {
  if (typeof stored !== 'string' || stored === '') return [];
  const entries: Entry[] = [];
  for (const text of stored.split(' ')) {
    const match = ENTRY.exec(text);
    if (match) entries.push({ id: match[1]!, seconds: parseInt(match[2]!, 36) });
  }
  return entries;
}

/**
 * True when the stored list `stored` (the `RecentOperations` property as read) holds `id`.
 *
 * @throws {Error} when `id` is not an operation id (a bug).
 */
export function remembersOperation(stored: unknown, id: string): boolean {
  if (!isOperationId(id)) throw new Error(`"${id}" is not an operation id.`);
  return parse(stored).some((entry) => entry.id === id);
}

/**
 * The list to store with an increment: `stored` without ids older than {@link OPERATION_MEMORY_MS}
 * at `now`, then `id` stamped `now`, keeping at most {@link MAX_REMEMBERED_OPERATIONS} entries.
 *
 * @throws {Error} when `id` is not an operation id (a bug).
 */
export function rememberOperation(stored: unknown, id: string, now: Date): string {
  if (!isOperationId(id)) throw new Error(`"${id}" is not an operation id.`);
  const seconds = Math.floor(now.getTime() / 1_000);
  const oldest = seconds - OPERATION_MEMORY_MS / 1_000;
  const kept = parse(stored).filter((entry) => entry.seconds >= oldest && entry.id !== id);
  kept.push({ id, seconds });
  return kept
    .slice(-MAX_REMEMBERED_OPERATIONS)
    .map((entry) => `${entry.id}.${Math.max(0, entry.seconds).toString(36)}`)
    .join(' ');
}
