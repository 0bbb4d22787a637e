/**
 * The writing process drains its department's outbox itself, after the drain linger, instead of
 * sending the nudge through the `index-updates` queue (queue/queueChangeSink.ts): a queue message
 * costs a send, a receive and a delete, and a queue drain a lease acquire and release, for what
 * is — with writes spread over departments — mostly one outbox row a round. It runs **one bounded
 * round without the drain lease** ({@link WRITER_DRAIN_CHANGES} changes at most) and hands over
 * to the queue (`IndexStores.nudge`) whenever it cannot finish alone: more than one round, a lost
 * round, or a storage failure. Correctness does not rest on the lease: the writer's round is a
 * round like any other, so it may run beside a leased drain; at worst one of them loses its round.
 *
 * Why: docs/queues.md "Transactional outbox" ("The writer drains; the queue is the fallback").
 */
import { ThrottledError } from '../../domainErrors';
import type { EmployeeGoneHandler, IndexStores } from '../indexStores';
import type { LeasedDrainOptions, LeasedDrainResult } from './leasedDrain';
import { drainOutbox } from './outboxDrain';
import { noDrainResult, type DrainOptions } from './outboxDrainRounds';
import { SharedDrains } from './sharedDrains';

/**
 * Changes a writer's round takes at most: a round of an ordinary write, never an import's backlog.
 */
export const WRITER_DRAIN_CHANGES = 100;

/**
 * One round of `department`'s outbox in the writing process (see the file comment); when the
 * round lost or left rows behind, a nudge hands the rest to the queue worker (`'continued'`).
 *
 * @throws {DomainError} for storage faults (the caller sends the queue nudge instead); nothing is
 *   lost, the rows stay in the outbox.
 */
export async function drainAfterWrite(
  stores: IndexStores,
  department: string,
  onGone?: EmployeeGoneHandler,
  options: Pick<DrainOptions, 'afterStep'> & Pick<LeasedDrainOptions, 'onHandOver'> = {},
): Promise<LeasedDrainResult> {
  const { onHandOver, ...drainOptions } = options;
  const handOver = async (): Promise<void> => {
    if (!stores.nudge) return;
    onHandOver?.();
    await stores.nudge(department, 0);
  };
  try {
    const result = await drainOutbox(stores, department, {
      ...drainOptions,
      onGone,
      maxChangesPerRound: WRITER_DRAIN_CHANGES,
      maxLostRounds: 1,
      beforeRound: async () => false,
    });
    if (result.complete) return { ...result, outcome: 'drained' };
    await handOver();
    return { ...result, outcome: 'continued' };
  } catch (error) {
    if (!(error instanceof ThrottledError)) throw error;
    // Lost to another drainer: the queue worker, under the lease, takes it from here.
    await handOver();
    return { ...noDrainResult(), outcome: 'continued' };
  }
}

/**
 * A writing process's drains after its writes: one {@link drainAfterWrite} at a time per
 * department, later requests sharing the next one (SharedDrains) — or, while this process runs a
 * leased drain of the department (`leased`, the process's shared drains of its queue worker), a
 * request for one more of those instead of a rival round. Gone employees go to `leased`'s handler.
 */
export function writerDrains(
  leased: SharedDrains,
  drain: typeof drainAfterWrite = drainAfterWrite,
): (department: string) => Promise<LeasedDrainResult> {
  // `drain`: one round as above (benches wrap it to time each round).
  const own = new SharedDrains(leased.stores, {
    onGone: leased.onGone,
    drain: (drainStores, department, gone, onHandOver) =>
      drain(drainStores, department, gone, { onHandOver }),
  });
  return (department) =>
    leased.isRunning(department) ? leased.request(department) : own.request(department);
}
