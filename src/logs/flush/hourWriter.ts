/**
 * Appends the lines of one flush to one source's one hour: one staged block and one conditional
 * Put Block List on the hour's current blob (`<source>/YYYY/MM/DD/hh00/NNNNNN.log`).
 *
 * Exactly-once lines under at-least-once delivery: commits to an hour are serialised (only the
 * newest blob takes blocks, "full" read from the committed state, every commit conditional on the
 * ETag it was planned against); a part counts as stored when the blob's tag ledger names it in a
 * committed block (tagLedger.ts); blocks no ledger describes are downloaded and searched unless
 * no other delivery of the parts can exist yet (first delivery, within its visibility). So a
 * crash between commit and acknowledgement, a redelivery, a retried send, or two flushers racing
 * on the same hour leaves each line stored once.
 *
 * Why: docs/logs.md "Exactly-once lines".
 */
import type { BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import {
  isNotFound,
  isPreconditionFailed,
  storageCode,
  storageStatus,
  toDomainError,
  unlessNotFound,
  withStorageErrors,
} from '../../storage/storageFaults';
import { logBlobName, logHourPrefix, parseLogBlobName } from '../../storage/keys/blobs/logBlobs';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { creatingOnMissing, isContainerMissing } from '../../storage/createOnce';
import { parseLogBlockId, type LogBlockSummary } from '../format/blockId';
import { buildBlock, tagsIn, type HourPart } from '../format/hourBlock';
import { logBlobContended, notHourStart } from '../logErrors';
import { metadataOfBlocks } from '../format/metadata';
import type { LedgerFacts, TagLedgers } from './tagLedger';

export type { HourPart } from '../format/hourBlock';

/**
 * The container an hour's blobs are written to: the logs container of the account that rendezvous
 * hashing of the hour picks when data is spread over several accounts (docs/accounts.md).
 */
export type HourContainer = (source: string, hourStart: Date) => ContainerClient;

/** When a log blob is closed and the next `NNNNNN` started. */
export interface LogBlobLimits {
  maxBlobBytes: number;
  maxBlobBlocks: number;
}

/** What {@link appendToHour} did. */
export interface HourAppendResult {
  /** Blob the lines went to (the last one tried when nothing had to be written). */
  blobName: string;
  linesWritten: number;
  /** Tags written by this call. */
  writtenParts: string[];
  /** Tags found already stored (an earlier delivery wrote them). */
  alreadyStoredParts: string[];
  /** Put Block List attempts (1 without contention). */
  commitAttempts: number;
  /** Blob requests this call made, by kind. */
  requests: {
    list: number;
    blockList: number;
    /** Tag ledger reads (only the bytes added since this process last read it). */
    ledgerRead: number;
    /** Tag ledger appends (and creations). */
    ledgerAppend: number;
    download: number;
    stage: number;
    commit: number;
  };
}

/** Planning again after a lost race has a bound; past it the flush fails and is retried later. */
const MAX_COMMIT_ATTEMPTS = 40;
/** What an attempt of the commit loop returns when the parts are stored. */
const DONE = 'done';
const CONTENT_TYPE = 'text/plain; charset=utf-8';
const HOUR_MS = 3_600_000;

interface CommittedBlock {
  name: string;
  size: number;
  offset: number;
  summary?: LogBlockSummary;
}

interface BlobView {
  sequence: number;
  name: string;
  /** False when the blob has no committed blocks (not there, or only staged blocks). */
  exists: boolean;
  etag?: string;
  blocks: CommittedBlock[];
  bytes: number;
  full: boolean;
}

/**
 * True for the errors a lost race produces: ETag mismatch, blob created meanwhile, staged block
 * discarded.
 */
function isLostRace(error: unknown): boolean {
  const status = storageStatus(error);
  return (
    isPreconditionFailed(error) ||
    status === 409 ||
    (status === 400 && storageCode(error) === 'InvalidBlockList')
  );
}

/**
 * Writes the parts' lines for the hour starting at `hourStart` into that hour's current blob,
 * skipping parts an earlier delivery already stored.
 *
 * @param clock - current epoch ms (tests move it to simulate slow flushers).
 * @param ledgers - what this process knows of the hour's tag ledgers (one per process, built by the
 * composition root; tests give each simulated flusher its own).
 * @throws {ContentionError} when the blob kept changing under this flusher for
 * {@link MAX_COMMIT_ATTEMPTS} attempts (the messages stay queued and are retried).
 * @throws {DomainError} for storage faults left after the SDK's retries.
 */
export async function appendToHour(
  container: ContainerClient,
  source: string,
  hourStart: Date,
  parts: readonly HourPart[],
  limits: LogBlobLimits,
  clock: () => number,
  ledgers: TagLedgers,
): Promise<HourAppendResult> {
  if (hourStart.getTime() % HOUR_MS !== 0) throw notHourStart(hourStart);
  const requests = {
    list: 0,
    blockList: 0,
    ledgerRead: 0,
    ledgerAppend: 0,
    download: 0,
    stage: 0,
    commit: 0,
  };
  const pending = new Map(parts.map((part) => [part.tag, part]));
  const alreadyStored: string[] = [];
  /** `<sequence>/<block id>` of every block proven not to hold a pending part. */
  const verified = new Set<string>();

  const blobClient = (sequence: number): BlockBlobClient =>
    container.getBlockBlobClient(logBlobName(source, hourStart, sequence));

  const read = async (sequence: number): Promise<BlobView> => {
    const name = logBlobName(source, hourStart, sequence);
    requests.blockList++;
    const response = await unlessNotFound(() => blobClient(sequence).getBlockList('committed'));
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
  };

  /** Downloads the blocks of `view` not yet verified and drops the pending parts found in them. */
  const search = async (view: BlobView): Promise<void> => {
    const unverified = view.blocks.filter((b) => !verified.has(`${view.sequence}/${b.name}`));
    if (unverified.length === 0) return;
    const first = unverified[0]!;
    const last = unverified[unverified.length - 1]!;
    requests.download++;
    const bytes = await withStorageErrors(() =>
      blobClient(view.sequence).downloadToBuffer(
        first.offset,
        last.offset + last.size - first.offset,
      ),
    );
    for (const tag of tagsIn(bytes)) {
      if (pending.delete(tag)) alreadyStored.push(tag);
    }
    for (const block of unverified) verified.add(`${view.sequence}/${block.name}`);
  };

  /** Drops the pending parts the ledger shows stored; blocks it describes need no download. */
  const apply = (sequence: number, facts: LedgerFacts, blocks: readonly CommittedBlock[]): void => {
    for (const tag of [...pending.keys()]) {
      if (!facts.stored.has(tag)) continue;
      pending.delete(tag);
      alreadyStored.push(tag);
    }
    for (const block of blocks) {
      if (facts.described.has(block.name)) verified.add(`${sequence}/${block.name}`);
    }
  };

  /** Consults the ledger of `view` (read after its block list, as the ledger requires). */
  const consult = async (view: BlobView): Promise<void> => {
    const ids = view.blocks.map((b) => b.name);
    apply(
      view.sequence,
      await ledgers.facts(container, view.name, ids, view.full, requests),
      view.blocks,
    );
  };

  const trust = (view: BlobView): void => {
    for (const block of view.blocks) verified.add(`${view.sequence}/${block.name}`);
  };

  // First view: the newest blob that is not full.
  requests.list++;
  const passed = new Map<number, BlobView>();
  let view = await read(await newestSequence(container, logHourPrefix(source, hourStart)));
  while (view.full) {
    passed.set(view.sequence, view);
    view = await read(view.sequence + 1);
  }
  const firstViewAt = clock();
  const mayBeStoredElsewhere = parts.some(
    (p) => p.dequeueCount > 1 || firstViewAt >= p.exclusiveUntil,
  );
  // Every blob of the hour, older (full, so final) ones first: the ledger catches a part that was
  // sent twice and stored from its other copy, even on a first delivery. Blocks the ledger does
  // not describe (written before ledgers existed) are searched by download when a redelivery or
  // a lapsed visibility means the part may be stored already.
  for (let sequence = 0; sequence < view.sequence; sequence++) {
    const name = logBlobName(source, hourStart, sequence);
    const known = mayBeStoredElsewhere ? undefined : ledgers.finalFacts(container, name);
    if (known) {
      apply(sequence, known, []);
      continue;
    }
    const older = passed.get(sequence) ?? (await read(sequence));
    await consult(older);
    if (mayBeStoredElsewhere) await search(older);
  }
  await consult(view);
  if (mayBeStoredElsewhere) await search(view);
  else trust(view);

  const attemptedIds = new Set<string>();
  /** `<blob>/<block id>` of the ledger lines this call appended. */
  const recorded = new Set<string>();
  let commitAttempts = 0;
  let linesWritten = 0;
  let writtenParts: string[] = [];
  const retry = {
    maxAttempts: MAX_COMMIT_ATTEMPTS,
    giveUp: (attempts: number) => logBlobContended(view.name, attempts),
  };
  await retryOptimistically(retry, async () => {
    if (pending.size === 0) return DONE;
    const block = buildBlock(hourStart, [...pending.values()]);
    attemptedIds.add(block.id);
    const client = blobClient(view.sequence);
    requests.stage++;
    await stageCreatingContainer(container, client, block.id, block.content);
    const tags = [...pending.keys()];
    // Before the commit, so that whoever sees the block committed finds its line. A retry of the
    // same block (nothing was found stored meanwhile) reuses its line: the ledger, an append blob,
    // takes at most 50,000 lines, so lines must stay close to one per committed block.
    if (!recorded.has(`${view.name}/${block.id}`)) {
      await ledgers.record(container, view.name, block.id, tags, view.blocks.length > 0, requests);
      recorded.add(`${view.name}/${block.id}`);
    }
    const summaries = [...view.blocks.map((b) => b.summary!), block.summary];
    commitAttempts++;
    requests.commit++;
    try {
      await client.commitBlockList([...view.blocks.map((b) => b.name), block.id], {
        metadata: metadataOfBlocks(hourStart, summaries),
        blobHTTPHeaders: { blobContentType: CONTENT_TYPE },
        conditions: view.exists ? { ifMatch: view.etag } : { ifNoneMatch: '*' },
      });
      linesWritten = block.lines;
      writtenParts = tags;
      ledgers.committed(container, view.name, block.id, tags);
      return DONE;
    } catch (error) {
      if (!isLostRace(error)) throw toDomainError(error);
    }
    // Lost a race (or our own commit landed but its response was lost): look again.
    const again = await read(view.sequence);
    const landed = again.blocks.find((b) => attemptedIds.has(b.name));
    if (landed) {
      // Pending parts only shrink between attempts, so the landed block holds every one of them.
      linesWritten = landed.summary!.lines;
      writtenParts = [...pending.keys()];
      view = again;
      return DONE;
    }
    view = again;
    await consult(view);
    await search(view);
    while (view.full) {
      view = await read(view.sequence + 1);
      await consult(view);
      await search(view);
    }
    // Everything left may have turned out stored already: then there is nothing to commit.
    return pending.size === 0 ? DONE : RETRY;
  });
  return {
    blobName: view.name,
    linesWritten,
    writtenParts,
    alreadyStoredParts: alreadyStored,
    commitAttempts,
    requests,
  };
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

async function stageCreatingContainer(
  container: ContainerClient,
  client: BlockBlobClient,
  blockId: string,
  content: Buffer,
): Promise<void> {
  await creatingOnMissing(
    () => client.stageBlock(blockId, content, content.length),
    () => container.createIfNotExists(),
    isContainerMissing,
  );
}
