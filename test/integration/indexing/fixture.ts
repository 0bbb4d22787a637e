/**
 * Asynchronous-index fixture: a directory whose change sink is a real `index-updates` queue, the
 * index stores on tables/containers of this test only, and a drain loop that runs the worker
 * in-process until the queue is empty.
 */
import type { TableClient } from '@azure/data-tables';
import type { LastNameIndexMode } from '../../../src/config';
import { createDirectory, type Directory } from '../../../src/directory/directory';
import type { IndexStores } from '../../../src/indexing/indexStores';
import { handleIndexUpdateMessage } from '../../../src/indexing/queue/indexUpdates';
import { SharedDrains } from '../../../src/indexing/drain/sharedDrains';
import type { DrainStep } from '../../../src/indexing/drain/outboxDrainRounds';
import { lastNameStoreFor } from '../../../src/indexing/lastNames/storeForMode';
import { outboxNudgeSender, queueChangeSink } from '../../../src/indexing/queue/queueChangeSink';
import { ensureQueue } from '../../../src/storage/createOnce';
import type { StorageClients } from '../../../src/storage/clients';
import { decodeQueueMessage } from '../../../src/storage/queue';
import { auditIndexesInProcess, auditServicesFor, driftOf } from '../../support/indexAudit';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

/** Index stores whose tables are the SDK's clients (one account: nothing routes). */
export type SdkIndexStores = IndexStores & { employees: TableClient; index: TableClient };

export interface IndexingFixture {
  clients: StorageClients;
  directory: Directory;
  /** Over this test's own SDK clients (tests hook their pipelines). */
  stores: SdkIndexStores;
  /** The worker process's shared drains of `stores`, as the composition root builds them. */
  drains: SharedDrains;
  names: { employees: string; index: string; archive: string; queue: string; container: string };
  /** Runs the worker on every message until the queue stays empty; returns messages handled. */
  drain(options?: { visibilityTimeout?: number }): Promise<number>;
  /** Runs the index audit (report only); returns the drifted indexes (empty when converged). */
  drift(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export function createIndexingFixture(
  options: {
    mode?: LastNameIndexMode;
    maxShardChars?: number;
    clients?: StorageClients;
  } = {},
): IndexingFixture {
  const clients = options.clients ?? testClients();
  const names = {
    employees: uniqueTableName('Emp'),
    index: uniqueTableName('Idx'),
    archive: uniqueTableName('Arc'),
    queue: uniqueName('idx'),
    container: uniqueName('ln'),
  };
  const index = clients.table(names.index);
  const queue = clients.queue(names.queue);
  const stores: SdkIndexStores = {
    employees: clients.table(names.employees),
    index,
    lastNames: lastNameStoreFor(
      options.mode ?? 'entity',
      index,
      clients.container(names.container),
      {
        maxShardChars: options.maxShardChars,
      },
    ),
    // As deployed: a drain out of budget continues through a nudge on the same queue.
    nudge: outboxNudgeSender(queue),
  };
  const sink = queueChangeSink(queue);
  const directory = createDirectory({ employees: stores.employees, changes: sink });
  const drains = new SharedDrains(stores);
  return {
    clients,
    directory,
    stores,
    drains,
    names,
    drain: async ({ visibilityTimeout = 30 } = {}) => {
      // Writes do not wait for their nudges: let those of the writes so far reach the queue.
      await sink.settled();
      await ensureQueue(queue);
      let handled = 0;
      for (;;) {
        const { receivedMessageItems } = await queue.receiveMessages({
          numberOfMessages: 32,
          visibilityTimeout,
        });
        if (receivedMessageItems.length === 0) return handled;
        for (const item of receivedMessageItems) {
          await handleIndexUpdateMessage(drains, decodeQueueMessage(item.messageText));
          await queue.deleteMessage(item.messageId, item.popReceipt);
          handled++;
        }
      }
    },
    drift: async () => driftOf(await auditIndexesInProcess(auditServicesFor(stores))),
    cleanup: async () => {
      await Promise.allSettled([
        clients.table(names.employees).deleteTable(),
        index.deleteTable(),
        clients.table(names.archive).deleteTable(),
        queue.delete(),
        clients.container(names.container).deleteIfExists(),
      ]);
    },
  };
}

/** The API body of test employee `n`: odd numbers are Joneses, even ones Smiths; `over` wins. */
export const employeeBody = (n: number, over: Record<string, unknown> = {}) => ({
  employeeId: String(n).padStart(6, '0'),
  firstName: `F${n}`,
  lastName: n % 2 ? 'Jones' : 'Smith',
  email: `u${n}@contoso.com`,
  ...over,
});

/**
 * A pause after one step of a drain's first round, released by the test (or never: a holder that
 * died). Pass `afterStep` to the drain; await `reached`, act, then `release()`.
 */
export function pauseAfter(step: DrainStep) {
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    reached: reachedPromise,
    release: () => release(),
    afterStep: async (at: DrainStep, round: number) => {
      if (at === step && round === 1) {
        reached();
        await released;
      }
    },
  };
}
