/**
 * Paged time-range queries over the log blobs (API.md "Logs", docs/logs.md "Query").
 *
 * A page walks the window from its cursor (queryCursor.ts) hour by hour. Per hour it lists only
 * that hour's prefix (with metadata), skips blobs whose `StartTime`/`EndTime`/`LogType` rule them
 * out, reads the committed block list of the others, and then reads the hour in time slices
 * (querySlice.ts): only the blocks whose second range overlaps the slice, by ranged GETs, sorted
 * into key order `(at, blob, offset)`. It stops once the page is full, or once it has used its
 * request or byte budget — then with a token, even if the page is short or empty — so no window
 * is too large to read and no request does unbounded work.
 */
import type { ContainerClient } from '@azure/storage-blob';
import { ValidationError } from '../errors';
import { isNotFound, withStorageErrors } from '../storage/errors';
import { isLogSource, logBlobName, logHourPrefix, parseLogBlobName } from '../storage/keys';
import { mapBounded } from '../storage/parallel';
import type { LogEntry } from './entry';
import { levelBit, levelMask, LOG_LEVELS, type LogLevel } from './levels';
import { decodeLogLine, readLineHeader, type LineHeader } from './lineFormat';
import { parseLogBlobMetadata } from './metadata';
import {
  compareCursors,
  decodeLogCursor,
  encodeLogCursor,
  type LogCursor,
  type LogCursorScope,
} from './queryCursor';
import { blocksOfBlob, planSlice, rangesOf, type BlobRange, type HourBlock } from './querySlice';

/** A query: entries of `source` with `from <= at < to`, optionally only some levels. */
export interface LogQuery {
  source: string;
  from: Date;
  to: Date;
  /** Levels to return; all when omitted or empty. */
  levels?: readonly LogLevel[];
}

/** Paging of a query. */
export interface LogPageOptions {
  /** 1–{@link MAX_LOG_PAGE_SIZE}, default {@link DEFAULT_LOG_PAGE_SIZE}. */
  pageSize?: number;
  /** From the previous page of the same query. */
  continuationToken?: string;
}

/** What one page read, for tests and benchmarks. */
export interface LogQueryStats {
  /** Hour prefixes listed, in order. */
  hourPrefixes: string[];
  blobsListed: number;
  /** Get Block List requests. */
  blockLists: number;
  /** Ranged GETs. */
  downloads: number;
  bytesRead: number;
}

/** One page of entries, in key order; `continuationToken` is `null` once the window is read. */
export interface LogPage {
  items: LogEntry[];
  continuationToken: string | null;
  stats: LogQueryStats;
}

export const DEFAULT_LOG_PAGE_SIZE = 1000;
export const MAX_LOG_PAGE_SIZE = 5000;
/**
 * A page stops starting new reads past this many storage requests or bytes downloaded. The first
 * slice of a page is read whatever it costs, so every page makes progress: at worst the blocks of
 * one second (bounded by the blob limits), plus one Get Block List per blob of its hour.
 */
export const LOG_PAGE_MAX_REQUESTS = 48;
export const LOG_PAGE_MAX_BYTES = 8 * 1024 * 1024;
/** Most blocks one slice reads (beyond its first second). */
const SLICE_MAX_BLOCKS = 512;
/** Blocks of one blob this close together share one ranged GET. */
const RANGE_MAX_GAP = 64 * 1024;
const HOUR_MS = 3_600_000;
const READ_CONCURRENCY = 4;
const ALL_LEVELS = levelMask(LOG_LEVELS);

/**
 * Checks a query's source and window. Any window width is accepted: it is read in pages.
 *
 * @throws {ValidationError} for an invalid source or `to` before `from`.
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

/** A matching line of a slice, with its key. */
interface Match {
  key: LogCursor;
  line: string;
  header: LineHeader;
}

/**
 * One page of the matching entries, ordered by time (ties: by blob, then by position in the blob,
 * i.e. the order they were stored in). Every entry of the window comes exactly once across the
 * pages of one token chain; entries flushed into the window after the chain passed their key are
 * not returned by it.
 *
 * @throws {ValidationError} for an invalid query (see {@link validateLogQuery}), a page size
 *   outside 1–{@link MAX_LOG_PAGE_SIZE}, or a continuation token of another query
 *   (`InvalidContinuationToken`).
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
export async function queryLogPage(
  container: ContainerClient,
  query: LogQuery,
  options: LogPageOptions = {},
): Promise<LogPage> {
  validateLogQuery(query);
  const pageSize = options.pageSize ?? DEFAULT_LOG_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_LOG_PAGE_SIZE) {
    throw new ValidationError(
      `query.pageSize: must be a whole number from 1 to ${MAX_LOG_PAGE_SIZE}.`,
      'query.pageSize',
    );
  }
  const wanted = query.levels && query.levels.length > 0 ? levelMask(query.levels) : ALL_LEVELS;
  const to = query.to.getTime();
  const scope: LogCursorScope = {
    source: query.source,
    fromMs: query.from.getTime(),
    toMs: to,
    levelMask: wanted,
  };
  let position: LogCursor =
    options.continuationToken === undefined
      ? { atMs: scope.fromMs, sequence: 0, offset: 0 }
      : decodeLogCursor(scope, options.continuationToken);

  const stats: LogQueryStats = {
    hourPrefixes: [],
    blobsListed: 0,
    blockLists: 0,
    downloads: 0,
    bytesRead: 0,
  };
  const requests = (): number => stats.hourPrefixes.length + stats.blockLists + stats.downloads;
  const items: LogEntry[] = [];
  const page = (): LogPage => ({
    items,
    continuationToken: position.atMs < to ? encodeLogCursor(scope, position) : null,
    stats,
  });
  let sliceRead = false;

  while (position.atMs < to && items.length < pageSize) {
    // Reaching here again means the previous hour was read to its end: progress was made.
    if (requests() >= LOG_PAGE_MAX_REQUESTS || stats.bytesRead >= LOG_PAGE_MAX_BYTES) break;
    const hourStart = Math.floor(position.atMs / HOUR_MS) * HOUR_MS;
    const limit = Math.min(to, hourStart + HOUR_MS);
    const blocks = await blocksOfHour(container, query.source, hourStart, position.atMs, limit, {
      wanted,
      stats,
    });
    while (position.atMs < limit && items.length < pageSize) {
      if (
        sliceRead &&
        (requests() >= LOG_PAGE_MAX_REQUESTS || stats.bytesRead >= LOG_PAGE_MAX_BYTES)
      ) {
        return page();
      }
      const needed = pageSize - items.length;
      const slice = planSlice(blocks, position.atMs, limit, {
        lines: needed,
        bytes: LOG_PAGE_MAX_BYTES - stats.bytesRead,
        blocks: SLICE_MAX_BLOCKS,
      });
      sliceRead = true;
      const from = position;
      const matches: Match[] = [];
      const ranges = rangesOf(slice.blocks, RANGE_MAX_GAP);
      await mapBounded(ranges, READ_CONCURRENCY, async (range) => {
        const bytes = await downloadRange(container, query.source, hourStart, range, stats);
        forEachLine(bytes, range.offset, (line, offset) => {
          const header = readLineHeader(line);
          if (header.atMs < slice.startMs || header.atMs >= slice.endMs) return;
          if ((levelBit(header.level) & wanted) === 0) return;
          const key = { atMs: header.atMs, sequence: range.sequence, offset };
          if (compareCursors(key, from) >= 0) matches.push({ key, line, header });
        });
      });
      matches.sort((a, b) => compareCursors(a.key, b.key));
      for (const match of matches.slice(0, needed)) {
        items.push(decodeLogLine(match.line, match.header).entry);
      }
      const rest = matches[needed];
      position = rest ? rest.key : { atMs: slice.endMs, sequence: 0, offset: 0 };
    }
    position = position.atMs < limit ? position : { atMs: limit, sequence: 0, offset: 0 };
  }
  return page();
}

/**
 * The committed blocks of one hour that may hold wanted entries in `[fromMs, limitMs)`: one
 * listing of the hour prefix, then one Get Block List per blob its metadata does not rule out.
 */
async function blocksOfHour(
  container: ContainerClient,
  source: string,
  hourStart: number,
  fromMs: number,
  limitMs: number,
  context: { wanted: number; stats: LogQueryStats },
): Promise<HourBlock[]> {
  const { wanted, stats } = context;
  const prefix = logHourPrefix(source, new Date(hourStart));
  stats.hourPrefixes.push(prefix);
  const listed = await listHour(container, prefix);
  stats.blobsListed += listed.length;
  const candidates = listed.flatMap((blob) => {
    const meta = parseLogBlobMetadata(blob.metadata);
    // Metadata times are truncated to the second: the blob holds entries in [start, end + 1 s).
    const fallback = meta
      ? {
          startMs: Math.max(hourStart, meta.startTime.getTime()),
          endMs: Math.min(hourStart + HOUR_MS, meta.endTime.getTime() + 1000),
          levelMask: meta.levelMask,
        }
      : { startMs: hourStart, endMs: hourStart + HOUR_MS, levelMask: ALL_LEVELS };
    if (fallback.startMs >= limitMs || fallback.endMs <= fromMs) return [];
    if ((fallback.levelMask & wanted) === 0) return [];
    return [{ ...blob, fallback }];
  });
  const perBlob = await mapBounded(candidates, READ_CONCURRENCY, async (blob) => {
    stats.blockLists++;
    const committed = await committedBlocks(container, blob.name);
    // A blob written in one Put Blob has no block list: one block of its whole length.
    const list =
      committed ?? (blob.contentLength > 0 ? [{ name: '', size: blob.contentLength }] : []);
    return blocksOfBlob(blob.sequence, hourStart, list, blob.fallback);
  });
  return perBlob
    .flat()
    .filter(
      (block) =>
        (block.levelMask & wanted) !== 0 && block.startMs < limitMs && block.endMs > fromMs,
    );
}

interface ListedBlob {
  name: string;
  sequence: number;
  contentLength: number;
  metadata?: Record<string, string>;
}

async function listHour(container: ContainerClient, prefix: string): Promise<ListedBlob[]> {
  return withStorageErrors(async () => {
    const blobs: ListedBlob[] = [];
    try {
      for await (const item of container.listBlobsFlat({ prefix, includeMetadata: true })) {
        const parsed = parseLogBlobName(item.name);
        if (!parsed) continue;
        blobs.push({
          name: item.name,
          sequence: parsed.sequence,
          contentLength: item.properties.contentLength ?? 0,
          metadata: item.metadata,
        });
      }
    } catch (error) {
      // No container yet: nothing was ever logged.
      if (!isNotFound(error)) throw error;
    }
    return blobs.sort((a, b) => a.sequence - b.sequence);
  });
}

/** The committed block list; `undefined` when the blob has none (one Put Blob); `[]` when deleted. */
async function committedBlocks(
  container: ContainerClient,
  blobName: string,
): Promise<{ name: string; size: number }[] | undefined> {
  return withStorageErrors(async () => {
    try {
      const list = await container.getBlockBlobClient(blobName).getBlockList('committed');
      const blocks = list.committedBlocks ?? [];
      return blocks.length > 0 ? blocks : undefined;
    } catch (error) {
      // Deleted since it was listed (retention): nothing left to read.
      if (isNotFound(error)) return [];
      throw error;
    }
  });
}

async function downloadRange(
  container: ContainerClient,
  source: string,
  hourStart: number,
  range: BlobRange,
  stats: LogQueryStats,
): Promise<Buffer> {
  stats.downloads++;
  const name = logBlobName(source, new Date(hourStart), range.sequence);
  return withStorageErrors(async () => {
    let response;
    try {
      response = await container
        .getBlobClient(name)
        .download(range.offset, range.count, { maxRetryRequests: 5 });
    } catch (error) {
      if (isNotFound(error)) return Buffer.alloc(0);
      throw error;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of response.readableStreamBody ?? []) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    stats.bytesRead += bytes.length;
    return bytes;
  });
}

/**
 * Calls `onLine` for each line of `bytes` (UTF-8, split on the byte 0x0A) with its offset in the
 * blob. A range starts and ends on block boundaries, and every block ends with a line feed.
 */
function forEachLine(
  bytes: Buffer,
  baseOffset: number,
  onLine: (line: string, offset: number) => void,
): void {
  let start = 0;
  for (let end = bytes.indexOf(0x0a, start); end >= 0; end = bytes.indexOf(0x0a, start)) {
    if (end > start) onLine(bytes.toString('utf8', start, end), baseOffset + start);
    start = end + 1;
  }
  if (start < bytes.length) onLine(bytes.toString('utf8', start), baseOffset + start);
}
