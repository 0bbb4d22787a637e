/**
 * The tag ledger of a log blob: which message parts (`<batchId>.<part>` tags) each block holds,
 * an append blob `_pipeline/ledgers/<source>/…/NNNNNN.tags` (`logTagLedgerName`) with one line
 * `<block id> <tag>,<tag>,…` appended **before** the Put Block List. A part counts as stored only
 * when a line names it **and** that block id is in the committed block list (read first, the
 * ledger second). {@link TagLedgers}, one per process, remembers how far it read each ledger and
 * which committed blocks it accounted for, so a round reads only the bytes added since, and only
 * when a block is new to it. Blocks committed by the previous version are also looked up in the
 * old ledger beside the blob (`legacyLogTagLedgerName`, read only).
 *
 * Why: docs/logs.md "Exactly-once lines" (and "Blob layout" for the upgrade).
 * Glossary: "tag ledger" (docs/glossary.md).
 */
import type { ContainerClient } from '@azure/storage-blob';
import { isNotFound, storageStatus, withStorageErrors } from '../../storage/storageFaults';
import { creatingOnMissing } from '../../storage/createOnce';
import { legacyLogTagLedgerName, logTagLedgerName } from '../../storage/keys/blobs/logBlobs';

/** What the ledger says about a blob's committed blocks. */
export interface LedgerFacts {
  /** Tags held by the committed blocks. */
  stored: ReadonlySet<string>;
  /** Committed blocks whose content the ledger describes (their tags are all in `stored`). */
  described: ReadonlySet<string>;
}

/** Requests a ledger operation made. */
export interface LedgerRequests {
  ledgerRead: number;
  ledgerAppend: number;
}

interface LedgerState {
  /** Ledger bytes consumed (whole lines only). */
  offset: number;
  /** Bytes consumed of the ledger an earlier version kept beside the log blob. */
  legacyOffset: number;
  /** Lines read whose block has not been seen committed (yet, or ever: a lost race). */
  lines: Map<string, string[]>;
  /** Committed blocks accounted for, described by a line or not. */
  resolved: Set<string>;
  described: Set<string>;
  stored: Set<string>;
  /** The blob was full when last accounted for: its block list can no longer change. */
  final: boolean;
}

function emptyState(): LedgerState {
  return {
    offset: 0,
    legacyOffset: 0,
    lines: new Map(),
    resolved: new Set(),
    described: new Set(),
    stored: new Set(),
    final: false,
  };
}

/** Blobs whose ledger state one instance keeps (least recently used ones are forgotten). */
const DEFAULT_MAX_BLOBS = 256;

/**
 * One process's knowledge of the ledgers it has read. Forgetting a blob is always safe: its ledger
 * is then read again from the start.
 */
export class TagLedgers {
  private readonly states = new Map<string, LedgerState>();

  constructor(private readonly maxBlobs = DEFAULT_MAX_BLOBS) {}

  /**
   * Tags stored in the committed blocks `committedIds` of `logBlob`, as its ledger records them.
   * `committedIds` must have been read before this call (the ledger is read after it).
   *
   * @param full - the block list was read from a full blob, so it is final.
   * @throws {DomainError} for storage faults left after the SDK's retries.
   */
  async facts(
    container: ContainerClient,
    logBlob: string,
    committedIds: readonly string[],
    full: boolean,
    requests: LedgerRequests,
  ): Promise<LedgerFacts> {
    const key = this.key(container, logBlob);
    let state = this.states.get(key);
    if (state?.final) return this.touch(key, state);
    const committed = new Set(committedIds);
    // A block we accounted for has left the list: the blob was deleted and written anew.
    if (!state || [...state.resolved].some((id) => !committed.has(id))) state = emptyState();
    const unresolved = (): string[] => committedIds.filter((id) => !state!.resolved.has(id));
    this.resolveFromLines(state, unresolved());
    let missing = unresolved();
    if (missing.length > 0) {
      requests.ledgerRead++;
      const bytes = await readFrom(container, logTagLedgerName(logBlob), state.offset);
      state.offset += consumeLines(state, bytes);
      this.resolveFromLines(state, missing);
      missing = unresolved();
    }
    if (missing.length > 0) {
      // Committed by a flusher of the version that kept the ledger in the hour prefix?
      requests.ledgerRead++;
      const bytes = await readFrom(container, legacyLogTagLedgerName(logBlob), state.legacyOffset);
      state.legacyOffset += consumeLines(state, bytes);
      this.resolveFromLines(state, missing);
      // Still without a line: written before ledgers existed, or not by this code. The search by
      // download (hourWriter.ts) covers those.
      missing = unresolved();
      for (const id of missing) state.resolved.add(id);
    }
    state.final = full;
    return this.touch(key, state);
  }

  /**
   * Appends the line of a block about to be committed to `logBlob`. It must complete before the
   * commit is sent.
   *
   * @param blobHasBlocks - false when the log blob had no committed block (the ledger is then
   * most likely new and is created first).
   * @throws {DomainError} for storage faults left after the SDK's retries.
   */
  async record(
    container: ContainerClient,
    logBlob: string,
    blockId: string,
    tags: readonly string[],
    blobHasBlocks: boolean,
    requests: LedgerRequests,
  ): Promise<void> {
    const client = container.getAppendBlobClient(logTagLedgerName(logBlob));
    const line = Buffer.from(`${blockId} ${tags.join(',')}\n`, 'utf8');
    if (!blobHasBlocks) {
      requests.ledgerAppend++;
      // A new log blob's ledger is new too: created before the append rather than after a 404.
      // If-None-Match: * — never truncates a ledger another flusher already started.
      await withStorageErrors(() => client.createIfNotExists());
    }
    requests.ledgerAppend++;
    await creatingOnMissing(
      () => client.appendBlock(line, line.length),
      () => {
        requests.ledgerAppend += 2;
        return client.createIfNotExists();
      },
    );
  }

  /** What is known of a full `logBlob` accounted for earlier, without any request. */
  finalFacts(container: ContainerClient, logBlob: string): LedgerFacts | undefined {
    const key = this.key(container, logBlob);
    const state = this.states.get(key);
    return state?.final ? this.touch(key, state) : undefined;
  }

  /** Records that this instance's own block `blockId` holding `tags` is committed to `logBlob`. */
  committed(container: ContainerClient, logBlob: string, blockId: string, tags: readonly string[]) {
    const key = this.key(container, logBlob);
    const state = this.states.get(key);
    if (!state) return;
    state.lines.delete(blockId);
    state.resolved.add(blockId);
    state.described.add(blockId);
    for (const tag of tags) state.stored.add(tag);
  }

  private resolveFromLines(state: LedgerState, ids: readonly string[]): void {
    for (const id of ids) {
      const tags = state.lines.get(id);
      if (!tags) continue;
      state.lines.delete(id);
      state.resolved.add(id);
      state.described.add(id);
      for (const tag of tags) state.stored.add(tag);
    }
  }

  private key(container: ContainerClient, logBlob: string): string {
    return `${container.url}\n${logBlob}`;
  }

  /** Keeps `state` as the most recently used and forgets the oldest beyond the limit. */
  private touch(key: string, state: LedgerState): LedgerFacts {
    this.states.delete(key);
    this.states.set(key, state);
    while (this.states.size > this.maxBlobs) {
      this.states.delete(this.states.keys().next().value!);
    }
    return { stored: state.stored, described: state.described };
  }
}

/** Adds the whole lines of `bytes` to `state.lines`; returns the bytes they took. */
function consumeLines(state: LedgerState, bytes: Buffer): number {
  const end = bytes.lastIndexOf(0x0a) + 1;
  for (const line of bytes.subarray(0, end).toString('utf8').split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    state.lines.set(line.slice(0, space), line.slice(space + 1).split(','));
  }
  return end;
}

/** Ledger bytes from `offset` to its current end; empty when there are none or no ledger. */
async function readFrom(
  container: ContainerClient,
  ledgerName: string,
  offset: number,
): Promise<Buffer> {
  return withStorageErrors(async () => {
    try {
      const response = await container.getAppendBlobClient(ledgerName).download(offset);
      const chunks: Buffer[] = [];
      for await (const chunk of response.readableStreamBody ?? []) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      }
      return Buffer.concat(chunks);
    } catch (error) {
      // 404: no ledger (yet); 416: nothing beyond `offset`.
      if (isNotFound(error) || storageStatus(error) === 416) return Buffer.alloc(0);
      throw error;
    }
  });
}
