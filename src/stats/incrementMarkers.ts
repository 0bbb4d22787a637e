/**
 * Operation markers of the message counters: the ids of the increments a day entity has recently
 * taken, kept in the entity's own `RecentOperations` property and rewritten by the same Merge that
 * changes the counter, so the marker commits (or not) in the same entity group transaction as the
 * count it guards.
 *
 * The list is bounded by time only: an id is forgotten {@link INCREMENT_MEMORY_MS} after it was
 * written, never earlier (forgetting a live id would let its late retry count twice); at most
 * {@link MAX_REMEMBERED_INCREMENTS} ids per employee-day, one more is refused.
 *
 * Stored form: `<id>.<seconds>` entries separated by spaces, oldest first, where `<id>` is 16
 * lowercase hex digits and `<seconds>` the Unix time of the write in base 36.
 * Why: docs/time-and-volume.md "Data series and wide entities: message statistics".
 */
import { notAnIncrementId } from './statsErrors';

/** How long an id stays in the list after its increment wrote it. */
export const INCREMENT_MEMORY_MS = 10 * 60_000;

/**
 * How long after its first transaction an increment may still retry: half the memory, so clock
 * differences between writers (they prune by their own clocks) cannot forget an id still in use.
 */
export const INCREMENT_RETRY_WINDOW_MS = INCREMENT_MEMORY_MS / 2;

/** Most live ids one day entity holds; an increment beyond it is refused, none forgotten. */
export const MAX_REMEMBERED_INCREMENTS = 1_000;

const OPERATION_ID = /^[0-9a-f]{16}$/;
const ENTRY = /^([0-9a-f]{16})\.([0-9a-z]{1,8})$/;

/** True for a well-formed operation id (16 lowercase hex digits). */
export function isIncrementId(id: string): boolean {
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
export function remembersIncrement(stored: unknown, id: string): boolean {
  if (!isIncrementId(id)) throw notAnIncrementId(id);
  return parse(stored).some((entry) => entry.id === id);
}

function live(stored: unknown, now: Date): Entry[] {
  const oldest = Math.floor(now.getTime() / 1_000) - INCREMENT_MEMORY_MS / 1_000;
  return parse(stored).filter((entry) => entry.seconds >= oldest);
}

function format(entries: readonly Entry[]): string {
  return entries.map((entry) => `${entry.id}.${Math.max(0, entry.seconds).toString(36)}`).join(' ');
}

/**
 * The list to store with an increment: `stored` without ids older than {@link INCREMENT_MEMORY_MS}
 * at `now`, then `id` stamped `now`.
 *
 * @returns the list, or `undefined` when it already holds {@link MAX_REMEMBERED_INCREMENTS} live
 *   ids: the increment must wait (remembering it would mean forgetting a live one).
 * @throws {Error} when `id` is not an operation id (a bug).
 */
export function rememberIncrement(stored: unknown, id: string, now: Date): string | undefined {
  if (!isIncrementId(id)) throw notAnIncrementId(id);
  const kept = live(stored, now).filter((entry) => entry.id !== id);
  if (kept.length >= MAX_REMEMBERED_INCREMENTS) return undefined;
  kept.push({ id, seconds: Math.floor(now.getTime() / 1_000) });
  return format(kept);
}

/**
 * The stored list without the ids that aged out at `now` (`''` when none is left), or `undefined`
 * when there is nothing to prune (no list, or every id still live).
 */
export function liveIncrements(stored: unknown, now: Date): string | undefined {
  const all = parse(stored);
  const kept = live(stored, now);
  if (typeof stored !== 'string' || stored === '') return undefined;
  return kept.length === all.length && all.length > 0 ? undefined : format(kept);
}
