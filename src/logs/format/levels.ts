/**
 * Log levels, their order, and the compact mask that block ids and the `LogType` metadata carry.
 */
import { unknownLevel } from '../logErrors';

/** Accepted levels, in the fixed order `LogType` lists them. */
export const LOG_LEVELS = ['Verbose', 'Information', 'Warning', 'Error', 'Critical'] as const;

/** One log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

const LEVEL_BITS = new Map<string, number>(LOG_LEVELS.map((level, index) => [level, 1 << index]));

/** True for one of {@link LOG_LEVELS} (exact spelling). */
export function isLogLevel(value: string): value is LogLevel {
  return LEVEL_BITS.has(value);
}

/** The bit of one level in a level mask. */
export function levelBit(level: LogLevel): number {
  return LEVEL_BITS.get(level)!;
}

/** The mask of a set of levels. */
export function levelMask(levels: Iterable<LogLevel>): number {
  let mask = 0;
  for (const level of levels) mask |= levelBit(level);
  return mask;
}

/** The levels of a mask, in {@link LOG_LEVELS} order. */
function levelsOfMask(mask: number): LogLevel[] {
  return LOG_LEVELS.filter((level) => (mask & levelBit(level)) !== 0);
}

/** `LogType` metadata value: the levels present, comma-separated, e.g. `Information,Error`. */
export function formatLogType(mask: number): string {
  return levelsOfMask(mask).join(',');
}

/** Reverses {@link formatLogType}; unknown names are ignored (older or foreign writers). */
export function parseLogType(logType: string): number {
  let mask = 0;
  for (const name of logType.split(',')) {
    const trimmed = name.trim();
    if (isLogLevel(trimmed)) mask |= levelBit(trimmed);
  }
  return mask;
}

/**
 * Parses a comma-separated level filter such as `Error,Critical`.
 *
 * @throws {ValidationError} for an empty list or a name that is not a level.
 */
export function parseLevelFilter(value: string, target = 'query.level'): LogLevel[] {
  const names = value.split(',').map((name) => name.trim());
  const levels: LogLevel[] = [];
  for (const name of names) {
    if (!isLogLevel(name)) {
      throw unknownLevel(target, name, LOG_LEVELS);
    }
    if (!levels.includes(name)) levels.push(name);
  }
  return levels;
}
