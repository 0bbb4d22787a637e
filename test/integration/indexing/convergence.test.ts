/**
 * Convergence under storage faults: a seeded random workload of 300 directory operations (create,
 * patch with renames and email changes, delete, archive, import) runs through a proxy that breaks
 * 10% of requests (503, 500, connection resets). After the queue drains and the outbox sweep has
 * run (for nudges lost to faults after their commit), no outbox row is left, and `EmployeeIndex`
 * and the last-name index equal a recomputation from the primary entities: nothing missing,
 * nothing stale.
 */
import { odata } from '@azure/data-tables';
import { archiveEmployee } from '../../../src/archive/archiveEmployee';
import { loadConfig } from '../../../src/config';
import { handleIndexUpdateMessage } from '../../../src/indexing/queue/indexUpdates';
import { sweepOutboxes } from '../../../src/indexing/drain/outboxSweep';
import { totalOf } from '../../../src/orchestrations/audit/auditCounts';
import { createStorageClients } from '../../../src/storage/clients';
import { outboxRowKeyRange } from '../../../src/storage/keys/tables/outbox';
import { decodeQueueMessage } from '../../../src/storage/queue';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { auditIndexesInProcess, auditServicesFor, driftOf } from '../../support/indexAudit';
import { createIndexingFixture } from './fixture';

/** Small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// 300 operations over 24 ids and 36 emails per department: as many operations per employee and
// as many email collisions as 500 over 40 and 60, in 60% of the requests (each costs a few).
const OPERATIONS = 300;
const IDS = 24;
const EMAILS = 36;

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(() => proxy.stop());

describe.each(['entity', 'blob'] as const)('last-name mode %s', (mode) => {
  it(`converges after ${OPERATIONS} operations with 10% faults`, async () => {
    const config = loadConfig({ ...process.env, AzureWebJobsStorage: proxy.connectionString });
    // The faults are answers and resets, never silence, so the per-try deadline stays at its
    // default: a short one gave up on a busy emulator's slow answers (a loaded run lost this way).
    const clients = createStorageClients(config.storage, {
      ...config.retry,
      maxRetries: 8,
      retryDelayMs: 5,
      maxRetryDelayMs: 50,
    });
    const fx = createIndexingFixture({ mode, clients });
    const next = random(mode === 'entity' ? 42 : 4242);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const departments = ['Sales', 'R and D'];
    const lastNames = ['Jones', 'Smith', 'Ström', "O'Neil", 'jones'];
    const archiveDeps = {
      employees: fx.stores.employees,
      archive: clients.table(fx.names.archive),
      directory: fx.directory.employees,
    };
    try {
      for (const d of departments) await fx.directory.departments.put(d, {});
      proxy.setFaults({ rate: 0.1, kinds: ['503', '500', 'reset'], seed: 7 });
      const queue = clients.queue(fx.names.queue);
      let failures = 0;
      for (let op = 0; op < OPERATIONS; op++) {
        const dept = pick(departments);
        const id = String(Math.floor(next() * IDS)).padStart(6, '0');
        const roll = next();
        try {
          if (roll < 0.3) {
            await fx.directory.employees.create(dept, {
              employeeId: id,
              firstName: `F${op}`,
              lastName: pick(lastNames),
              email: `e${Math.floor(next() * EMAILS)}@contoso.com`,
            });
          } else if (roll < 0.6) {
            await fx.directory.employees.patch(dept, id, {
              ...(next() < 0.5 ? { lastName: pick(lastNames) } : {}),
              ...(next() < 0.5 ? { email: `e${Math.floor(next() * EMAILS)}@contoso.com` } : {}),
              firstName: `P${op}`,
            });
          } else if (roll < 0.75) {
            await fx.directory.employees.delete(dept, id);
          } else if (roll < 0.85) {
            await archiveEmployee(archiveDeps, dept, id);
          } else {
            const base = Math.floor(next() * IDS);
            await fx.directory.employees.import(
              dept,
              [0, 1, 2].map((k) => ({
                employeeId: String((base + k) % IDS).padStart(6, '0'),
                firstName: `I${op}`,
                lastName: pick(lastNames),
                email: `i${op}-${k}@contoso.com`,
              })),
            );
          }
        } catch {
          failures++; // not found, conflicts, or faults past the retries: part of the workload
        }
        // Work the queue now and then, as the trigger would, under the same faults.
        if (op % 25 === 0) await drainOnce(queue, fx.drains, 1);
      }
      // Drain under faults until the queue stays empty.
      for (let round = 0; round < 200; round++) {
        const handled = await drainOnce(queue, fx.drains, 1);
        const props = await queue.getProperties().catch(() => undefined);
        if (handled === 0 && props?.approximateMessagesCount === 0) break;
        if (handled === 0) await new Promise((r) => setTimeout(r, 300));
      }
      // Writes whose nudge was lost to a fault after their commit left outbox rows behind: the
      // sweep drains them, under the same faults.
      for (let sweep = 0; sweep < 20; sweep++) {
        const swept = await sweepOutboxes(fx.drains).catch(() => undefined);
        if (swept && swept.failed.length === 0) break;
      }
      proxy.setFaults(null);
      for (const d of departments) {
        const range = outboxRowKeyRange();
        const left = fx.stores.employees.listEntities({
          queryOptions: {
            filter: odata`PartitionKey eq ${d} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
          },
        });
        for await (const row of left) throw new Error(`Outbox row left: ${row.rowKey}`);
      }
      const report = await auditIndexesInProcess(auditServicesFor(fx.stores));
      expect(totalOf(report).checked).toBeGreaterThan(10);
      expect(driftOf(report)).toEqual([]);
      expect(failures).toBeLessThan(OPERATIONS);
    } finally {
      proxy.setFaults(null);
      await fx.cleanup();
    }
  }, 240_000);
});

/** One pass over the visible messages; a failed message becomes visible again after 1 s. */
async function drainOnce(
  queue: ReturnType<ReturnType<typeof createStorageClients>['queue']>,
  drains: Parameters<typeof handleIndexUpdateMessage>[0],
  visibilityTimeout: number,
): Promise<number> {
  let handled = 0;
  for (;;) {
    let items;
    try {
      items = (await queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout }))
        .receivedMessageItems;
    } catch {
      return handled;
    }
    if (items.length === 0) return handled;
    for (const item of items) {
      try {
        await handleIndexUpdateMessage(drains, decodeQueueMessage(item.messageText));
        await queue.deleteMessage(item.messageId, item.popReceipt);
        handled++;
      } catch {
        // Left on the queue: redelivered after the visibility timeout, like the host does.
      }
    }
  }
}
