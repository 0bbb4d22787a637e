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
 * durability.
 */
import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import { parseLogBatch, type LogBatch } from '../../src/logs/entry';
import type { QueueClient } from '@azure/storage-queue';
import type { ContainerClient } from '@azure/storage-blob';
import {
  EXCLUSIVITY_MARGIN_MS,
  resolveDelivery,
  type PendingLogMessage,
} from '../../src/logs/flush/delivery';
import { drainAndFlush } from '../../src/logs/flush/logDrain';
import { flushLogMessages } from '../../src/logs/flush/flushMessages';
import { decodeQueueMessage } from '../../src/storage/queue';
import { LogIngest } from '../../src/logs/ingest/ingest';
import { TagLedgers } from '../../src/logs/flush/tagLedger';
import { mapSettled } from '../../src/storage/parallel';
import { LOG_LEVELS } from '../../src/logs/format/levels';
import { ticksRowKey, utcDayStamp } from '../../src/storage/keys/time';
import type { BenchCase, BenchEnv, Comparison, Measurement, TrafficCounts } from '../types';
import { atLeast, atMost, judge } from '../goals';

const ENTRIES_PER_BATCH = 100;
const START = Date.parse('2026-11-22T15:30:00Z');
/** 100,000 entries 36 ms apart span one hour: two hour blobs, as a steady stream would. */
const STEP_MS = 36;
const LIMITS = { maxBlobBytes: 64 * 1024 * 1024, maxBlobBlocks: 40_000 };
/** Messages per flush round, as `LOG_FLUSH_MAX_MESSAGES` defaults to. */
const FLUSH_MESSAGES = 256;

function makeBatches(count: number): LogBatch[] {
  return Array.from({ length: count }, (_, b) =>
    parseLogBatch(
      {
        source: 'web',
        entries: Array.from({ length: ENTRIES_PER_BATCH }, (_, i) => {
          const n = b * ENTRIES_PER_BATCH + i;
          return {
            at: new Date(START + n * STEP_MS).toISOString(),
            level: LOG_LEVELS[n % 7 === 0 ? 3 : 1],
            message: `GET /api/departments/Sales/employees/${String(n % 1000).padStart(6, '0')} 200 in ${n % 97} ms`,
            requestId: `req-${n}`,
            userId: `user${n % 250}`,
          };
        }),
      },
      { maxBatchEntries: ENTRIES_PER_BATCH },
    ),
  );
}

/** Requests whose `service:METHOD` kind starts with `service:`. */
function requestsOf(traffic: TrafficCounts, service: 'blob' | 'queue' | 'table'): number {
  return Object.entries(traffic.byKind)
    .filter(([kind]) => kind.startsWith(`${service}:`))
    .reduce((n, [, count]) => n + count, 0);
}

/** Requests per 10,000 lines. */
function per10k(requests: number, lines: number): number {
  return Math.round((requests / lines) * 10_000 * 100) / 100;
}

/**
 * A measurement scaled to 10,000 lines (requests, bytes, wall time), so paths measured on
 * different numbers of lines compare directly. Throughput is unchanged.
 */
function per10kLines(measurement: Measurement): Measurement {
  const scale = 10_000 / measurement.operations;
  return {
    ...measurement,
    label: `${measurement.label} (per 10,000 lines)`,
    wallMs: Math.round(measurement.wallMs * scale * 10) / 10,
    operations: 10_000,
    requests: Math.round(measurement.requests * scale * 100) / 100,
    bytes: Math.round(measurement.bytes * scale),
  };
}

/** A measurement restricted to some of its requests (the harness counted all). */
function withRequests(measurement: Measurement, label: string, requests: number): Measurement {
  return { ...measurement, label, requests };
}

async function tableEntity(
  table: TableClient,
  batch: LogBatch,
  b: number,
  i: number,
): Promise<void> {
  const entry = batch.entries[i]!;
  const hour = `${utcDayStamp(entry.at)}${String(entry.at.getUTCHours()).padStart(2, '0')}`;
  await table.createEntity({
    partitionKey: `${batch.source}_${hour}`,
    rowKey: ticksRowKey(entry.at, `${b}-${i}`),
    Level: entry.level,
    Message: entry.message,
    Extra: JSON.stringify(entry.extra),
  });
}

function tableActions(batch: LogBatch, b: number): Map<string, TransactionAction[]> {
  const byPartition = new Map<string, TransactionAction[]>();
  batch.entries.forEach((entry, i) => {
    const hour = `${utcDayStamp(entry.at)}${String(entry.at.getUTCHours()).padStart(2, '0')}`;
    const partitionKey = `${batch.source}_${hour}`;
    const actions = byPartition.get(partitionKey) ?? [];
    actions.push([
      'create',
      {
        partitionKey,
        rowKey: ticksRowKey(entry.at, `${b}-${i}`),
        Level: entry.level,
        Message: entry.message,
        Extra: JSON.stringify(entry.extra),
      },
    ]);
    byPartition.set(partitionKey, actions);
  });
  return byPartition;
}

async function countEntities(table: TableClient): Promise<number> {
  let count = 0;
  for await (const page of table
    .listEntities({
      queryOptions: { filter: odata`PartitionKey ge ${'web_'}`, select: ['RowKey'] },
    })
    .byPage({ maxPageSize: 1000 })) {
    count += page.length;
  }
  return count;
}

async function ingestAll(ingest: LogIngest, batches: LogBatch[]): Promise<void> {
  const results = await mapSettled(batches, 16, (batch) => ingest.accept(batch));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

interface HeldMessage {
  /** The batches the message carries (several when ingestion packed them together). */
  parts: PendingLogMessage[];
  messageId: string;
  popReceipt: string;
}

/** Receives every message of the queue, 32 per request, keeping them invisible for the run. */
async function receiveAll(queue: QueueClient, container: ContainerClient): Promise<HeldMessage[]> {
  const held: HeldMessage[] = [];
  for (;;) {
    const startedAt = Date.now();
    const { receivedMessageItems } = await queue.receiveMessages({
      numberOfMessages: 32,
      visibilityTimeout: 600,
    });
    for (const item of receivedMessageItems) {
      const delivered = await resolveDelivery(container, decodeQueueMessage(item.messageText), {
        dequeueCount: item.dequeueCount,
        exclusiveUntil: startedAt + 600_000 - EXCLUSIVITY_MARGIN_MS,
      });
      held.push({
        parts: delivered.parts,
        messageId: item.messageId,
        popReceipt: item.popReceipt,
      });
    }
    if (receivedMessageItems.length < 32) return held;
  }
}

async function run(env: BenchEnv): Promise<Comparison[]> {
  const batchCount = env.size(1000);
  const lines = batchCount * ENTRIES_PER_BATCH;
  const batches = makeBatches(batchCount);
  const drainedContainer = env.clients.container(env.uniqueName('bench-logs'));
  const writtenContainer = env.clients.container(env.uniqueName('bench-logs'));
  const queue = env.clients.queue(env.uniqueName('bench-logq'));
  const perEntryTable = env.clients.table(env.uniqueName('BenchLogLines', { table: true }));
  const batchedTable = env.clients.table(env.uniqueName('BenchLogEgt', { table: true }));
  await Promise.all([
    drainedContainer.create(),
    writtenContainer.create(),
    queue.create(),
    perEntryTable.createTable(),
    batchedTable.createTable(),
  ]);

  // One process: one ingest (its batches share messages) and one set of tag ledgers its flushes share.
  const ingestor = new LogIngest({ queue, container: drainedContainer });
  const ledgers = new TagLedgers();
  try {
    const ingest = await env.measure(
      'ingest: LogIngest.accept → queue, 16 at a time (sharing messages)',
      lines,
      () => ingestAll(ingestor, batches),
    );

    // 1. The production path: what one trigger invocation does, drain + write + acknowledge.
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
            container: drainedContainer,
            queue,
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

    // 2. The same work taken apart: queue receive, blob write (the log store's own cost), delete.
    await ingestAll(ingestor, batches);
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
    const blobRequests = requestsOf(blobTraffic!, 'blob');

    // Azurite inserts a few hundred entities a second, so the table paths write a sample of the
    // same entries; every figure is compared per 10,000 lines.
    const sample = batches.slice(0, Math.max(1, Math.min(batchCount, env.size(100))));
    const sampleLines = sample.length * ENTRIES_PER_BATCH;
    const perEntry = await env.measure('table path: one insert per line', sampleLines, async () => {
      await mapSettled(
        sample.flatMap((batch, b) => batch.entries.map((_, i) => [batch, b, i] as const)),
        32,
        ([batch, b, i]) => tableEntity(perEntryTable, batch, b, i),
      );
    });
    const egt = await env.measure(
      'table path: entity group transactions of 100',
      sampleLines,
      async () => {
        const transactions = sample.flatMap((batch, b) => [...tableActions(batch, b).values()]);
        await mapSettled(transactions, 16, (actions) => batchedTable.submitTransaction(actions));
      },
    );
    const stored = await countEntities(perEntryTable);
    if (stored !== sampleLines)
      throw new Error(`Table path stored ${stored} entities, expected ${sampleLines}.`);

    const blobPath = per10kLines(
      withRequests(write, 'blob path: write only, blob requests', blobRequests),
    );
    const flushPath = per10kLines(
      withRequests(endToEnd, 'flush end to end: drain + write + delete', endToEnd.requests),
    );
    const rate = (m: Measurement): string =>
      `${Math.round(m.opsPerSecond).toLocaleString('en-US')} entries/s`;
    const notes =
      `${lines} lines in ${batchCount} batches, sent 16 at a time and packed into ${drained} queue messages ` +
      `(${Math.round((batchCount / Math.max(1, drained)) * 10) / 10} batches per message); ` +
      `${flushes} flushes of up to ${FLUSH_MESSAGES} messages. ` +
      `Entries/s — flush end to end ${rate(endToEnd)}, blob write alone ${rate(write)} ` +
      `(queue receive alone ${rate(receive)}, queue delete alone ${rate(acknowledge)}), ingest ${rate(ingest)}. ` +
      `Requests per 10,000 lines — blob ${per10k(blobRequests, lines)}, queue send ${per10k(ingest.requests, lines)}, ` +
      `receive ${per10k(receive.requests, lines)}, delete ${per10k(acknowledge.requests, lines)}, ` +
      `table per line ${per10k(perEntry.requests, sampleLines)}, table EGT ${per10k(egt.requests, sampleLines)} ` +
      `(tables measured on ${sampleLines} of the lines). The queue's per-message requests (send, ` +
      `receive share, delete) bound the flush, so ingestion packs batches accepted together into ` +
      `one message (group commit) with their lines compressed; a batch that arrives alone still ` +
      `gets a message of its own at once.`;
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
        baseline: per10kLines(egt),
        notes:
          'EGT: 100 lines per request, all in the hour partition (one hot partition per hour).',
      },
      {
        name: 'logs: whole pipeline incl. queue vs one table entity per line',
        pattern: per10kLines(
          withRequests(
            endToEnd,
            'queue send + drain + write + delete',
            ingest.requests + endToEnd.requests,
          ),
        ),
        baseline: per10kLines(perEntry),
        notes:
          'The queue buys 202-after-durable ingestion at one send and one delete per message ' +
          '(several batches each when they arrive together). Wall time excludes the send.',
      },
    ];
  } finally {
    await Promise.allSettled([
      drainedContainer.deleteIfExists(),
      writtenContainer.deleteIfExists(),
      queue.deleteIfExists(),
      perEntryTable.deleteTable(),
      batchedTable.deleteTable(),
    ]);
  }
}

const logsCase: BenchCase = { name: 'logs', run };
export default logsCase;
