/**
 * A queue send whose response was lost and that the SDK retried leaves the same message part on the
 * queue twice, as two distinct messages, both on their first delivery. The tag ledger beside each
 * log blob (`NNNNNN.tags`) must make the second copy count as stored, in whatever round or process
 * it is flushed, without ever counting a block whose commit did not happen.
 */
import type { BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';
import { drainAndFlush } from '../../../../src/logs/flush/logDrain';
import { flushLogMessages } from '../../../../src/logs/flush/flushMessages';
import { TagLedgers } from '../../../../src/logs/flush/tagLedger';
import {
  blobLimits,
  entriesFrom,
  ingest,
  logRig,
  messageCounts,
  queueLength,
  raceBeforeFirstCommit,
  readAll,
  receive,
  sleep,
  type LogRig,
} from '../logKit';

const limits = blobLimits();

/** Sends every queued message's text once more, as a retried send would. */
async function sendEachAgain(queue: QueueClient): Promise<void> {
  const peeked = await queue.peekMessages({ numberOfMessages: 32 });
  for (const message of peeked.peekedMessageItems) await queue.sendMessage(message.messageText);
}

/** Every line of every tag ledger in the container. */
async function ledgerLines(container: ContainerClient): Promise<string[]> {
  const lines: string[] = [];
  for await (const item of container.listBlobsFlat()) {
    if (!item.name.endsWith('.tags')) continue;
    const text = (await container.getAppendBlobClient(item.name).downloadToBuffer()).toString();
    lines.push(...text.split('\n').filter((line) => line !== ''));
  }
  return lines;
}

/** Committed block ids of every log blob in the container. */
async function committedIds(container: ContainerClient): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const item of container.listBlobsFlat()) {
    if (!item.name.endsWith('.log')) continue;
    const list = await container.getBlockBlobClient(item.name).getBlockList('committed');
    for (const block of list.committedBlocks ?? []) ids.add(block.name);
  }
  return ids;
}

/** A view of `container` whose first Put Block List fails as if the process died before sending it. */
function crashBeforeFirstCommit(container: ContainerClient): ContainerClient {
  let crashed = false;
  return new Proxy(container, {
    get(target, property, receiver) {
      if (property !== 'getBlockBlobClient')
        return Reflect.get(target, property, receiver) as unknown;
      return (name: string): BlockBlobClient =>
        new Proxy(target.getBlockBlobClient(name), {
          get(blob, key, blobReceiver) {
            if (key !== 'commitBlockList' || crashed)
              return Reflect.get(blob, key, blobReceiver) as unknown;
            return () => {
              crashed = true;
              return Promise.reject(new Error('process died before the commit'));
            };
          },
        });
    },
  });
}

describe('a message part sent twice (a retried queue send) is stored once', () => {
  let rig: LogRig;
  beforeEach(async () => {
    rig = await logRig();
  });

  it('recognises the second copy flushed in a later round on its first delivery', async () => {
    await ingest(rig, 'web', entriesFrom('twice', '2026-11-22T15:04:00Z', 5));
    await sendEachAgain(rig.queue);
    expect(await queueLength(rig.queue)).toBe(2);

    // One message per round: the copies go to different rounds, both on first delivery.
    const result = await drainAndFlush({ ...rig, limits, maxMessages: 1, maxFlushes: 5 });

    expect(result).toMatchObject({ drained: 2, acknowledged: 2, flushes: 2, linesWritten: 5 });
    expect(result.hours[1]!.alreadyStoredParts).toHaveLength(1);
    expect(await queueLength(rig.queue)).toBe(0);
    const counts = messageCounts(await readAll(rig.container));
    expect(counts.size).toBe(5);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('recognises the second copy in another process, reading only that process’s unseen ledger lines', async () => {
    await ingest(rig, 'web', entriesFrom('twice', '2026-11-22T15:04:00Z', 5));
    await sendEachAgain(rig.queue);
    const [first, second] = await receive(rig.queue, 30);
    const other = new TagLedgers();
    // The other process has already looked at the blob once (another batch).
    await ingest(rig, 'web', entriesFrom('warmup', '2026-11-22T15:01:00Z', 2));
    const warmup = await receive(rig.queue, 30);
    await flushLogMessages(
      rig.container,
      warmup.map((r) => r.pending),
      limits,
      Date.now,
      other,
    );

    await flushLogMessages(rig.container, [first!.pending], limits, Date.now, new TagLedgers());
    const late = await flushLogMessages(rig.container, [second!.pending], limits, Date.now, other);

    expect(late.linesWritten).toBe(0);
    expect(late.hours[0]!.alreadyStoredParts).toEqual([second!.pending.decoded.tag]);
    expect(late.hours[0]!.requests).toMatchObject({ ledgerRead: 1, download: 0, stage: 0 });
    const counts = messageCounts(await readAll(rig.container));
    expect(counts.get('twice-0')).toBe(1);
    expect(counts.size).toBe(7);
  });

  it('writes a part once when both copies arrive in the same round', async () => {
    await ingest(rig, 'web', entriesFrom('same-round', '2026-11-22T15:04:00Z', 5));
    await sendEachAgain(rig.queue);

    const result = await drainAndFlush({ ...rig, limits, maxMessages: 32 });

    expect(result).toMatchObject({ drained: 2, acknowledged: 2, linesWritten: 5 });
    const counts = messageCounts(await readAll(rig.container));
    expect([...counts.values()]).toEqual([1, 1, 1, 1, 1]);
  });

  it('recognises a copy in an older, full blob of the hour', async () => {
    const small = blobLimits({ LOG_BLOB_MAX_BLOCKS: '2' });
    await ingest(rig, 'web', entriesFrom('old', '2026-11-22T15:00:00Z', 3));
    await sendEachAgain(rig.queue);
    const [first, second] = await receive(rig.queue, 30);
    await flushLogMessages(rig.container, [first!.pending], small);
    // Two more flushes fill 000000 and open 000001.
    for (const label of ['x', 'y']) {
      await ingest(rig, 'web', entriesFrom(label, '2026-11-22T15:10:00Z', 3));
      const next = await receive(rig.queue, 30);
      await flushLogMessages(
        rig.container,
        next.map((r) => r.pending),
        small,
      );
    }

    const late = await flushLogMessages(rig.container, [second!.pending], small);

    expect(late.linesWritten).toBe(0);
    const blobs = await readAll(rig.container);
    expect(blobs.map((b) => b.name)).toEqual([
      'web/2026/11/22/1500/000000.log',
      'web/2026/11/22/1500/000001.log',
    ]);
    expect([...messageCounts(blobs).values()].every((n) => n === 1)).toBe(true);
    expect(messageCounts(blobs).size).toBe(9);
  });

  it('does not count the ledger line of a commit that lost the race: the winner’s copy is the one stored', async () => {
    await ingest(rig, 'web', entriesFrom('raced', '2026-11-22T15:04:00Z', 5));
    await sendEachAgain(rig.queue);
    await ingest(rig, 'web', entriesFrom('beside', '2026-11-22T15:05:00Z', 5));
    const [loserCopy, winnerCopy, beside] = await receive(rig.queue, 30);
    expect(loserCopy!.pending.decoded.tag).toBe(winnerCopy!.pending.decoded.tag);

    // The winner, another process, commits its copy (with another part, so its block differs)
    // after the loser appended its ledger line and before the loser's commit.
    const racing = raceBeforeFirstCommit(rig.container, () =>
      flushLogMessages(
        rig.container,
        [winnerCopy!.pending, beside!.pending],
        limits,
        Date.now,
        new TagLedgers(),
      ).then(() => undefined),
    );
    const loser = await flushLogMessages(
      racing,
      [loserCopy!.pending],
      limits,
      Date.now,
      new TagLedgers(),
    );

    expect(loser.hours[0]).toMatchObject({
      commitAttempts: 1,
      linesWritten: 0,
      alreadyStoredParts: [loserCopy!.pending.decoded.tag],
    });
    // The ledger holds both lines; only the winner's block is committed.
    const lines = await ledgerLines(rig.container);
    const committed = await committedIds(rig.container);
    expect(lines).toHaveLength(2);
    expect(lines.filter((line) => committed.has(line.split(' ')[0]!))).toHaveLength(1);
    const counts = messageCounts(await readAll(rig.container));
    expect(counts.size).toBe(10);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('stores a part whose only ledger line belongs to a commit that never happened', async () => {
    // A block already in the blob makes the fresh process below read the ledger.
    await ingest(rig, 'web', entriesFrom('before', '2026-11-22T15:01:00Z', 2));
    const before = await drainAndFlush({ ...rig, limits, maxMessages: 32 });
    expect(before.linesWritten).toBe(2);
    await ingest(rig, 'web', entriesFrom('orphan', '2026-11-22T15:04:00Z', 5));
    await sendEachAgain(rig.queue);
    const [crashedCopy, laterCopy] = await receive(rig.queue, 1);

    // The ledger line is appended, then the process dies before its Put Block List.
    const crashed = await flushLogMessages(
      crashBeforeFirstCommit(rig.container),
      [crashedCopy!.pending],
      limits,
      Date.now,
      new TagLedgers(),
    );
    expect(crashed.failed).toHaveLength(1);
    expect(await ledgerLines(rig.container)).toHaveLength(2);
    expect((await committedIds(rig.container)).size).toBe(1);

    // The other copy (first delivery, fresh process) must not trust that line.
    const other = await flushLogMessages(
      rig.container,
      [laterCopy!.pending],
      limits,
      Date.now,
      new TagLedgers(),
    );
    expect(other.linesWritten).toBe(5);
    expect(other.hours[0]!.requests.ledgerRead).toBe(1);

    // The crashed copy comes back (dequeueCount 2) and is found stored.
    await sleep(1200);
    const again = await drainAndFlush({
      ...rig,
      limits,
      maxMessages: 32,
      ledgers: new TagLedgers(),
    });
    expect(again).toMatchObject({ drained: 2, acknowledged: 2, linesWritten: 0 });
    expect(again.hours[0]!.requests.download).toBe(0);
    expect(await queueLength(rig.queue)).toBe(0);
    const counts = messageCounts(await readAll(rig.container));
    expect(counts.size).toBe(7);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });
});
