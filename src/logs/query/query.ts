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
import { wholeNumberOutOfRange } from '../../domainErrors';
import { invalidQuerySource, reversedTimeWindow } from '../logErrors';
import { isLogSource, logHourPrefix } from '../../storage/keys/blobs/logBlobs';
import { mapBounded } from '../../storage/parallel';
import type { LogEntry } from '../entry';
import { levelMask, LOG_LEVELS, type LogLevel } from '../format/levels';
import { decodeLogLine } from '../format/lineFormat';
import {
  compareCursors,
  decodeLogCursor,
  encodeLogCursor,
  type LogCursor,
  type LogCursorScope,
} from './queryCursor';
import {
  blocksOfHour,
  downloadRange,
  wantedLinesByBlock,
  type LogContainers,
  type LogQueryStats,
  type Match,
} from './queryReads';
import { planSlice, rangesOf, type HourBlock } from './querySlice';

export type { LogQueryStats } from './queryReads';

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

/** One page of entries, in key order; `continuationToken` is `null` once the window is read. */
export interface LogPage {
  items: LogEntry[];
  continuationToken: string | null;
  stats: LogQueryStats;
}

const DEFAULT_LOG_PAGE_SIZE = 1000;
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
    throw invalidQuerySource();
  }
  if (query.to.getTime() < query.from.getTime()) {
    throw reversedTimeWindow();
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
  container: LogContainers,
  query: LogQuery,
  options: LogPageOptions = {},
): Promise<LogPage> {
  const read = startPage(container, query, options);
  while (read.position.atMs < read.scope.toMs && read.items.length < read.pageSize) {
    // Reaching here again means the previous hour was read to its end: progress was made.
    if (overBudget(read)) break;
    const hourStart = Math.floor(read.position.atMs / HOUR_MS) * HOUR_MS;
    const limit = Math.min(read.scope.toMs, hourStart + HOUR_MS);
    if ((await readHour(read, hourStart, limit)) === 'budgetSpent') return pageOf(read);
    if (read.position.atMs >= limit) read.position = { atMs: limit, sequence: 0, offset: 0 };
  }
  return pageOf(read);
}

/** One page being read: the query's scope, where it stands, what it found and spent. */
interface PageRead {
  container: LogContainers;
  source: string;
  scope: LogCursorScope;
  pageSize: number;
  position: LogCursor;
  items: LogEntry[];
  stats: LogQueryStats;
  /** Whether a slice was read yet (the first is read whatever it costs). */
  sliceRead: boolean;
}

/**
 * A page about to be read: the query and page size checked, where the token says to resume.
 *
 * @throws {ValidationError} as {@link queryLogPage} says.
 */
function startPage(container: LogContainers, query: LogQuery, options: LogPageOptions): PageRead {
  validateLogQuery(query);
  const pageSize = options.pageSize ?? DEFAULT_LOG_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_LOG_PAGE_SIZE) {
    throw wholeNumberOutOfRange('query.pageSize', MAX_LOG_PAGE_SIZE);
  }
  const scope: LogCursorScope = {
    source: query.source,
    fromMs: query.from.getTime(),
    toMs: query.to.getTime(),
    levelMask: query.levels && query.levels.length > 0 ? levelMask(query.levels) : ALL_LEVELS,
  };
  return {
    container,
    source: query.source,
    scope,
    pageSize,
    position:
      options.continuationToken === undefined
        ? { atMs: scope.fromMs, sequence: 0, offset: 0 }
        : decodeLogCursor(scope, options.continuationToken),
    items: [],
    stats: { hourPrefixes: [], blobsListed: 0, blockLists: 0, downloads: 0, bytesRead: 0 },
    sliceRead: false,
  };
}

/** The page as it stands, with a token unless the window is read to its end. */
function pageOf({ items, position, scope, stats }: PageRead): LogPage {
  return {
    items,
    continuationToken: position.atMs < scope.toMs ? encodeLogCursor(scope, position) : null,
    stats,
  };
}

/** Whether the page has used its request or byte budget. */
function overBudget({ stats }: PageRead): boolean {
  const requests = stats.hourPrefixes.length + stats.blockLists + stats.downloads;
  return requests >= LOG_PAGE_MAX_REQUESTS || stats.bytesRead >= LOG_PAGE_MAX_BYTES;
}

/** The wanted lines of the blocks this page downloaded from one hour, and those blocks. */
interface LoadedBlocks {
  lines: Map<HourBlock, Match[]>;
  blocks: Set<HourBlock>;
}

/**
 * Reads the hour from the page's position up to `limit`, slice by slice, until the page is full
 * or (after its first slice) the budget is spent.
 */
async function readHour(
  read: PageRead,
  hourStart: number,
  limit: number,
): Promise<'budgetSpent' | 'read'> {
  const { container, source, scope, stats } = read;
  const blocks = await blocksOfHour(container, source, hourStart, read.position.atMs, limit, {
    wanted: scope.levelMask,
    stats,
  });
  // The wanted lines of each block downloaded by this page: a block spanning many slices (late
  // entries flushed with current ones) is downloaded and parsed once per page, not per slice.
  const loaded: LoadedBlocks = { lines: new Map(), blocks: new Set() };
  while (read.position.atMs < limit && read.items.length < read.pageSize) {
    if (read.sliceRead && overBudget(read)) return 'budgetSpent';
    await readSlice(read, hourStart, limit, blocks, loaded);
  }
  return 'read';
}

/**
 * Reads the next time slice of the hour: downloads the blocks it needs that this page has not
 * loaded yet (nearby blocks in one ranged GET), and takes its entries in key order.
 */
async function readSlice(
  read: PageRead,
  hourStart: number,
  limit: number,
  blocks: readonly HourBlock[],
  loaded: LoadedBlocks,
): Promise<void> {
  const { container, source, scope, stats, items } = read;
  const needed = read.pageSize - items.length;
  const slice = planSlice(
    blocks,
    read.position.atMs,
    limit,
    { lines: needed, bytes: LOG_PAGE_MAX_BYTES - stats.bytesRead, blocks: SLICE_MAX_BLOCKS },
    loaded.blocks,
  );
  read.sliceRead = true;
  const missing = slice.blocks.filter((block) => !loaded.blocks.has(block));
  const found = await mapBounded(
    rangesOf(missing, RANGE_MAX_GAP),
    READ_CONCURRENCY,
    async (range) =>
      wantedLinesByBlock(
        await downloadRange(container, source, hourStart, range, stats),
        range,
        missing,
        scope.levelMask,
      ),
  );
  for (const [block, lines] of found.flatMap((byBlock) => [...byBlock])) {
    loaded.lines.set(block, lines);
    loaded.blocks.add(block);
  }
  const from = read.position;
  const matches = slice.blocks
    .flatMap((block) => loaded.lines.get(block) ?? [])
    .filter(
      (match) =>
        match.key.atMs >= slice.startMs &&
        match.key.atMs < slice.endMs &&
        compareCursors(match.key, from) >= 0,
    )
    .sort((a, b) => compareCursors(a.key, b.key));
  for (const match of matches.slice(0, needed)) {
    items.push(decodeLogLine(match.line, match.header).entry);
  }
  const rest = matches[needed];
  read.position = rest ? rest.key : { atMs: slice.endMs, sequence: 0, offset: 0 };
}
