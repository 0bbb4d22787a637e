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

describe('flushing log batches into hour blobs', () => {
  let rig: LogRig;
  beforeEach(async () => {
    rig = await logRig();
  });

  it('puts entries on either side of an hour boundary into that hour’s blob, with matching metadata', async () => {
    await ingest(rig, 'web', [
      { at: '2026-11-22T14:59:58.500Z', level: 'Warning', message: 'before-1' },
      { at: '2026-11-22T15:00:00.000Z', level: 'Error', message: 'after-1' },
      { at: '2026-11-22T14:59:59.999Z', level: 'Information', message: 'before-2' },
      { at: '2026-11-22T15:00:07.250Z', level: 'Critical', message: 'after-2', requestId: 'r-9' },
    ]);

    const result = await drainAndFlush({ ...rig, limits, maxMessages: 32 });

    expect(result).toMatchObject({ drained: 1, acknowledged: 1, linesWritten: 4 });
    expect(await queueLength(rig.queue)).toBe(0);
    const blobs = await readAll(rig.container);
    expect(blobs.map((b) => b.name)).toEqual([
      'web/2026/11/22/1400/000000.log',
      'web/2026/11/22/1500/000000.log',
    ]);
    const [before, after] = blobs as [(typeof blobs)[0], (typeof blobs)[0]];
    expect(before.messages).toEqual(['before-1', 'before-2']);
    expect(before.metadata).toEqual({
      StartTime: '2026-11-22T14:59:58Z',
      EndTime: '2026-11-22T14:59:59Z',
      LogVersion: '1.0',
      LogType: 'Information,Warning',
    });
    expect(after.messages).toEqual(['after-1', 'after-2']);
    expect(after.metadata).toEqual({
      StartTime: '2026-11-22T15:00:00Z',
      EndTime: '2026-11-22T15:00:07Z',
      LogVersion: '1.0',
      LogType: 'Error,Critical',
    });
    expect(after.entries[1]!.extra).toEqual({ requestId: 'r-9' });
    expect(after.contentType).toBe('text/plain; charset=utf-8');
  });

  it('writes many batches with one staged block and one commit per hour-blob per flush', async () => {
    for (let b = 0; b < 40; b++) {
      await ingest(rig, 'web', [
        ...entriesFrom(`b${b}-a`, `2026-11-22T10:${String(b).padStart(2, '0')}:00Z`, 5),
        ...entriesFrom(`b${b}-b`, `2026-11-22T11:${String(b).padStart(2, '0')}:00Z`, 5),
      ]);
    }

    const result = await drainAndFlush({ ...rig, limits, maxMessages: 100 });

    expect(result.drained).toBe(40);
    expect(result.hours).toHaveLength(2);
    for (const hour of result.hours) {
      // A new blob: its ledger is created and gets one line; nothing to read yet.
      expect(hour.requests).toEqual({
        list: 1,
        blockList: 1,
        ledgerRead: 0,
        ledgerAppend: 2,
        download: 0,
        stage: 1,
        commit: 1,
      });
      expect(hour.linesWritten).toBe(200);
    }
    const blobs = await readAll(rig.container);
    expect(blobs.map((b) => b.blocks)).toEqual([1, 1]);
    expect([...messageCounts(blobs).values()].every((n) => n === 1)).toBe(true);
    expect(messageCounts(blobs).size).toBe(400);

    // A later flush appends one more block to the same blob and widens its metadata.
    await ingest(rig, 'web', [
      { at: '2026-11-22T10:59:59.999Z', level: 'Verbose', message: 'late' },
    ]);
    const later = await drainAndFlush({ ...rig, limits, maxMessages: 100 });
    // The only committed block is this process's own, so its ledger need not be read.
    expect(later.hours[0]!.requests).toEqual({
      list: 1,
      blockList: 1,
      ledgerRead: 0,
      ledgerAppend: 1,
      download: 0,
      stage: 1,
      commit: 1,
    });
    const [tenOClock] = await readAll(rig.container);
    expect(tenOClock).toMatchObject({ name: 'web/2026/11/22/1000/000000.log', blocks: 2 });
    expect(tenOClock!.metadata).toMatchObject({
      EndTime: '2026-11-22T10:59:59Z',
      LogType: 'Verbose,Information',
    });
  });

  it('drains a full queue in several rounds within one call, acknowledging every message', async () => {
    for (let b = 0; b < 20; b++)
      await ingest(rig, 'web', entriesFrom(`r${b}`, '2026-11-22T12:00:00Z', 2));

    const result = await drainAndFlush({ ...rig, limits, maxMessages: 6, maxFlushes: 10 });

    expect(result).toMatchObject({ drained: 20, acknowledged: 20, flushes: 4, linesWritten: 40 });
    expect(await queueLength(rig.queue)).toBe(0);
    const [blob] = await readAll(rig.container);
    expect(blob!.blocks).toBe(4);
    expect(messageCounts([blob!]).size).toBe(40);
  });

  it('receives no round beyond its round limit, leaving the rest of the queue visible to others', async () => {
    for (let b = 0; b < 20; b++)
      await ingest(rig, 'web', entriesFrom(`p${b}`, '2026-11-22T12:00:00Z', 2));

    const result = await drainAndFlush({ ...rig, limits, maxMessages: 6, maxFlushes: 2 });

    expect(result).toMatchObject({ drained: 12, acknowledged: 12, flushes: 2, linesWritten: 24 });
    // The round after the last one was not prefetched: its messages are not hidden.
    const rest = [...(await receive(rig.queue, 30)), ...(await receive(rig.queue, 30))];
    expect(rest).toHaveLength(8);
    expect(rest.every((m) => m.pending.dequeueCount === 1)).toBe(true);
  });

  it('starts the next NNNNNN blob once the block limit is reached', async () => {
    const small = blobLimits({ LOG_BLOB_MAX_BLOCKS: '2' });
    for (let flush = 0; flush < 5; flush++) {
      await ingest(rig, 'api', entriesFrom(`f${flush}`, `2026-11-22T09:0${flush}:00Z`, 3));
      await drainAndFlush({ ...rig, limits: small, maxMessages: 32 });
    }
    const blobs = await readAll(rig.container);
    expect(blobs.map((b) => [b.name, b.blocks])).toEqual([
      ['api/2026/11/22/0900/000000.log', 2],
      ['api/2026/11/22/0900/000001.log', 2],
      ['api/2026/11/22/0900/000002.log', 1],
    ]);
    expect(blobs[1]!.metadata).toMatchObject({
      StartTime: '2026-11-22T09:02:00Z',
      EndTime: '2026-11-22T09:03:02Z',
    });
    expect(messageCounts(blobs).size).toBe(15);
  });

  it('starts the next NNNNNN blob once the size limit is reached', async () => {
    const small = blobLimits({ LOG_BLOB_MAX_BYTES: '1024' });
    const long = 'x'.repeat(300);
    for (let flush = 0; flush < 3; flush++) {
      await ingest(
        rig,
        'api',
        entriesFrom(`f${flush}`, `2026-11-22T09:1${flush}:00Z`, 4).map((e) => ({
          ...e,
          message: `${e.message} ${long}`,
        })),
      );
      await drainAndFlush({ ...rig, limits: small, maxMessages: 32 });
    }
    const blobs = await readAll(rig.container);
    expect(blobs.map((b) => b.name)).toEqual([
      'api/2026/11/22/0900/000000.log',
      'api/2026/11/22/0900/000001.log',
      'api/2026/11/22/0900/000002.log',
    ]);
    expect(messageCounts(blobs).size).toBe(12);
  });
});

describe('exactly-once lines under at-least-once delivery', () => {
  let rig: LogRig;
  beforeEach(async () => {
    rig = await logRig();
  });

  it('stores each entry once when the flusher crashes after the commit and before the acknowledgement', async () => {
    for (let b = 0; b < 6; b++)
      await ingest(rig, 'web', entriesFrom(`b${b}`, '2026-11-22T15:04:00Z', 10));

    // First delivery: the lines are committed, then the process "dies" before deleting the messages.
    const first = await receive(rig.queue, 1);
    expect(first).toHaveLength(6);
    const crashed = await flushLogMessages(
      rig.container,
      first.map((r) => r.pending),
      limits,
    );
    expect(crashed.flushed).toHaveLength(6);
    expect(await queueLength(rig.queue)).toBe(6);

    // Other batches keep arriving and are flushed meanwhile.
    await ingest(rig, 'web', entriesFrom('later', '2026-11-22T15:05:00Z', 10));
    await sleep(1200);

    // Redelivery: the messages come back (dequeueCount 2), are found stored, and are acknowledged.
    const again = await drainAndFlush({ ...rig, limits, maxMessages: 32 });
    expect(again.drained).toBe(7);
    expect(again.acknowledged).toBe(7);
    expect(again.linesWritten).toBe(10);
    expect(again.hours[0]!.alreadyStoredParts).toHaveLength(6);
    expect(await queueLength(rig.queue)).toBe(0);

    const counts = messageCounts(await readAll(rig.container));
    expect(counts.size).toBe(70);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('stores 40 batches accepted at once exactly once, though they share messages and the first flusher died before deleting them', async () => {
    await Promise.all(
      Array.from({ length: 40 }, (_, b) =>
        ingest(rig, 'web', entriesFrom(`c${b}`, '2026-11-22T15:04:00Z', 20)),
      ),
    );
    const messages = await queueLength(rig.queue);
    expect(messages).toBeLessThan(40);
    const crashed = await receive(rig.queue, 1);
    expect(crashed).toHaveLength(messages);
    expect(crashed.some((r) => r.parts.length > 1)).toBe(true);
    const written = await flushLogMessages(
      rig.container,
      crashed.flatMap((r) => r.parts),
      limits,
    );
    expect(written.failed).toEqual([]);
    expect(written.linesWritten).toBe(800);
    // The flusher dies here: no message is deleted, and every one is delivered again.
    await sleep(1200);

    const again = await drainAndFlush({ ...rig, limits, maxMessages: 32 });
    expect(again).toMatchObject({ drained: messages, acknowledged: messages, linesWritten: 0 });
    expect(again.flushed).toHaveLength(40);
    const counts = messageCounts(await readAll(rig.container));
    expect(counts.size).toBe(800);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await queueLength(rig.queue)).toBe(0);
  });

  it('finds a redelivered part even when its earlier write is in an older, full blob of the hour', async () => {
    const small = blobLimits({ LOG_BLOB_MAX_BLOCKS: '2' });
    await ingest(rig, 'web', entriesFrom('crashed', '2026-11-22T15:00:00Z', 3));
    const first = await receive(rig.queue, 1);
    await flushLogMessages(
      rig.container,
      first.map((r) => r.pending),
      small,
    );
    // Two more flushes fill 000000 and open 000001 before the redelivery.
    for (const label of ['x', 'y']) {
      await ingest(rig, 'web', entriesFrom(label, '2026-11-22T15:10:00Z', 3));
      const batch = await receive(rig.queue, 30);
      await flushLogMessages(
        rig.container,
        batch.map((r) => r.pending),
        small,
      );
      await Promise.all(batch.map((r) => rig.queue.deleteMessage(r.messageId, r.popReceipt)));
    }
    await sleep(1200);

    const again = await drainAndFlush({ ...rig, limits: small, maxMessages: 32 });
    expect(again).toMatchObject({ drained: 1, acknowledged: 1, linesWritten: 0 });

    const blobs = await readAll(rig.container);
    expect(blobs.map((b) => b.name)).toEqual([
      'web/2026/11/22/1500/000000.log',
      'web/2026/11/22/1500/000001.log',
    ]);
    expect([...messageCounts(blobs).values()].every((n) => n === 1)).toBe(true);
    expect(messageCounts(blobs).size).toBe(9);
  });

  it('lets a slow flusher whose visibility lapsed find its messages stored by the redelivery', async () => {
    await ingest(rig, 'web', entriesFrom('slow', '2026-11-22T15:04:00Z', 5));
    const slow = await receive(rig.queue, 1);
    await sleep(1200);
    // Another flusher gets the message again and stores it.
    const other = await drainAndFlush({ ...rig, limits, maxMessages: 32 });
    expect(other).toMatchObject({ drained: 1, acknowledged: 1, linesWritten: 5 });

    // The slow flusher finally writes: its exclusivity has lapsed, so it searches the hour first.
    const late = await flushLogMessages(
      rig.container,
      slow.map((r) => r.pending),
      limits,
    );
    expect(late.flushed).toHaveLength(1);
    expect(late.linesWritten).toBe(0);
    expect(late.hours[0]!.alreadyStoredParts).toEqual([slow[0]!.pending.decoded.tag]);
    expect(messageCounts(await readAll(rig.container)).get('slow-0')).toBe(1);
  });

  it('makes the loser of a commit race re-read the block list and the ledger, and retry', async () => {
    await ingest(rig, 'web', entriesFrom('loser', '2026-11-22T15:04:00Z', 5));
    await ingest(rig, 'web', entriesFrom('winner', '2026-11-22T15:05:00Z', 5));
    const [loser, winner] = await receive(rig.queue, 30);

    // The winner (another process) commits between the loser's view of the blob and its commit.
    const racing = raceBeforeFirstCommit(rig.container, () =>
      flushLogMessages(rig.container, [winner!.pending], limits, Date.now, new TagLedgers()).then(
        () => undefined,
      ),
    );
    const result = await flushLogMessages(racing, [loser!.pending], limits);

    expect(result.flushed).toHaveLength(1);
    expect(result.hours[0]).toMatchObject({
      commitAttempts: 2,
      linesWritten: 5,
      alreadyStoredParts: [],
    });
    // The winner's block is described by its ledger line: no download.
    expect(result.hours[0]!.requests).toMatchObject({ blockList: 2, ledgerRead: 1, download: 0 });
    const blobs = await readAll(rig.container);
    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.blocks).toBe(2);
    expect(blobs[0]!.messages.filter((m) => m.startsWith('winner'))).toHaveLength(5);
    expect(blobs[0]!.messages.filter((m) => m.startsWith('loser'))).toHaveLength(5);
  });

  it('does not repeat lines when a redelivery of the same message wins the race against the original', async () => {
    await ingest(rig, 'web', entriesFrom('dup', '2026-11-22T15:04:00Z', 5));
    await ingest(rig, 'web', entriesFrom('other', '2026-11-22T15:04:30Z', 5));
    const [original, other] = await receive(rig.queue, 30);
    // The redelivery is flushed together with another message, so its block differs from the original's.
    const redelivered = { ...original!.pending, dequeueCount: 2 };

    const racing = raceBeforeFirstCommit(rig.container, () =>
      flushLogMessages(rig.container, [other!.pending, redelivered], limits).then(() => undefined),
    );
    const result = await flushLogMessages(racing, [original!.pending], limits);

    expect(result.flushed).toHaveLength(1);
    expect(result.hours[0]).toMatchObject({
      commitAttempts: 1,
      linesWritten: 0,
      alreadyStoredParts: [original!.pending.decoded.tag],
    });
    const counts = messageCounts(await readAll(rig.container));
    expect(counts.size).toBe(10);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('treats an identical block committed by a duplicate delivery as its own', async () => {
    await ingest(rig, 'web', entriesFrom('same', '2026-11-22T15:04:00Z', 5));
    const [original] = await receive(rig.queue, 30);
    const redelivered = { ...original!.pending, dequeueCount: 2 };

    const racing = raceBeforeFirstCommit(rig.container, () =>
      flushLogMessages(rig.container, [redelivered], limits).then(() => undefined),
    );
    const result = await flushLogMessages(racing, [original!.pending], limits);

    expect(result.flushed).toHaveLength(1);
    const blobs = await readAll(rig.container);
    expect(blobs[0]!.blocks).toBe(1);
    expect([...messageCounts(blobs).values()]).toEqual([1, 1, 1, 1, 1]);
  });

  it('stores every entry once when several flushers drain the queue at the same time', async () => {
    const batches = 120;
    await Promise.all(
      Array.from({ length: batches }, (_, b) =>
        ingest(
          rig,
          'web',
          entriesFrom(`c${b}`, `2026-11-22T15:${String(b % 60).padStart(2, '0')}:00Z`, 10),
        ),
      ),
    );
    const small = blobLimits({ LOG_BLOB_MAX_BLOCKS: '3' });
    const flusher = async (): Promise<number> => {
      // Each flusher is its own process: it learns the others' blocks from the ledgers.
      const ledgers = new TagLedgers();
      let attempts = 0;
      for (;;) {
        const result = await drainAndFlush({ ...rig, limits: small, maxMessages: 8, ledgers });
        attempts += result.hours.reduce((n, h) => n + h.commitAttempts, 0);
        if (result.drained === 0) return attempts;
      }
    };
    const attempts = await Promise.all([flusher(), flusher(), flusher(), flusher()]);

    expect(await queueLength(rig.queue)).toBe(0);
    const blobs = await readAll(rig.container);
    const counts = messageCounts(blobs);
    expect(counts.size).toBe(batches * 10);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // Every blob respects the block limit and its metadata covers its lines.
    for (const blob of blobs) {
      expect(blob.blocks).toBeLessThanOrEqual(3);
      const times = blob.entries.map((e) => Math.floor(e.at.getTime() / 1000) * 1000);
      expect(blob.metadata.StartTime).toBe(
        new Date(Math.min(...times)).toISOString().replace('.000Z', 'Z'),
      );
      expect(blob.metadata.EndTime).toBe(
        new Date(Math.max(...times)).toISOString().replace('.000Z', 'Z'),
      );
    }
    expect(attempts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
