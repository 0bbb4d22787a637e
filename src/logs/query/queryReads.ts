/**
 * The storage reads of a paged log query (query.ts): an hour's listing and committed blocks, ranged
 * GETs of blocks, and the wanted lines of what was downloaded.
 */
import type { ContainerClient } from '@azure/storage-blob';
import { isNotFound, toDomainError } from '../../storage/storageFaults';
import { logBlobName, logHourPrefix, parseLogBlobName } from '../../storage/keys/blobs/logBlobs';
import { mapBounded } from '../../storage/parallel';
import { levelBit, levelMask, LOG_LEVELS } from '../format/levels';
import { readLineHeader, type LineHeader } from '../format/lineFormat';
import { parseLogBlobMetadata } from '../format/metadata';
import { SEQUENCE_SPAN, type LogCursor } from './queryCursor';
import { blocksOfBlob, type BlobRange, type HourBlock } from './querySlice';

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

/** A matching line of a slice, with its key. */
export interface Match {
  key: LogCursor;
  line: string;
  header: LineHeader;
}

const HOUR_MS = 3_600_000;
const READ_CONCURRENCY = 4;

/** The logs container of one account, or every account's in order. */
export type LogContainers = ContainerClient | readonly ContainerClient[];

function containersOf(containers: LogContainers): readonly ContainerClient[] {
  return Array.isArray(containers) ? containers : [containers as ContainerClient];
}
const ALL_LEVELS = levelMask(LOG_LEVELS);

/**
 * The committed blocks of one hour that may hold wanted entries in `[fromMs, limitMs)`: one
 * listing of the hour prefix, then one Get Block List per blob its metadata does not rule out.
 */
export async function blocksOfHour(
  containers: LogContainers,
  ...hour: HourWindow
): Promise<HourBlock[]> {
  // Each account's blobs, their sequences offset by the account's span (queryCursor.ts).
  const perAccount = await Promise.all(
    containersOf(containers).map((container, index) =>
      blocksOfHourIn(container, index * SEQUENCE_SPAN, hour),
    ),
  );
  return perAccount.flat();
}

/** The hour a read is about: source, hour start, `[fromMs, limitMs)`, wanted levels and stats. */
type HourWindow = [
  source: string,
  hourStart: number,
  fromMs: number,
  limitMs: number,
  context: { wanted: number; stats: LogQueryStats },
];

/** {@link blocksOfHour} in one account's container, sequences offset by `base`. */
async function blocksOfHourIn(
  container: ContainerClient,
  base: number,
  [source, hourStart, fromMs, limitMs, context]: HourWindow,
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
    return blocksOfBlob(base + blob.sequence, hourStart, list, blob.fallback);
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
    if (!isNotFound(error)) throw toDomainError(error);
  }
  return blobs.sort((a, b) => a.sequence - b.sequence);
}

/** The committed block list; `undefined` when the blob has none (one Put Blob), `[]` if deleted. */
async function committedBlocks(
  container: ContainerClient,
  blobName: string,
): Promise<{ name: string; size: number }[] | undefined> {
  try {
    const list = await container.getBlockBlobClient(blobName).getBlockList('committed');
    const blocks = list.committedBlocks ?? [];
    return blocks.length > 0 ? blocks : undefined;
  } catch (error) {
    // Deleted since it was listed (retention): nothing left to read.
    if (isNotFound(error)) return [];
    throw toDomainError(error);
  }
}

export async function downloadRange(
  containers: LogContainers,
  source: string,
  hourStart: number,
  range: BlobRange,
  stats: LogQueryStats,
): Promise<Buffer> {
  stats.downloads++;
  const container = containersOf(containers)[Math.floor(range.sequence / SEQUENCE_SPAN)];
  const name = logBlobName(source, new Date(hourStart), range.sequence % SEQUENCE_SPAN);
  if (!container) return Buffer.alloc(0);
  let response;
  try {
    response = await container
      .getBlobClient(name)
      .download(range.offset, range.count, { maxRetryRequests: 5 });
  } catch (error) {
    if (isNotFound(error)) return Buffer.alloc(0);
    throw toDomainError(error);
  }
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response.readableStreamBody ?? []) chunks.push(chunk as Buffer);
  } catch (error) {
    throw toDomainError(error);
  }
  const bytes = Buffer.concat(chunks);
  stats.bytesRead += bytes.length;
  return bytes;
}

/**
 * The lines of a downloaded range with a wanted level, by the block (of `blocks`) they lie in;
 * every block of `blocks` inside the range gets an entry, lines in gaps between them (blocks this
 * slice does not need) are dropped.
 */
export function wantedLinesByBlock(
  bytes: Buffer,
  range: BlobRange,
  blocks: readonly HourBlock[],
  wanted: number,
): Map<HourBlock, Match[]> {
  const inRange = blocks
    .filter(
      (b) =>
        b.sequence === range.sequence &&
        b.offset >= range.offset &&
        b.offset < range.offset + range.count,
    )
    .sort((x, y) => x.offset - y.offset);
  const byBlock = new Map<HourBlock, Match[]>(inRange.map((block) => [block, []]));
  let current = 0;
  forEachLine(bytes, range.offset, (line, offset) => {
    while (current < inRange.length && offset >= inRange[current]!.offset + inRange[current]!.size)
      current++;
    const block = inRange[current];
    if (!block || offset < block.offset) return;
    const header = readLineHeader(line);
    if ((levelBit(header.level) & wanted) === 0) return;
    byBlock
      .get(block)!
      .push({ key: { atMs: header.atMs, sequence: range.sequence, offset }, line, header });
  });
  return byBlock;
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
