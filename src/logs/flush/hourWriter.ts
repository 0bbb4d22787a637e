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
  isPreconditionFailed,
  storageCode,
  storageStatus,
  toDomainError,
} from '../../storage/storageFaults';
import { RETRY, retryOptimistically, type Retry } from '../../storage/optimisticRetry';
import { creatingOnMissing, isContainerMissing } from '../../storage/createOnce';
import { buildBlock, type HourPart } from '../format/hourBlock';
import { logBlobContended, notHourStart } from '../logErrors';
import { metadataOfBlocks } from '../format/metadata';
import type { TagLedgers } from './tagLedger';
import {
  blobClient,
  consult,
  dropStoredParts,
  firstView,
  readView,
  search,
  type BlobView,
  type HourAppend,
  type HourRequests,
  type LogBlobLimits,
} from './hourView';

export type { HourPart } from '../format/hourBlock';
export type { LogBlobLimits } from './hourView';

/**
 * The container an hour's blobs are written to: the logs container of the account that rendezvous
 * hashing of the hour picks when data is spread over several accounts (docs/accounts.md).
 */
export type HourContainer = (source: string, hourStart: Date) => ContainerClient;

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
  requests: HourRequests;
}

/** Planning again after a lost race has a bound; past it the flush fails and is retried later. */
const MAX_COMMIT_ATTEMPTS = 40;
/** What an attempt of the commit loop returns when the parts are stored. */
const DONE = 'done';
const CONTENT_TYPE = 'text/plain; charset=utf-8';
const HOUR_MS = 3_600_000;

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
  const hour: HourAppend = {
    container,
    source,
    hourStart,
    limits,
    ledgers,
    requests: {
      list: 0,
      blockList: 0,
      ledgerRead: 0,
      ledgerAppend: 0,
      download: 0,
      stage: 0,
      commit: 0,
    },
    pending: new Map(parts.map((part) => [part.tag, part])),
    alreadyStored: [],
    verified: new Set(),
  };
  const { view, passed } = await firstView(hour);
  const firstViewAt = clock();
  const mayBeStoredElsewhere = parts.some(
    (p) => p.dequeueCount > 1 || firstViewAt >= p.exclusiveUntil,
  );
  await dropStoredParts(hour, view, passed, mayBeStoredElsewhere);
  const commit = await commitPending(hour, view);
  return {
    blobName: commit.view.name,
    linesWritten: commit.linesWritten,
    writtenParts: commit.writtenParts,
    alreadyStoredParts: hour.alreadyStored,
    commitAttempts: commit.attempts,
    requests: hour.requests,
  };
}

/** The commit loop's state: the view it plans against, what it tried, what it wrote. */
interface HourCommit {
  view: BlobView;
  /** Block ids staged by this call (one of them may have landed though its commit "failed"). */
  attemptedIds: Set<string>;
  /** `<blob>/<block id>` of the ledger lines this call appended. */
  recorded: Set<string>;
  attempts: number;
  linesWritten: number;
  writtenParts: string[];
}

/**
 * Stages the pending parts as one block and commits it to the newest blob, conditional on the
 * ETag planned against; after a lost race, plans again (up to {@link MAX_COMMIT_ATTEMPTS}).
 */
async function commitPending(hour: HourAppend, view: BlobView): Promise<HourCommit> {
  const commit: HourCommit = {
    view,
    attemptedIds: new Set(),
    recorded: new Set(),
    attempts: 0,
    linesWritten: 0,
    writtenParts: [],
  };
  const retry = {
    maxAttempts: MAX_COMMIT_ATTEMPTS,
    giveUp: (attempts: number) => logBlobContended(commit.view.name, attempts),
  };
  await retryOptimistically(retry, () => commitAttempt(hour, commit));
  return commit;
}

/** One attempt: stage, record the ledger line, commit; a lost race looks again. */
async function commitAttempt(hour: HourAppend, commit: HourCommit): Promise<typeof DONE | Retry> {
  const { container, hourStart, pending, requests } = hour;
  const { view } = commit;
  if (pending.size === 0) return DONE;
  const block = buildBlock(hourStart, [...pending.values()]);
  commit.attemptedIds.add(block.id);
  const client = blobClient(hour, view.sequence);
  requests.stage++;
  await stageCreatingContainer(container, client, block.id, block.content);
  const tags = [...pending.keys()];
  // Before the commit, so that whoever sees the block committed finds its line. A retry of the
  // same block (nothing was found stored meanwhile) reuses its line: the ledger, an append blob,
  // takes at most 50,000 lines, so lines must stay close to one per committed block.
  if (!commit.recorded.has(`${view.name}/${block.id}`)) {
    const appending = view.blocks.length > 0;
    await hour.ledgers.record(container, view.name, block.id, tags, appending, requests);
    commit.recorded.add(`${view.name}/${block.id}`);
  }
  const summaries = [...view.blocks.map((b) => b.summary!), block.summary];
  commit.attempts++;
  requests.commit++;
  try {
    await client.commitBlockList([...view.blocks.map((b) => b.name), block.id], {
      metadata: metadataOfBlocks(hourStart, summaries),
      blobHTTPHeaders: { blobContentType: CONTENT_TYPE },
      conditions: view.exists ? { ifMatch: view.etag } : { ifNoneMatch: '*' },
    });
    commit.linesWritten = block.lines;
    commit.writtenParts = tags;
    hour.ledgers.committed(container, view.name, block.id, tags);
    return DONE;
  } catch (error) {
    if (!isLostRace(error)) throw toDomainError(error);
  }
  return lookAgain(hour, commit);
}

/**
 * After a lost race (or our own commit landed but its response was lost): reads the blob again,
 * done when one of our blocks landed, else drops what is now stored and moves past full blobs.
 */
async function lookAgain(hour: HourAppend, commit: HourCommit): Promise<typeof DONE | Retry> {
  const again = await readView(hour, commit.view.sequence);
  commit.view = again;
  const landed = again.blocks.find((b) => commit.attemptedIds.has(b.name));
  if (landed) {
    // Pending parts only shrink between attempts, so the landed block holds every one of them.
    commit.linesWritten = landed.summary!.lines;
    commit.writtenParts = [...hour.pending.keys()];
    return DONE;
  }
  await consult(hour, commit.view);
  await search(hour, commit.view);
  while (commit.view.full) {
    commit.view = await readView(hour, commit.view.sequence + 1);
    await consult(hour, commit.view);
    await search(hour, commit.view);
  }
  // Everything left may have turned out stored already: then there is nothing to commit.
  return hour.pending.size === 0 ? DONE : RETRY;
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
