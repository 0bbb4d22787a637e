/**
 * The asynchronous indexes' storage as the configuration describes it: the `index-updates` queue
 * (outbox nudges, with the configured delays) and the index stores (with the configured
 * last-name store and shard size). Every process part that writes or maintains the indexes — the
 * HTTP directory, the queue workers, the orchestrations — builds them here, so a setting cannot be
 * honoured by one and ignored by another.
 */
import type { Config } from '../config';
import type { StorageClients } from '../storage/clients';
import type { IndexStores } from './indexStores';
import { newDrainCache } from './drain/drainCache';
import { lastNameStoreFor } from './lastNames/storeForMode';
import {
  outboxNudgeSender,
  queueChangeSink,
  type ChangeQueue,
  type ChangeQueueOptions,
} from './queue/queueChangeSink';

/**
 * Builds the `index-updates` queue as a change sink from the configuration; `onNudgeError` hears
 * of nudges that could not be sent (writes do not wait for them).
 */
export type ConfiguredChangeQueue = (
  config: Config,
  clients: StorageClients,
  onNudgeError?: ChangeQueueOptions['onNudgeError'],
  drain?: ChangeQueueOptions['drain'],
  markUncovered?: ChangeQueueOptions['markUncovered'],
) => ChangeQueue;

/**
 * The `index-updates` queue as the directory's change sink: the directory records every change in
 * its index outbox, and a write returns only once a queue message that surfaces after its commit
 * is stored (its cover, src/indexing/queue/queueChangeSink.ts), so no change waits on the writing
 * process once it answered. With `drain` (src/indexing/drain/writerDrain.ts: `writerDrains`) and
 * `INDEX_DRAIN_LINGER_MS` > 0, the writing process also drains the department itself after that
 * linger, and the cover, invisible for a few seconds longer, costs one outbox read when it
 * surfaces; a process that died first leaves the rows to it. A cover that cannot be stored is
 * stood in for by that drain, which the writes then wait for. With `INDEX_DRAIN_LINGER_MS=0` the
 * writer does not drain: each write still waits for its delayed cover, and a nudge visible at
 * once (concurrent writes share one, after a 100 ms linger; the write does not wait for it) brings
 * a queue worker — for a host that serves the API without drains of its own, or for the lowest
 * lag when every instance runs the index worker; a cover that cannot be stored is only reported
 * then (the sweep drains its rows). With `INDEX_NUDGE_DELAY_SECONDS` > 0 the cover is that delayed
 * nudge, one per department and delay, and the writer does not drain. `markUncovered` records a
 * department whose cover could not be stored (the pending-work marker the sweep reads).
 */
export const configuredChangeQueue: ConfiguredChangeQueue = (
  config,
  clients,
  onNudgeError,
  drain,
  markUncovered,
) =>
  outboxNudges(config, clients, {
    nudgeDelaySeconds: config.directory.indexNudgeDelaySeconds,
    onNudgeError,
    markUncovered,
    ...(config.directory.indexDrainLingerMs > 0
      ? { drain, drainLingerMs: config.directory.indexDrainLingerMs }
      : {}),
  });

/**
 * The `index-updates` queue for queue-driven writers (the archive worker): as
 * {@link configuredChangeQueue}, but a nudge waits at least a second and is the writes' cover, so
 * a process sends at most one per department and second however many employees it archives, and
 * an invocation returns once the nudge standing for its change is stored (the message is deleted
 * after that: a process that stops then strands nothing) and fails when it cannot be stored (the
 * message comes back, and its replay publishes the change again). Nobody waits on those index
 * changes (the caller got its 202 long before), and the outbox rows carry them in any case.
 */
export const configuredBackgroundChangeQueue: ConfiguredChangeQueue = (
  config,
  clients,
  onNudgeError,
) =>
  outboxNudges(config, clients, {
    nudgeDelaySeconds: Math.max(1, config.directory.indexNudgeDelaySeconds),
    onNudgeError,
    // No cover, no answer: the message comes back, and its replay publishes again.
    failWithoutCover: true,
  });

/** The `index-updates` queue as a sink of outbox nudges. */
function outboxNudges(
  config: Config,
  clients: StorageClients,
  options: ChangeQueueOptions,
): ChangeQueue {
  return queueChangeSink(clients.queue(config.queues.indexUpdates), options);
}

/**
 * The `Employees` and `EmployeeIndex` tables and the org-wide last-name store of
 * `LASTNAME_INDEX_MODE` (entity shards of at most `LASTNAME_INDEX_SHARD_CHARS`); drains continue
 * (and absorbed nudges outlive a dead lease holder) through nudges on `index-updates`.
 */
export function configuredIndexStores(config: Config, clients: StorageClients): IndexStores {
  const index = clients.table(config.tables.employeeIndex);
  return {
    nudge: outboxNudgeSender(clients.queue(config.queues.indexUpdates)),
    employees: clients.table(config.tables.employees),
    index,
    lastNames: lastNameStoreFor(
      config.directory.lastNameIndexMode,
      index,
      clients.container(config.containers.lastNameIndex),
      { maxShardChars: config.directory.lastNameShardChars },
    ),
    drainCache: newDrainCache(),
  };
}
