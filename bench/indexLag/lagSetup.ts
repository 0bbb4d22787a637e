/**
 * One load of the index-lag case (bench/cases/indexing.ts) on fresh tables and a fresh queue:
 * the index stores, drains and workers of one worker process, the writers' change sink wired as
 * functions/shared/services.ts wires it, and two directories — one with the sink (measured), one
 * without (the baseline) — with the load's departments created in both.
 */
import type { QueueClient } from '@azure/storage-queue';
import type { TableClient } from '@azure/data-tables';
import { loadConfig } from '../../src/config';
import { createDirectory } from '../../src/directory';
import { newDrainCache } from '../../src/indexing/drain/drainCache';
import { SharedDrains } from '../../src/indexing/drain/sharedDrains';
import { drainAfterWrite, writerDrains } from '../../src/indexing/drain/writerDrain';
import type { IndexStores } from '../../src/indexing/indexStores';
import { lastNameStoreFor } from '../../src/indexing/lastNames/storeForMode';
import { outboxNudgeSender, queueChangeSink } from '../../src/indexing/queue/queueChangeSink';
import { createStorageClients } from '../../src/storage/clients';
import { ensureQueue } from '../../src/storage/createOnce';
import type { GoalVerdict } from '../goals';
import { requestKindCounter, type RequestKinds } from '../requestKinds';
import type { BenchEnv, Measurement } from '../types';
import { departmentName, now } from './steadyWrites';
import { startWorkers, type Workers } from './workers';

export const IMPORT_DEPARTMENT = 'Imported';

/** One load of the index-lag case. */
export interface Load {
  writesPerSecond: number;
  writes: number;
  departments: number;
  /**
   * `writer`: the writing process drains its departments itself after the linger, the queue only
   * as the fallback (as deployed, src/indexing/drain/writerDrain.ts); `queue`: every nudge
   * through the queue and the leased drain (before).
   */
  drains: 'writer' | 'queue';
  /** Rows of one import call into another department, started with the writes. */
  importRows?: number;
  /** Measure the outbox sweep over the run's departments afterwards, all of them idle. */
  sweep?: boolean;
  /** The goal of this load, judged on what it measured (`achievedRate`: writes/s offered). */
  goal?: (measured: { pattern: Measurement; writes: number; achievedRate: number }) => GoalVerdict;
}

type Directory = ReturnType<typeof createDirectory>;

/** What one load runs against. */
export interface LagSetup {
  index: TableClient;
  /** The load's queue past the proxy: polled for emptiness without costing the pattern. */
  directQueue: QueueClient;
  kinds: { employees: RequestKinds; index: RequestKinds };
  drains: SharedDrains;
  workers: Workers;
  sink: ReturnType<typeof queueChangeSink>;
  /** With the queue sink (measured). */
  directory: Directory;
  /** Without any sink (the baseline). */
  plain: Directory;
}

/** Fresh tables, queue, workers and directories for `load`, its departments created. */
export async function setUpLag(env: BenchEnv, load: Load): Promise<LagSetup> {
  const names = {
    employees: env.uniqueName('IdxBenchEmp', { table: true }),
    index: env.uniqueName('IdxBenchIdx', { table: true }),
    raw: env.uniqueName('IdxBenchRaw', { table: true }),
    queue: env.uniqueName('idx-bench'),
    container: env.uniqueName('idx-bench-ln'),
  };
  const index = env.clients.table(names.index);
  const queue = env.clients.queue(names.queue);
  const employees = env.clients.table(names.employees);
  const stores: IndexStores = {
    employees,
    index,
    lastNames: lastNameStoreFor('entity', index, env.clients.container(names.container)),
    // One worker process, as configuredIndexStores builds it: it remembers what its drains wrote.
    drainCache: newDrainCache(),
    nudge: outboxNudgeSender(queue),
  };
  const kinds = { employees: requestKindCounter('employees'), index: requestKindCounter('index') };
  employees.pipeline.addPolicy(kinds.employees.policy);
  index.pipeline.addPolicy(kinds.index.policy);
  await ensureQueue(queue);
  await index.createTable();
  // Polled for emptiness past the proxy, so that waiting costs the pattern nothing.
  const directConfig = loadConfig({ AzureWebJobsStorage: env.directConnectionString });
  const directQueue = createStorageClients(directConfig.storage, directConfig.retry).queue(
    names.queue,
  );
  // The worker process's drains, as functions/shared/services.ts builds them once.
  const drains = new SharedDrains(stores);
  const workers = startWorkers(env, drains, names.queue);
  // Each writer round reads the outbox after it starts: it indexes every row committed before.
  // (A request made while one runs resolves only when the rounds it joined end, so rounds are
  // timed one by one.)
  const ownDrains = writerDrains(drains, async (drainStores, department, onGone, options) => {
    const invokedAt = now();
    const result = await drainAfterWrite(drainStores, department, onGone, options);
    // Handed over to the queue: the worker's drain is the one that indexes.
    if (result.outcome === 'drained') workers.record(department, invokedAt, now());
    return result;
  });
  // As functions/shared/services.ts wires it: the directory records each change in its index
  // outbox; after the commit and the linger the writing process drains (or, `queue`, nudges)
  // (INDEX_NUDGE_DELAY_SECONDS from this process's environment, default 0).
  const sink = queueChangeSink(queue, {
    nudgeDelaySeconds: loadConfig(process.env).directory.indexNudgeDelaySeconds,
    drain: load.drains === 'writer' ? ownDrains : undefined,
  });
  const directory = createDirectory({ employees, changes: sink });
  const plain = createDirectory({ employees: env.clients.table(names.raw) });
  for (let d = 0; d < load.departments; d++) {
    await directory.departments.put(departmentName(d), { description: 'Index lag benchmark' });
    await plain.departments.put(departmentName(d), { description: 'Index lag, no sink' });
  }
  if (load.importRows) {
    await directory.departments.put(IMPORT_DEPARTMENT, { description: 'Imported meanwhile' });
  }
  return { index, directQueue, kinds, drains, workers, sink, directory, plain };
}
