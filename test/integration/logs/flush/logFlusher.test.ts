/**
 * The `log-batches` trigger's flusher (src/logs/flush/logFlusher.ts) and the ingest (src/logs/ingest/ingest.ts)
 * are objects a process builds once: the flusher's flushes share the tag ledgers it was built
 * with, and batches accepted by one ingest at the same time share messages — nothing is kept per
 * module, so two instances share nothing.
 */
import { RestError } from '@azure/core-rest-pipeline';
import { LogFlusher, MIN_DEFER_SECONDS } from '../../../../src/logs/flush/logFlusher';
import { LogIngest } from '../../../../src/logs/ingest/ingest';
import { TagLedgers } from '../../../../src/logs/flush/tagLedger';
import { parseLogBatch } from '../../../../src/logs/entry';
import { decodeQueueMessage } from '../../../../src/storage/queue';
import {
  blobLimits,
  entriesFrom,
  ingest,
  logRig,
  readAll,
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

/** The HTTP pipeline the rig's container and every blob client made from it send through. */
const blobPipeline = () => rig.container['storageClientContext'].pipeline;

/** Every blob write of the rig fails with `status`/`code`, not retried, until the policy goes. */
function refuseBlobWrites(statusCode: number, code: string): void {
  blobPipeline().addPolicy({
    name: 'refuseBlobWrites',
    async sendRequest(request, next) {
      if (request.method !== 'PUT') return next(request);
      throw new RestError(`Refused (${code}).`, { statusCode, code, request });
    },
  });
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

it('defers a trigger whose write busy storage refused: a copy comes back after the wait, its lines stored once', async () => {
  await ingest(rig, 'web', entriesFrom('busy', '2026-11-22T15:04:00Z', 3));
  const [item] = (await rig.queue.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 60 }))
    .receivedMessageItems;
  const payload = decodeQueueMessage(item!.messageText);
  refuseBlobWrites(503, 'ServerBusy');
  const flusher = flusherWith(new TagLedgers());

  const refused = await flusher.flushTrigger(payload, { dequeueCount: item!.dequeueCount });
  expect(refused.result.failed).toHaveLength(1);
  expect(await flusher.settleTrigger(payload, refused)).toBe('deferred');
  // The trigger completes (the host deletes it); the copy is invisible for the wait.
  await rig.queue.deleteMessage(item!.messageId, item!.popReceipt);
  expect((await rig.queue.receiveMessages()).receivedMessageItems).toHaveLength(0);
  expect((await rig.queue.getProperties()).approximateMessagesCount).toBe(1);

  blobPipeline().removePolicy({ name: 'refuseBlobWrites' });
  await new Promise((resolve) => setTimeout(resolve, MIN_DEFER_SECONDS * 1000));
  const again = await triggerWith(flusher);
  expect(again).toMatchObject({ triggerFlushed: true, linesWritten: 3, failed: [] });
  expect((await readAll(rig.container)).flatMap((b) => b.messages)).toHaveLength(3);
});

it('fails a trigger whose write failed for another reason, so the host retries it', async () => {
  await ingest(rig, 'web', entriesFrom('bad', '2026-11-22T15:04:00Z', 2));
  const [item] = (await rig.queue.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 60 }))
    .receivedMessageItems;
  const payload = decodeQueueMessage(item!.messageText);
  refuseBlobWrites(403, 'AuthorizationFailure');
  const flusher = flusherWith(new TagLedgers());
  const refused = await flusher.flushTrigger(payload, { dequeueCount: item!.dequeueCount });
  blobPipeline().removePolicy({ name: 'refuseBlobWrites' });
  await expect(flusher.settleTrigger(payload, refused)).rejects.toMatchObject({ statusCode: 403 });
  expect((await rig.queue.getProperties()).approximateMessagesCount).toBe(1);
});
