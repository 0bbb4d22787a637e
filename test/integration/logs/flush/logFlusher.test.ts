/**
 * The `log-batches` trigger's flusher (src/logs/flush/logFlusher.ts) and the ingest (src/logs/ingest/ingest.ts)
 * are objects a process builds once: the flusher's flushes share the tag ledgers it was built
 * with, and batches accepted by one ingest at the same time share messages — nothing is kept per
 * module, so two instances share nothing.
 */
import { LogFlusher } from '../../../../src/logs/flush/logFlusher';
import { LogIngest } from '../../../../src/logs/ingest/ingest';
import { TagLedgers } from '../../../../src/logs/flush/tagLedger';
import { parseLogBatch } from '../../../../src/logs/entry';
import { decodeQueueMessage } from '../../../../src/storage/queue';
import {
  blobLimits,
  entriesFrom,
  ingest,
  logRig,
  receive,
  type LogRig,
  type ReceivedLogMessage,
} from '../logKit';

const limits = blobLimits();

let rig: LogRig;
beforeEach(async () => {
  rig = await logRig();
});

/** Receives the one queued message and flushes it as its trigger, then deletes it (the host's part). */
async function triggerWith(flusher: LogFlusher) {
  const [item] = (await rig.queue.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 60 }))
    .receivedMessageItems;
  const flushed = await flusher.flushTrigger(decodeQueueMessage(item!.messageText), {
    dequeueCount: item!.dequeueCount,
  });
  await rig.queue.deleteMessage(item!.messageId, item!.popReceipt);
  return flushed.result;
}

const flusherWith = (ledgers: TagLedgers): LogFlusher =>
  new LogFlusher({ container: rig.container, queue: rig.queue, limits, maxMessages: 32, ledgers });

it('shares its ledgers between its flushes: the second flush of an hour reads no ledger', async () => {
  const flusher = flusherWith(new TagLedgers());
  await ingest(rig, 'web', entriesFrom('a', '2026-11-22T15:04:00Z', 3));
  const first = await triggerWith(flusher);
  await ingest(rig, 'web', entriesFrom('b', '2026-11-22T15:05:00Z', 3));
  const second = await triggerWith(flusher);

  expect(first).toMatchObject({ triggerFlushed: true, linesWritten: 3, failed: [] });
  expect(second).toMatchObject({ triggerFlushed: true, linesWritten: 3, failed: [] });
  expect(second.hours[0]!.requests.ledgerRead).toBe(0);
});

it('reads the ledger again in a flusher built with ledgers of its own (another process)', async () => {
  await ingest(rig, 'web', entriesFrom('a', '2026-11-22T15:04:00Z', 3));
  await triggerWith(flusherWith(new TagLedgers()));
  await ingest(rig, 'web', entriesFrom('b', '2026-11-22T15:05:00Z', 3));
  const other = await triggerWith(flusherWith(new TagLedgers()));

  expect(other).toMatchObject({ triggerFlushed: true, linesWritten: 3 });
  expect(other.hours[0]!.requests.ledgerRead).toBe(1);
});

it('packs the batches one ingest accepts at once into shared messages, and no other ingest joins them', async () => {
  const parse = (label: string) =>
    parseLogBatch(
      { source: 'web', entries: entriesFrom(label, '2026-11-22T15:04:00Z', 2) },
      { maxBatchEntries: 100 },
    );
  const other = new LogIngest({ queue: rig.queue, container: rig.container });

  await Promise.all([
    ...Array.from({ length: 20 }, (_, i) => rig.ingest.accept(parse(`shared${i}`))),
    other.accept(parse('alone')),
  ]);

  const messages = await receive(rig.queue, 30);
  expect(messages.length).toBeGreaterThanOrEqual(2);
  expect(messages.length).toBeLessThan(20);
  const linesOf = (message: ReceivedLogMessage): string =>
    message.parts.flatMap((part) => part.decoded.message.lines).join('\n');
  // The other instance's batch travels in a message of its own.
  const withAlone = messages.filter((m) => linesOf(m).includes('alone-0'));
  expect(withAlone).toHaveLength(1);
  expect(withAlone[0]!.parts).toHaveLength(1);
  expect(messages.filter((m) => linesOf(m).includes('shared')).length).toBeLessThan(20);
});
