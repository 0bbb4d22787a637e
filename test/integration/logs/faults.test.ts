/**
 * The flusher against a storage account that fails one request in five (500, 503, connection
 * resets before and after storage applied the request), through the fault proxy: every accepted
 * entry still ends up stored exactly once.
 */
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { drainAndFlush } from '../../../src/logs/flush/logDrain';
import { TagLedgers } from '../../../src/logs/flush/tagLedger';
import { testClients } from '../../support/storage';
import {
  blobLimits,
  entriesFrom,
  ingest,
  logRig,
  messageCounts,
  queueLength,
  readAll,
  sleep,
} from './logKit';

let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(async () => {
  await proxy.stop();
});

test('two flushers on a faulty connection store every entry exactly once', async () => {
  const rig = await logRig();
  const batches = 40;
  for (let b = 0; b < batches; b++) {
    await ingest(
      rig,
      'web',
      entriesFrom(`f${b}`, `2026-11-22T15:${String(b).padStart(2, '0')}:30Z`, 10, 'Warning', 3000),
    );
  }
  const faulty = testClients(proxy.connectionString);
  const container = faulty.container(rig.container.containerName);
  const queue = faulty.queue(rig.queue.name);
  const limits = blobLimits({ LOG_BLOB_MAX_BLOCKS: '4' });
  proxy.setFaults({
    rate: 0.2,
    kinds: ['500', '503', 'reset', 'reset-after'],
    services: ['blob', 'queue'],
    seed: 20261122,
  });

  // Each flush that loses to a fault leaves its messages invisible for 17 s; on a loaded machine
  // a message can need several such rounds, so the bound is generous (it normally takes seconds).
  const deadline = Date.now() + 110_000;
  const flusher = async (): Promise<void> => {
    // Each flusher is a process of its own, with what it learns of the tag ledgers.
    const ledgers = new TagLedgers();
    while (Date.now() < deadline) {
      try {
        // A short visibility brings back messages whose receive answer was lost to a reset.
        await drainAndFlush({
          container,
          queue,
          limits,
          maxMessages: 6,
          maxFlushes: 3,
          visibilitySeconds: 17,
          ledgers,
        });
      } catch {
        // A receive that failed past the SDK's retries: the messages come back; try again.
      }
      if ((await queueLength(rig.queue)) === 0) return;
      await sleep(200);
    }
  };
  await Promise.all([flusher(), flusher()]);
  proxy.setFaults(null);

  expect(proxy.counts().faultsInjected).toBeGreaterThan(10);
  expect(await queueLength(rig.queue)).toBe(0);
  const blobs = await readAll(rig.container);
  const counts = messageCounts(blobs);
  expect(counts.size).toBe(batches * 10);
  expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
  for (const blob of blobs) expect(blob.blocks).toBeLessThanOrEqual(4);
});
