/**
 * Comparing what an index should hold with what it holds (pure): entries are matched by key,
 * and an entry that exists on both sides is stale when its content differs.
 */
import { SYSTEM_PROPERTIES } from '../../storage/tables/entities';

/** The drift between expected and stored entries of one index. */
export interface IndexDiff<E, S> {
  /** Keys compared (expected ∪ stored). */
  checked: number;
  /** Expected entries that storage lacks. */
  missing: E[];
  /** Stored entries whose content differs from the expected one. */
  differing: { expected: E; stored: S }[];
  /** Stored entries nothing expects (orphans). */
  orphaned: S[];
}

/**
 * Compares two keyed collections.
 *
 * @param same - true when a stored entry holds what the expected one says.
 */
export function diffIndex<E, S>(
  expected: ReadonlyMap<string, E>,
  stored: ReadonlyMap<string, S>,
  same: (expected: E, stored: S) => boolean,
): IndexDiff<E, S> {
  const diff: IndexDiff<E, S> = { checked: 0, missing: [], differing: [], orphaned: [] };
  for (const [key, entry] of expected) {
    diff.checked++;
    const found = stored.get(key);
    if (found === undefined) diff.missing.push(entry);
    else if (!same(entry, found)) diff.differing.push({ expected: entry, stored: found });
  }
  for (const [key, entry] of stored) {
    if (!expected.has(key)) {
      diff.checked++;
      diff.orphaned.push(entry);
    }
  }
  return diff;
}

/**
 * The data properties of an entity as canonical JSON (sorted names, keys and bookkeeping left
 * out), so two entities compare equal exactly when they hold the same data.
 */
export function dataFingerprint(
  entity: Record<string, unknown>,
  ignore: readonly string[] = [],
): string {
  const names = Object.keys(entity)
    .filter(
      (name) =>
        !SYSTEM_PROPERTIES.has(name) && !name.startsWith('odata.') && !ignore.includes(name),
    )
    .sort();
  return JSON.stringify(names.map((name) => [name, entity[name]]));
}

/** Map of items by a key. */
export function byKey<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) map.set(key(item), item);
  return map;
}
