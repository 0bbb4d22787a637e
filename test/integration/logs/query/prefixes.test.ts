/**
 * An hour prefix `<source>/YYYY/MM/DD/hh00/` holds only its `NNNNNN.log` blobs, as Storage
 * Analytics does: the pipeline's tag ledgers and staged batches live under `_pipeline/`, which no
 * source can be called. Ledgers an earlier version left in the hour prefix are still honoured.
 */
import type { ContainerClient } from '@azure/storage-blob';
import type { QueueClient } from '@azure/storage-queue';
import { drainAndFlush } from '../../../../src/logs/flush/logDrain';
import { flushLogMessages } from '../../../../src/logs/flush/flushMessages';
import { TagLedgers } from '../../../../src/logs/flush/tagLedger';
import {
  LOG_PIPELINE_PREFIX,
  legacyLogTagLedgerName,
  logHourPrefix,
  logTagLedgerName,
  parseLogBlobName,
  parseLogStagingBlobName,
  parseLogTagLedgerName,
} from '../../../../src/storage/keys/blobs/logBlobs';
import {
  blobLimits,
  entriesFrom,
  ingest,
  logRig,
  messageCounts,
  readAll,
  receive,
  type LogRig,
} from '../logKit';

async function names(container: ContainerClient, prefix?: string): Promise<string[]> {
  const found: string[] = [];
  for await (const item of container.listBlobsFlat(prefix ? { prefix } : {})) found.push(item.name);
  return found.sort();
}

/** Sends every queued message's text once more, as a retried send would. */
async function sendEachAgain(queue: QueueClient): Promise<void> {
  const peeked = await queue.peekMessages({ numberOfMessages: 32 });
  for (const message of peeked.peekedMessageItems) await queue.sendMessage(message.messageText);
}

describe('log container prefixes', () => {
  let rig: LogRig;
  beforeEach(async () => {
    rig = await logRig();
  });

  it('lists only NNNNNN.log blobs under every hour prefix, after ingest and after flush', async () => {
    // Two sources, two hours, a staged batch (about 120 KiB, spanning 15:59:30-16:00:29) and
    // blobs rolled over every two blocks, so every kind of pipeline blob exists.
    const limits = blobLimits({ LOG_BLOB_MAX_BLOCKS: '2' });
    const staged = await ingest(
      rig,
      'web',
      entriesFrom('big', '2026-11-22T15:59:30Z', 60).map((e) => ({
        ...e,
        detail: 'x'.repeat(2000),
      })),
    );
    expect(staged.staged).toBe(true);
    for (let i = 0; i < 4; i++) {
      await ingest(rig, 'web', entriesFrom(`web${i}`, `2026-11-22T15:0${i}:00Z`, 3));
      await ingest(rig, 'api', entriesFrom(`api${i}`, `2026-11-22T16:0${i}:00Z`, 3));
    }
    expect(await names(rig.container, LOG_PIPELINE_PREFIX)).toHaveLength(1);

    const result = await drainAndFlush({ ...rig, limits, maxMessages: 1, maxFlushes: 20 });
    expect(result.acknowledged).toBe(9);

    const hours = [new Date('2026-11-22T15:00:00Z'), new Date('2026-11-22T16:00:00Z')];
    let logBlobs = 0;
    for (const source of ['web', 'api']) {
      for (const hour of hours) {
        const prefix = logHourPrefix(source, hour);
        for (const name of await names(rig.container, prefix)) {
          expect(name.slice(prefix.length)).toMatch(/^\d{6}\.log$/);
          expect(parseLogBlobName(name)).toBeDefined();
          logBlobs++;
        }
      }
      for (const name of await names(rig.container, `${source}/`)) {
        expect(parseLogBlobName(name)).toBeDefined();
      }
    }
    expect(logBlobs).toBeGreaterThan(4); // roll-over happened

    // Everything else is a ledger of an existing log blob under _pipeline/ (staging is gone).
    const all = await names(rig.container);
    const logs = all.filter((name) => parseLogBlobName(name));
    expect(logs).toHaveLength(logBlobs);
    const rest = all.filter((name) => !parseLogBlobName(name));
    expect(rest.every((name) => name.startsWith(LOG_PIPELINE_PREFIX))).toBe(true);
    expect(rest.filter((name) => parseLogStagingBlobName(name))).toEqual([]);
    expect(rest.map((name) => parseLogTagLedgerName(name)).sort()).toEqual(logs);
    expect(rest).toEqual(logs.map(logTagLedgerName).sort());

    // The root of the container shows the sources and the pipeline's prefix, nothing else.
    const top: string[] = [];
    for await (const item of rig.container.listBlobsByHierarchy('/')) {
      top.push(item.kind === 'prefix' ? item.name : `blob:${item.name}`);
    }
    expect(top.sort()).toEqual([LOG_PIPELINE_PREFIX, 'api/', 'web/']);

    const counts = messageCounts(await readAll(rig.container));
    expect(counts.size).toBe(60 + 4 * 3 * 2);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('honours a ledger an earlier version kept in the hour prefix (no duplicate, no download)', async () => {
    const limits = blobLimits();
    await ingest(rig, 'web', entriesFrom('twice', '2026-11-22T15:04:00Z', 5));
    await sendEachAgain(rig.queue);
    const [first, second] = await receive(rig.queue, 30);
    await flushLogMessages(rig.container, [first!.pending], limits, Date.now, new TagLedgers());

    // Make it look as if that flush had been done by the earlier version: ledger in the hour.
    const [logBlob] = (await readAll(rig.container)).map((blob) => blob.name);
    const ledger = rig.container.getAppendBlobClient(logTagLedgerName(logBlob!));
    const lines = await ledger.downloadToBuffer();
    const legacy = rig.container.getAppendBlobClient(legacyLogTagLedgerName(logBlob!));
    await legacy.create();
    await legacy.appendBlock(lines, lines.length);
    await ledger.delete();

    // The second copy, first delivery, another process: found through the legacy ledger.
    const late = await flushLogMessages(
      rig.container,
      [second!.pending],
      limits,
      Date.now,
      new TagLedgers(),
    );
    expect(late.linesWritten).toBe(0);
    expect(late.hours[0]!.alreadyStoredParts).toEqual([second!.pending.decoded.tag]);
    expect(late.hours[0]!.requests).toMatchObject({ ledgerRead: 2, download: 0 });
    const counts = messageCounts(await readAll(rig.container));
    expect(counts.size).toBe(5);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });
});
