/**
 * The asynchronous indexes (docs/queues.md): the index tables and last-name store, the process's
 * drains of the departments' outboxes, and the `index-updates` sink every directory of the process
 * publishes its changes to. With data accounts the stores read through the account layer and a
 * drain's lease names the account holding its department.
 */
import type { PhotoDependencies } from '../../../src/photos/photos';
import { removePhotosOfGoneEmployee } from '../../../src/photos/photos';
import {
  type ChangeQueue,
  configuredChangeQueue,
  configuredIndexStores,
  type IndexStores,
  markPending,
  SharedDrains,
  writerDrains,
} from '../../../src/indexing';
import { lazy, nudgeFailed, type Foundation } from './foundation';

/** The indexes as the adapters and the other builders use them. */
export interface IndexingServices {
  /** The `index-updates` queue every directory of this process publishes its changes to. */
  changeQueue(): ChangeQueue;
  /** The index tables and the configured org-wide last-name store. */
  indexStores(): IndexStores;
  /**
   * The process's drains of the index outboxes (queue worker, sweep, and the writer's drains
   * defer to them), which remove the photos of employees they find gone.
   */
  indexDrains(): SharedDrains;
}

/**
 * Builds the indexes over the foundation.
 *
 * @param photosFor - the photo feature of a department (the drains remove gone employees' photos).
 */
export function indexingServices(
  base: Foundation,
  photosFor: (department: string) => Promise<PhotoDependencies>,
): IndexingServices {
  const { config, clients } = base;
  const indexStores = lazy((): IndexStores => {
    const stores = { ...configuredIndexStores(config(), clients()), metrics: base.metrics() };
    const spread = base.accounts();
    if (!spread) return stores;
    const { tables } = config();
    return {
      ...stores,
      employees: spread.table(tables.employees),
      index: spread.table(tables.employeeIndex),
      lastNames: spread.lastNames(),
      holderOf: async (department, fresh) => {
        const placed = await spread.placement.ofDepartment(department, { fresh });
        return `${placed.account}@${placed.version}`;
      },
    };
  });
  // One set of drains per process: the queue worker's nudges, the sweep and the writer's drains
  // share a department's running drain. Gone employees lose their photos (src/photos).
  const indexDrains = lazy(
    () =>
      new SharedDrains(indexStores(), {
        onGone: async (department, employeeId) => {
          await removePhotosOfGoneEmployee(await photosFor(department), department, employeeId);
        },
      }),
  );
  // One sink per process: it packs the nudges of concurrent writes into shared messages. The
  // writing process drains its departments' outboxes itself after the nudge's linger; the queue
  // nudge is the fallback (src/indexing/drain/writerDrain.ts).
  const changeQueue = lazy(() =>
    configuredChangeQueue(config(), clients(), nudgeFailed, writerDrains(indexDrains()), (dept) =>
      markPending(indexStores().employees, dept, 'cover-failed'),
    ),
  );
  return { indexStores, indexDrains, changeQueue };
}
