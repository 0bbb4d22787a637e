/**
 * Time-range queries over the log blobs: list only the hour prefixes the window touches, skip blobs
 * whose `StartTime`/`EndTime`/`LogType` metadata rule them out, and stream the rest line by line,
 * unescaping only the lines that match.
 */
import type { ContainerClient } from '@azure/storage-blob';
import { TooLargeError, ValidationError } from '../errors';
import { isNotFound, withStorageErrors } from '../storage/errors';
import { isLogSource, logHourPrefix, parseLogBlobName } from '../storage/keys';
import type { LogEntry } from './entry';
import { levelBit, levelMask, LOG_LEVELS, type LogLevel } from './levels';
import { decodeLogLine, readLineHeader } from './lineFormat';
import { parseLogBlobMetadata } from './metadata';
import { mapSettled } from '../storage/parallel';

/** A query: entries of `source` with `from <= at < to`, optionally only some levels. */
export interface LogQuery {
  source: string;
  from: Date;
  to: Date;
  /** Levels to return; all when omitted. */
  levels?: readonly LogLevel[];
}

/** Limits of a query. */
export interface LogQueryLimits {
  maxQueryEntries: number;
}

/** What a query read, for tests and benchmarks. */
export interface LogQueryStats {
  hourPrefixes: string[];
  blobsListed: number;
  blobsRead: number;
}

/** Widest window one query may cover. */
export const MAX_QUERY_WINDOW_MS = 24 * 3_600_000;
const HOUR_MS = 3_600_000;
/** Blobs downloaded at once. */
const DOWNLOAD_CONCURRENCY = 4;

/**
 * Checks a query's window and source.
 *
 * @throws {ValidationError} for an invalid source, `to` before `from`, or a window over 24 hours.
 */
export function validateLogQuery(query: LogQuery): void {
  if (!isLogSource(query.source)) {
    throw new ValidationError(
      'query.source: must be 1-63 lowercase letters, digits or "-", starting with a letter or digit.',
      'query.source',
      'InvalidSource',
    );
  }
  if (query.to.getTime() < query.from.getTime()) {
    throw new ValidationError(
      'query.to: must not be before query.from.',
      'query.to',
      'InvalidTimeWindow',
    );
  }
  if (query.to.getTime() - query.from.getTime() > MAX_QUERY_WINDOW_MS) {
    throw new ValidationError(
      'query.to: the window from query.from to query.to may span at most 24 hours.',
      'query.to',
      'TimeWindowTooWide',
    );
  }
}

/** The hour prefixes a window `[from, to)` touches, oldest first. */
export function hourPrefixesOf(source: string, from: Date, to: Date): string[] {
  const prefixes: string[] = [];
  for (
    let hour = Math.floor(from.getTime() / HOUR_MS) * HOUR_MS;
    hour < to.getTime();
    hour += HOUR_MS
  ) {
    prefixes.push(logHourPrefix(source, new Date(hour)));
  }
  return prefixes;
}

/**
 * Returns the matching entries in time order (entries of equal time keep their stored order).
 *
 * @throws {ValidationError} for an invalid query (see {@link validateLogQuery}).
 * @throws {TooLargeError} when more than `maxQueryEntries` entries match.
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
export async function queryLogs(
  container: ContainerClient,
  query: LogQuery,
  limits: LogQueryLimits,
): Promise<{ items: LogEntry[]; stats: LogQueryStats }> {
  validateLogQuery(query);
  const from = query.from.getTime();
  const to = query.to.getTime();
  const wanted =
    query.levels && query.levels.length > 0 ? levelMask(query.levels) : levelMask(LOG_LEVELS);
  const prefixes = hourPrefixesOf(query.source, query.from, query.to);
  const stats: LogQueryStats = { hourPrefixes: prefixes, blobsListed: 0, blobsRead: 0 };

  const listed = await mapSettled(prefixes, DOWNLOAD_CONCURRENCY, (prefix) =>
    listHour(container, prefix),
  );
  const blobNames: string[] = [];
  for (const outcome of listed) {
    if (outcome.status === 'rejected') throw outcome.reason;
    for (const blob of outcome.value) {
      stats.blobsListed++;
      const meta = parseLogBlobMetadata(blob.metadata);
      if (meta) {
        // Metadata times are truncated to the second: the blob holds entries in [start, end + 1 s).
        if (meta.startTime.getTime() >= to || meta.endTime.getTime() + 1000 <= from) continue;
        if ((meta.levelMask & wanted) === 0) continue;
      }
      blobNames.push(blob.name);
    }
  }

  let matched = 0;
  const read = await mapSettled(blobNames, DOWNLOAD_CONCURRENCY, async (name) => {
    stats.blobsRead++;
    const entries: LogEntry[] = [];
    await forEachLine(container, name, (line) => {
      const header = readLineHeader(line);
      if (header.atMs < from || header.atMs >= to || (levelBit(header.level) & wanted) === 0)
        return;
      if (++matched > limits.maxQueryEntries) {
        throw new TooLargeError(
          `More than ${limits.maxQueryEntries} entries match; narrow the time window or the levels.`,
          'TooManyLogEntries',
        );
      }
      entries.push(decodeLogLine(line, header).entry);
    });
    return entries;
  });
  const items: LogEntry[] = [];
  for (const outcome of read) {
    if (outcome.status === 'rejected') throw outcome.reason;
    items.push(...outcome.value);
  }
  // Blobs were read in name order (hour, then NNNNNN) and lines in stored order; sort is stable.
  items.sort((a, b) => a.at.getTime() - b.at.getTime());
  return { items, stats };
}

async function listHour(
  container: ContainerClient,
  prefix: string,
): Promise<{ name: string; metadata?: Record<string, string> }[]> {
  return withStorageErrors(async () => {
    const blobs: { name: string; metadata?: Record<string, string> }[] = [];
    try {
      for await (const item of container.listBlobsFlat({ prefix, includeMetadata: true })) {
        if (parseLogBlobName(item.name)) blobs.push({ name: item.name, metadata: item.metadata });
      }
    } catch (error) {
      // No container yet: nothing was ever logged.
      if (!isNotFound(error)) throw error;
    }
    return blobs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  });
}

/** Streams a blob and calls `onLine` for each line (UTF-8, split on the byte 0x0A). */
async function forEachLine(
  container: ContainerClient,
  blobName: string,
  onLine: (line: string) => void,
): Promise<void> {
  await withStorageErrors(async () => {
    let response;
    try {
      response = await container
        .getBlobClient(blobName)
        .download(0, undefined, { maxRetryRequests: 5 });
    } catch (error) {
      // Deleted since it was listed (retention): nothing left to read.
      if (isNotFound(error)) return;
      throw error;
    }
    const body = response.readableStreamBody;
    if (!body) return;
    let carry: Buffer = Buffer.alloc(0);
    for await (const chunk of body) {
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
      let start = 0;
      for (let end = bytes.indexOf(0x0a, start); end >= 0; end = bytes.indexOf(0x0a, start)) {
        if (end > start) onLine(bytes.toString('utf8', start, end));
        start = end + 1;
      }
      carry = bytes.subarray(start);
    }
    if (carry.length > 0) onLine(carry.toString('utf8'));
  });
}
