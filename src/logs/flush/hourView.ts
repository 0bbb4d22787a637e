/**
 * What an hour of one source's log blobs already holds, for `appendToHour` (./hourWriter.ts): a
 * blob's view from its committed block list (full or not), the newest blob not full, and which
 * pending parts are stored already: named by a blob's tag ledger (tagLedger.ts), else found by
 * downloading the blocks no ledger describes. Why: docs/logs.md "Exactly-once lines".
 */
import type { BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import { isNotFound, unlessNotFound, withStorageErrors } from '../../storage/storageFaults';
import { logBlobName, logHourPrefix, parseLogBlobName } from '../../storage/keys/blobs/logBlobs';
import { parseLogBlockId, type LogBlockSummary } from '../format/blockId';
import { tagsIn, type HourPart } from '../format/hourBlock';
import type { LedgerFacts, TagLedgers } from './tagLedger';

/** When a log blob is closed and the next `NNNNNN` started. */
export interface LogBlobLimits {
  maxBlobBytes: number;
  maxBlobBlocks: number;
}

/** Blob requests of one append, by kind. */
export interface HourRequests {
  list: number;
  blockList: number;
  /** Tag ledger reads (only the bytes added since this process last read it). */
  ledgerRead: number;
  /** Tag ledger appends (and creations). */
  ledgerAppend: number;
  download: number;
  stage: number;
  commit: number;
}

/** A committed block of a blob, where it lies, and what its id says it holds. */
interface CommittedBlock {
  name: string;
  size: number;
  offset: number;
  summary?: LogBlockSummary;
}

/** One blob of the hour as its committed block list shows it. */
export interface BlobView {
  sequence: number;
  name: string;
  /** False when the blob has no committed blocks (not there, or only staged blocks). */
  exists: boolean;
  etag?: string;
  blocks: CommittedBlock[];
  bytes: number;
  full: boolean;
}

/** One call of `appendToHour`: the hour it writes, the parts still pending, what it has read. */
export interface HourAppend {
  container: ContainerClient;
  source: string;
  hourStart: Date;
  limits: LogBlobLimits;
  ledgers: TagLedgers;
  requests: HourRequests;
  /** The parts not yet found stored, by tag. */
  pending: Map<string, HourPart>;
  alreadyStored: string[];
  /** `<sequence>/<block id>` of every block proven not to hold a pending part. */
  verified: Set<string>;
}

/** The client of blob `sequence` of the hour. */
export function blobClient(hour: HourAppend, sequence: number): BlockBlobClient {
  return hour.container.getBlockBlobClient(logBlobName(hour.source, hour.hourStart, sequence));
}

/**
 * The first view: the newest blob of the hour that is not full (listed once, then read forward).
 * The full ones read on the way are kept, so they are not read again.
 */
export async function firstView(
  hour: HourAppend,
): Promise<{ view: BlobView; passed: Map<number, BlobView> }> {
  hour.requests.list++;
  const passed = new Map<number, BlobView>();
  const prefix = logHourPrefix(hour.source, hour.hourStart);
  let view = await readView(hour, await newestSequence(hour.container, prefix));
  while (view.full) {
    passed.set(view.sequence, view);
    view = await readView(hour, view.sequence + 1);
  }
  return { view, passed };
}

/** Blob `sequence` of the hour as its committed block list shows it. */
export async function readView(hour: HourAppend, sequence: number): Promise<BlobView> {
  const { limits } = hour;
  const name = logBlobName(hour.source, hour.hourStart, sequence);
  hour.requests.blockList++;
  const response = await unlessNotFound(() => blobClient(hour, sequence).getBlockList('committed'));
  let offset = 0;
  const blocks = (response?.committedBlocks ?? []).map((block): CommittedBlock => {
    const committed = {
      name: block.name,
      size: block.size,
      offset,
      summary: parseLogBlockId(block.name),
    };
    offset += block.size;
    return committed;
  });
  const contentLength = response?.blobContentLength ?? 0;
  // A blob this code did not write (foreign block ids, or no block list) is never appended to.
  const foreign = blocks.some((b) => !b.summary) || (blocks.length === 0 && contentLength > 0);
  const exists = blocks.length > 0 || contentLength > 0;
  return {
    sequence,
    name,
    exists,
    etag: exists ? response?.etag : undefined,
    blocks,
    bytes: offset,
    full: foreign || blocks.length >= limits.maxBlobBlocks || offset >= limits.maxBlobBytes,
  };
}

/**
 * Drops the pending parts already stored in any blob of the hour, older (full, so final) ones
 * first: the ledger catches a part that was sent twice and stored from its other copy, even on a
 * first delivery. Blocks the ledger does not describe (written before ledgers existed) are
 * searched by download when a redelivery or a lapsed visibility means the part may be stored
 * already.
 */
export async function dropStoredParts(
  hour: HourAppend,
  view: BlobView,
  passed: ReadonlyMap<number, BlobView>,
  mayBeStoredElsewhere: boolean,
): Promise<void> {
  for (let sequence = 0; sequence < view.sequence; sequence++) {
    const name = logBlobName(hour.source, hour.hourStart, sequence);
    const known = mayBeStoredElsewhere ? undefined : hour.ledgers.finalFacts(hour.container, name);
    if (known) {
      apply(hour, sequence, known, []);
      continue;
    }
    const older = passed.get(sequence) ?? (await readView(hour, sequence));
    await consult(hour, older);
    if (mayBeStoredElsewhere) await search(hour, older);
  }
  await consult(hour, view);
  if (mayBeStoredElsewhere) await search(hour, view);
  else for (const block of view.blocks) hour.verified.add(`${view.sequence}/${block.name}`);
}

/** Downloads the blocks of `view` not yet verified and drops the pending parts found in them. */
export async function search(hour: HourAppend, view: BlobView): Promise<void> {
  const { verified, pending } = hour;
  const unverified = view.blocks.filter((b) => !verified.has(`${view.sequence}/${b.name}`));
  if (unverified.length === 0) return;
  const first = unverified[0]!;
  const last = unverified[unverified.length - 1]!;
  hour.requests.download++;
  const bytes = await withStorageErrors(() =>
    blobClient(hour, view.sequence).downloadToBuffer(
      first.offset,
      last.offset + last.size - first.offset,
    ),
  );
  for (const tag of tagsIn(bytes)) {
    if (pending.delete(tag)) hour.alreadyStored.push(tag);
  }
  for (const block of unverified) verified.add(`${view.sequence}/${block.name}`);
}

/** Drops the pending parts the ledger shows stored; blocks it describes need no download. */
function apply(
  hour: HourAppend,
  sequence: number,
  facts: LedgerFacts,
  blocks: readonly CommittedBlock[],
): void {
  for (const tag of [...hour.pending.keys()]) {
    if (!facts.stored.has(tag)) continue;
    hour.pending.delete(tag);
    hour.alreadyStored.push(tag);
  }
  for (const block of blocks) {
    if (facts.described.has(block.name)) hour.verified.add(`${sequence}/${block.name}`);
  }
}

/** Consults the ledger of `view` (read after its block list, as the ledger requires). */
export async function consult(hour: HourAppend, view: BlobView): Promise<void> {
  const ids = view.blocks.map((b) => b.name);
  const { container, ledgers, requests } = hour;
  const facts = await ledgers.facts(container, view.name, ids, view.full, requests);
  apply(hour, view.sequence, facts, view.blocks);
}

/** Highest `NNNNNN` among the hour's blobs, 0 when there are none. */
async function newestSequence(container: ContainerClient, prefix: string): Promise<number> {
  let newest = 0;
  await withStorageErrors(async () => {
    try {
      for await (const item of container.listBlobsFlat({ prefix })) {
        const parsed = parseLogBlobName(item.name);
        if (parsed && parsed.sequence > newest) newest = parsed.sequence;
      }
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  });
  return newest;
}
