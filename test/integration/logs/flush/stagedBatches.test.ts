/**
 * A batch over one queue message's 64 KiB: written whole to a staging blob and announced by ONE
 * pointer message, so it is stored all or not at all, and exactly once however often the pointer
 * arrives.
 */
import type { QueueClient } from '@azure/storage-queue';
import { drainAndFlush } from '../../../../src/logs/flush/logDrain';
import { flushLogMessages } from '../../../../src/logs/flush/flushMessages';
import { EXCLUSIVITY_MARGIN_MS, resolveDelivery } from '../../../../src/logs/flush/delivery';
import { parseLogBatch } from '../../../../src/logs/entry';
import { LogIngest } from '../../../../src/logs/ingest/ingest';
import { logStagingBlobName } from '../../../../src/storage/keys/blobs/logBlobs';
import { decodeQueueMessage, MAX_QUEUE_MESSAGE_BYTES } from '../../../../src/storage/queue';
import {
  blobLimits,
  entriesFrom,
  ingest,
  logRig,
  messageCounts,
  queueLength,
  readAll,
  sleep,
  type LogRig,
  type RawEntry,
} from '../logKit';

const limits = blobLimits();

/** 60 entries of ~2 KiB across two hours: about 120 KiB, two queue messages' worth. */
function bigBatch(label: string): RawEntry[] {
  return entriesFrom(label, '2026-11-22T15:59:30Z', 60).map((entry) => ({
    ...entry,
    detail: 'x'.repeat(2000),
  }));
}

async function stagingBlobs(rig: LogRig): Promise<string[]> {
  const names: string[] = [];
  for await (const item of rig.container.listBlobsFlat({ prefix: '_pipeline/staging/' })) {
    names.push(item.name);
  }
  return names;
}

function expectStoredOnce(blobs: Awaited<ReturnType<typeof readAll>>, label: string): void {
  const counts = messageCounts(blobs);
  const expected = Array.from({ length: 60 }, (_, i) => `${label}-${i}`);
  expect([...counts.keys()].sort()).toEqual([...expected].sort());
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
}

describe('log batches larger than one queue message', () => {
  let rig: LogRig;
  beforeEach(async () => {
    rig = await logRig();
  });

  it('go on the queue as exactly one pointer message and are stored once by a flush', async () => {
    const entries = bigBatch('big');
    expect(Buffer.byteLength(JSON.stringify(entries))).toBeGreaterThan(MAX_QUEUE_MESSAGE_BYTES);

    const accepted = await ingest(rig, 'web', entries);

    expect(accepted).toMatchObject({ entries: 60, messages: 1, staged: true });
    const { peekedMessageItems } = await rig.queue.peekMessages({ numberOfMessages: 32 });
    expect(peekedMessageItems).toHaveLength(1);
    const stagingBlob = logStagingBlobName(accepted.batchId);
    expect(decodeQueueMessage(peekedMessageItems[0]!.messageText)).toEqual({
      v: 1,
      batchId: accepted.batchId,
      stagingBlob,
    });
    expect(await stagingBlobs(rig)).toEqual([stagingBlob]);

    const result = await drainAndFlush({ ...rig, limits, maxMessages: 32 });

    expect(result).toMatchObject({
      drained: 1,
      acknowledged: 1,
      linesWritten: 60,
      stagingBlobsDeleted: 1,
    });
    expect(await queueLength(rig.queue)).toBe(0);
    const blobs = await readAll(rig.container);
    expect(blobs.map((b) => b.name)).toEqual([
      'web/2026/11/22/1500/000000.log',
      'web/2026/11/22/1600/000000.log',
    ]);
    expectStoredOnce(blobs, 'big');
    expect(await stagingBlobs(rig)).toEqual([]);
  });

  it('leave nothing to flush when the process dies after staging, before enqueueing', async () => {
    let reachedSend!: () => void;
    const sendReached = new Promise<void>((resolve) => (reachedSend = resolve));
    // The process "dies" at its queue send: the call never returns and nothing after it runs.
    const dying = new Proxy(rig.queue, {
      get(target, property, receiver) {
        if (property !== 'sendMessage') return Reflect.get(target, property, receiver) as unknown;
        return () => {
          reachedSend();
          return new Promise(() => undefined);
        };
      },
    }) as QueueClient;
    const batch = parseLogBatch(
      { source: 'web', entries: bigBatch('lost') },
      { maxBatchEntries: 1000 },
    );
    void new LogIngest({ queue: dying, container: rig.container }).accept(batch);
    await sendReached;

    // The batch is staged but was never announced: the caller got no 202 and will retry.
    expect(await stagingBlobs(rig)).toHaveLength(1);
    expect(await queueLength(rig.queue)).toBe(0);
    const result = await drainAndFlush({ ...rig, limits, maxMessages: 32 });
    expect(result).toMatchObject({ drained: 0, linesWritten: 0 });
    expect(await readAll(rig.container)).toEqual([]);
  });

  it('are not stored twice when the pointer comes back after a flush that died before acknowledging', async () => {
    await ingest(rig, 'web', bigBatch('redelivered'));
    // A flusher receives the pointer, commits every line, and dies before deleting anything.
    const startedAt = Date.now();
    const [item] = (await rig.queue.receiveMessages({ numberOfMessages: 1, visibilityTimeout: 1 }))
      .receivedMessageItems;
    const delivered = await resolveDelivery(rig.container, decodeQueueMessage(item!.messageText), {
      dequeueCount: item!.dequeueCount,
      exclusiveUntil: startedAt + 1000 - EXCLUSIVITY_MARGIN_MS,
    });
    expect(delivered.parts.length).toBeGreaterThan(1);
    const crashed = await flushLogMessages(rig.container, delivered.parts, limits);
    expect(crashed).toMatchObject({ failed: [], linesWritten: 60 });
    await sleep(1100);

    const again = await drainAndFlush({ ...rig, limits, maxMessages: 32 });

    expect(again).toMatchObject({
      drained: 1,
      acknowledged: 1,
      linesWritten: 0,
      stagingBlobsDeleted: 1,
    });
    expectStoredOnce(await readAll(rig.container), 'redelivered');
    expect(await stagingBlobs(rig)).toEqual([]);
    expect(await queueLength(rig.queue)).toBe(0);
  });

  it('are not stored twice when a second copy of the pointer arrives after the cleanup', async () => {
    await ingest(rig, 'web', bigBatch('copied'));
    const { peekedMessageItems } = await rig.queue.peekMessages({ numberOfMessages: 1 });
    const pointerText = peekedMessageItems[0]!.messageText;
    await drainAndFlush({ ...rig, limits, maxMessages: 32 });
    expect(await stagingBlobs(rig)).toEqual([]);

    // A send whose answer was lost and that the SDK retried leaves the same pointer twice.
    await rig.queue.sendMessage(pointerText);
    const late = await drainAndFlush({ ...rig, limits, maxMessages: 32 });

    expect(late).toMatchObject({ drained: 1, acknowledged: 1, linesWritten: 0, failed: [] });
    expect(await queueLength(rig.queue)).toBe(0);
    expectStoredOnce(await readAll(rig.container), 'copied');
  });

  it('keep the staging blob while a flush of the batch fails, so the redelivery can finish it', async () => {
    await ingest(rig, 'web', bigBatch('retried'));
    const secondHour = rig.container.getBlockBlobClient('web/2026/11/22/1600/000000.log');
    // A lease on the second hour's blob makes its commit fail: the batch is half written.
    await secondHour.upload('', 0);
    const lease = secondHour.getBlobLeaseClient();
    await lease.acquireLease(-1);
    const failed = await drainAndFlush({ ...rig, limits, maxMessages: 32, visibilitySeconds: 1 });
    expect(failed.failed.length).toBeGreaterThan(0);
    expect(failed.acknowledged).toBe(0);
    expect(await stagingBlobs(rig)).toHaveLength(1);
    await lease.releaseLease();
    await secondHour.delete();
    await sleep(1100);

    const again = await drainAndFlush({ ...rig, limits, maxMessages: 32 });

    expect(again).toMatchObject({ drained: 1, acknowledged: 1, failed: [] });
    expectStoredOnce(await readAll(rig.container), 'retried');
    expect(await stagingBlobs(rig)).toEqual([]);
  });

  it('flush beside a garbage message in the same round, which is left for the poison queue', async () => {
    await rig.queue.sendMessage('not base64 JSON at all');
    await ingest(rig, 'web', bigBatch('beside-garbage'));

    const result = await drainAndFlush({ ...rig, limits, maxMessages: 32, visibilitySeconds: 30 });

    expect(result).toMatchObject({ drained: 1, undecodable: 1, acknowledged: 1, linesWritten: 60 });
    expectStoredOnce(await readAll(rig.container), 'beside-garbage');
    // Still on the queue (invisible for now): the trigger will fail on it and the host poison it.
    expect(await queueLength(rig.queue)).toBe(1);
  });
});
