/**
 * Log blob metadata, as Storage Analytics writes it: `StartTime` and `EndTime` (first and last
 * entry, to the second), `LogVersion`, and `LogType` (the levels present). Queries skip a blob
 * whose time range or levels cannot match without downloading it.
 */
import { formatLogType, parseLogType } from './levels';
import { LOG_FORMAT_VERSION } from './lineFormat';
import type { LogBlockSummary } from './blockId';
import { noBlocks } from '../logErrors';

/** The metadata of one log blob, parsed. */
export interface LogBlobMetadata {
  /** Earliest entry, truncated to the second. */
  startTime: Date;
  /** Latest entry, truncated to the second. */
  endTime: Date;
  levelMask: number;
  version: string;
}

/** `YYYY-MM-DDThh:mm:ssZ`. */
function formatMetadataTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The metadata of a blob made of these blocks, all in the hour starting at `hourStart`. */
export function metadataOfBlocks(
  hourStart: Date,
  blocks: readonly LogBlockSummary[],
): Record<string, string> {
  if (blocks.length === 0) throw noBlocks();
  let start = Infinity;
  let end = -Infinity;
  let mask = 0;
  for (const block of blocks) {
    start = Math.min(start, block.startSecond);
    end = Math.max(end, block.endSecond);
    mask |= block.levelMask;
  }
  return {
    StartTime: formatMetadataTime(new Date(hourStart.getTime() + start * 1000)),
    EndTime: formatMetadataTime(new Date(hourStart.getTime() + end * 1000)),
    LogVersion: LOG_FORMAT_VERSION,
    LogType: formatLogType(mask),
  };
}

/**
 * Reads the metadata of a listed blob (names matched case-insensitively: the service may return
 * them in another case than written).
 *
 * @returns `undefined` when `StartTime` or `EndTime` is missing or malformed.
 */
export function parseLogBlobMetadata(
  metadata: Record<string, string> | undefined,
): LogBlobMetadata | undefined {
  if (!metadata) return undefined;
  const byName = new Map(Object.entries(metadata).map(([k, v]) => [k.toLowerCase(), v]));
  const time = (name: string): Date | undefined => {
    const value = byName.get(name);
    if (value === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value))
      return undefined;
    const at = new Date(value);
    return Number.isNaN(at.getTime()) ? undefined : at;
  };
  const startTime = time('starttime');
  const endTime = time('endtime');
  if (!startTime || !endTime) return undefined;
  const logType = byName.get('logtype');
  return {
    startTime,
    endTime,
    // Without LogType nothing may be ruled out: assume every level.
    levelMask: logType === undefined ? 0xff : parseLogType(logType),
    version: byName.get('logversion') ?? '',
  };
}
