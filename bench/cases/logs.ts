/**
 * Log data: buffered batches in hour-named blobs vs one table entity per log line.
 *
 * The pattern side accepts 1,000 batches of 100 entries through the ingestion service, 16 at a
 * time as concurrent POSTs would arrive (batches accepted together share a queue message, lines
 * compressed), then drains the queue with the flusher, which writes each hour's lines as one
 * block and one Put Block List per flush. The baselines write the same entries to a table: one
 * insert per line (the anti-pattern as usually written), and entity group transactions of 100 in
 * the hour partition (the best a table can do, still one hot partition per hour).
 *
 * Reported: flush throughput (entries/s) end to end — all 100,000 entries drained, written and
 * deleted as the trigger does it, the first comparison's pattern — and taken apart (queue receive,
 * blob write, queue delete; the blob write alone is the second comparison's pattern), storage
 * requests per 10,000 lines for every path, and the queue traffic that buys the 202-before-write
 * durability. The workload and the table baselines are in bench/logs/.
 */
import type { QueueClient } from '@azure/storage-queue';
import type { ContainerClient } from '@azure/storage-blob';
import type { TableClient } from '@azure/data-tables';
import type { LogBatch } from '../../src/logs/entry';
import { drainAndFlush } from '../../src/logs/flush/logDrain';
import { flushLogMessages } from '../../src/logs/flush/flushMessages';
import { LogIngest } from '../../src/logs/ingest/ingest';
import { TagLedgers } from '../../src/logs/flush/tagLedger';
import { mapSettled } from '../../src/storage/parallel';
import type { BenchCase, BenchEnv, Comparison, Measurement, TrafficCounts } from '../types';
import { atLeast, atMost, judge } from '../goals';
import {
  ENTRIES_PER_BATCH,
  makeBatches,
  per10k,
  per10kLines,
  requestsOf,
  withRequests,
} from '../logs/logWorkload';
import { receiveAll, type HeldMessage } from '../logs/receiveAll';
import { measureTablePaths, type TablePaths } from '../logs/tablePaths';

const LIMITS = { maxBlobBytes: 64 * 1024 * 1024, maxBlobBlocks: 40_000 };
/** Messages per flush round, as `LOG_FLUSH_MAX_MESSAGES` defaults to. */
const FLUSH_MESSAGES = 256;

async function ingestAll(ingest: LogIngest, batches: LogBatch[]): Promise<void> {
  const results = await mapSettled(batches, 16, (batch) => ingest.accept(batch));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The containers, queue and tables of one run, all fresh. */
interface LogStores {
  drainedContainer: ContainerClient;
  writtenContainer: ContainerClient;
  queue: QueueClient;
  perEntryTable: TableClient;
  batchedTable: TableClient;
}

async function createLogStores(env: BenchEnv): Promise<LogStores> {
  const stores: LogStores = {
    drainedContainer: env.clients.container(env.uniqueName('bench-logs')),
    writtenContainer: env.clients.container(env.uniqueName('bench-logs')),
    queue: env.clients.queue(env.uniqueName('bench-logq')),
    perEntryTable: env.clients.table(env.uniqueName('BenchLogLines', { table: true })),
    batchedTable: env.clients.table(env.uniqueName('BenchLogEgt', { table: true })),
  };
  await Promise.all([
    stores.drainedContainer.create(),
    stores.writtenContainer.create(),
    stores.queue.create(),
    stores.perEntryTable.createTable(),
    stores.batchedTable.createTable(),
  ]);
  return stores;
}

async function dropLogStores(stores: LogStores): Promise<void> {
  await Promise.allSettled([
    stores.drainedContainer.deleteIfExists(),
    stores.writtenContainer.deleteIfExists(),
    stores.queue.deleteIfExists(),
    stores.perEntryTable.deleteTable(),
    stores.batchedTable.deleteTable(),
  ]);
}

/** The flush's figures end to end, with the messages it drained and the flushes it took. */
interface Flushed {
  endToEnd: Measurement;
  drained: number;
  flushes: number;
}

/**
 * 1. The production path: what one trigger invocation does, drain + write + acknowledge, until
 * the queue is empty; every line must have been written.
 */
async function measureFlush(
  env: BenchEnv,
  stores: LogStores,
  ledgers: TagLedgers,
  batchCount: number,
): Promise<Flushed> {
  const lines = batchCount * ENTRIES_PER_BATCH;
  let drained = 0;
  let batchesFlushed = 0;
  let written = 0;
  let flushes = 0;
  const endToEnd = await env.measure(
    'flush end to end: drain + write + delete',
    lines,
    async () => {
      for (;;) {
        const result = await drainAndFlush({
          container: stores.drainedContainer,
          queue: stores.queue,
          limits: LIMITS,
          maxMessages: FLUSH_MESSAGES,
          maxFlushes: 100,
          ledgers,
        });
        if (result.failed.length > 0) throw result.failed[0]!.error;
        drained += result.drained;
        batchesFlushed += result.flushed.length;
        written += result.linesWritten;
        flushes += result.flushes;
        if (result.drained === 0) break;
      }
    },
  );
  if (written !== lines || batchesFlushed !== batchCount) {
    throw new Error(
      `Flush wrote ${written} lines of ${batchesFlushed} batches, expected ${lines} of ${batchCount}.`,
    );
  }
  return { endToEnd, drained, flushes };
}

/** The flush's parts measured one by one, and the blob requests of the write alone. */
interface TakenApart {
  receive: Measurement;
  write: Measurement;
  acknowledge: Measurement;
  blobRequests: number;
}

/** 2. The same work taken apart: queue receive, blob write (the log store's own cost), delete. */
async function measureTakenApart(
  env: BenchEnv,
  stores: LogStores,
  ledgers: TagLedgers,
  lines: number,
): Promise<TakenApart> {
  const { queue, drainedContainer, writtenContainer } = stores;
  let held: HeldMessage[] = [];
  const receive = await env.measure('queue: receive, 32 per request', lines, async () => {
    held = await receiveAll(queue, drainedContainer);
  });
  let blobTraffic: TrafficCounts | undefined;
  const write = await env.measure('blob path: write (flushLogMessages)', lines, async () => {
    for (let i = 0; i < held.length; i += FLUSH_MESSAGES) {
      const round = held.slice(i, i + FLUSH_MESSAGES).flatMap((h) => h.parts);
      const result = await flushLogMessages(writtenContainer, round, LIMITS, Date.now, ledgers);
      if (result.failed.length > 0) throw result.failed[0]!.error;
    }
    blobTraffic = env.traffic();
  });
  const acknowledge = await env.measure('queue: delete, 1 per message', lines, async () => {
    await mapSettled(held, 32, (h) => queue.deleteMessage(h.messageId, h.popReceipt));
  });
  return { receive, write, acknowledge, blobRequests: requestsOf(blobTraffic!, 'blob') };
}

/** Every path's figures of one run. */
interface LogFigures extends Flushed, TakenApart, TablePaths {
  ingest: Measurement;
  lines: number;
  batchCount: number;
}

/** What the comparisons say about the run, in one paragraph. */
function logsNotes(f: LogFigures): string {
  const { lines, batchCount, drained, endToEnd, write, receive, acknowledge, ingest } = f;
  const rate = (m: Measurement): string =>
    `${Math.round(m.opsPerSecond).toLocaleString('en-US')} entries/s`;
  return (
    `${lines} lines in ${batchCount} batches, sent 16 at a time and packed into ${drained} queue messages ` +
    `(${Math.round((batchCount / Math.max(1, drained)) * 10) / 10} batches per message); ` +
    `${f.flushes} flushes of up to ${FLUSH_MESSAGES} messages. ` +
    `Entries/s — flush end to end ${rate(endToEnd)}, blob write alone ${rate(write)} ` +
    `(queue receive alone ${rate(receive)}, queue delete alone ${rate(acknowledge)}), ingest ${rate(ingest)}. ` +
    `Requests per 10,000 lines — blob ${per10k(f.blobRequests, lines)}, queue send ${per10k(ingest.requests, lines)}, ` +
    `receive ${per10k(receive.requests, lines)}, delete ${per10k(acknowledge.requests, lines)}, ` +
    `table per line ${per10k(f.perEntry.requests, f.sampleLines)}, table EGT ${per10k(f.egt.requests, f.sampleLines)} ` +
    `(tables measured on ${f.sampleLines} of the lines). The queue's per-message requests (send, ` +
    `receive share, delete) bound the flush, so ingestion packs batches accepted together into ` +
    `one message (group commit) with their lines compressed; a batch that arrives alone still ` +
    `gets a message of its own at once.`
  );
}

function logsComparisons(f: LogFigures): Comparison[] {
  const { endToEnd, perEntry, blobRequests, lines, sampleLines } = f;
  const blobPath = per10kLines(
    withRequests(f.write, 'blob path: write only, blob requests', blobRequests),
  );
  const flushPath = per10kLines(
    withRequests(endToEnd, 'flush end to end: drain + write + delete', endToEnd.requests),
  );
  const notes = logsNotes(f);
  return [
    {
      name: 'logs: flush end to end (drain + write + delete) vs one table entity per line',
      pattern: flushPath,
      baseline: per10kLines(perEntry),
      goal: judge('flush ≥ 50,000 entries/s', [
        atLeast('flush end to end', endToEnd.opsPerSecond, 50_000, ' entries/s'),
      ]),
      notes,
    },
    {
      name: 'logs: hour blobs (blob write only) vs one table entity per line',
      pattern: blobPath,
      baseline: per10kLines(perEntry),
      goal: judge('blob path ≤ 1/500 of the per-line table requests', [
        atMost(
          'blob requests / per-line table requests',
          blobRequests / lines / (perEntry.requests / sampleLines),
          1 / 500,
        ),
      ]),
      notes,
    },
    {
      name: 'logs: hour blobs (blob write only) vs table entity group transactions',
      pattern: blobPath,
      baseline: per10kLines(f.egt),
      notes: 'EGT: 100 lines per request, all in the hour partition (one hot partition per hour).',
    },
    {
      name: 'logs: whole pipeline incl. queue vs one table entity per line',
      pattern: per10kLines(
        withRequests(
          endToEnd,
          'queue send + drain + write + delete',
          f.ingest.requests + endToEnd.requests,
        ),
      ),
      baseline: per10kLines(perEntry),
      notes:
        'The queue buys 202-after-durable ingestion at one send and one delete per message ' +
        '(several batches each when they arrive together). Wall time excludes the send.',
    },
  ];
}

async function run(env: BenchEnv): Promise<Comparison[]> {
  const batchCount = env.size(1000);
  const lines = batchCount * ENTRIES_PER_BATCH;
  const batches = makeBatches(batchCount);
  const stores = await createLogStores(env);
  // One process: one ingest (its batches share messages) and one set of tag ledgers its flushes
  // share.
  const ingestor = new LogIngest({ queue: stores.queue, container: stores.drainedContainer });
  const ledgers = new TagLedgers();
  try {
    const ingest = await env.measure(
      'ingest: LogIngest.accept → queue, 16 at a time (sharing messages)',
      lines,
      () => ingestAll(ingestor, batches),
    );
    const flushed = await measureFlush(env, stores, ledgers, batchCount);
    await ingestAll(ingestor, batches);
    const apart = await measureTakenApart(env, stores, ledgers, lines);
    const tables = await measureTablePaths(env, stores, batches);
    return logsComparisons({ ...flushed, ...apart, ...tables, ingest, lines, batchCount });
  } finally {
    await dropLogStores(stores);
  }
}

const logsCase: BenchCase = { name: 'logs', run };
export default logsCase;
