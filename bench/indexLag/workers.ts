/**
 * The index-lag case's in-process index-updates workers (bench/cases/indexing.ts): two pollers
 * run the queue trigger's own code (`handleIndexUpdateMessage`) on up to 16 messages each and
 * delete them, backing off from 100 ms to 2 s on an empty queue like the host's queue listener.
 * They run in the case's process, not through the host, so each department's drain times are
 * known exactly without polling the index. Also here: waiting for the queue to empty, and the
 * outbox sweep's cost over idle departments, counted as the writes' requests are.
 */
import type { QueueClient } from '@azure/storage-queue';
import type { SharedDrains } from '../../src/indexing/drain/sharedDrains';
import { sweepOutboxes } from '../../src/indexing/drain/outboxSweep';
import { parseIndexQueueMessage } from '../../src/indexing/queue/indexMessages';
import { handleIndexUpdateMessage } from '../../src/indexing/queue/indexUpdates';
import { coverDelayFor, DEFAULT_DRAIN_LINGER_MS } from '../../src/indexing/queue/queueChangeSink';
import { mapBounded } from '../../src/storage/parallel';
import { decodeQueueMessage } from '../../src/storage/queue';
import type { RequestKinds } from '../requestKinds';
import type { BenchEnv } from '../types';
import { now, sleep } from './steadyWrites';

export const POLLERS = 2;
const BATCH_SIZE = 16;

/** One handled outbox nudge: its drain of `department` started after `invokedAt`. */
interface HandledNudge {
  department: string;
  invokedAt: number;
  doneAt: number;
}

/** The workers {@link startWorkers} starts. */
export interface Workers {
  indexedAt(department: string, committedAt: number): number | undefined;
  /**
   * Records a drain of `department` run elsewhere (a writer's own) that read its outbox after
   * `invokedAt`.
   */
  record(department: string, invokedAt: number, doneAt: number): void;
  failures(): number;
  stop(): Promise<void>;
}

/**
 * In-process index-updates workers. A nudge's handler returns after a drain of its department
 * that started after the handler was called, and a drain takes every outbox row committed before
 * it started: an employee committed at `t` is indexed at the latest when the first handler of
 * its department called after `t` returns (`indexedAt`).
 */
export function startWorkers(env: BenchEnv, drains: SharedDrains, queueName: string): Workers {
  const queue = env.clients.queue(queueName);
  const handled = new Map<string, HandledNudge[]>();
  const record = (department: string, invokedAt: number, doneAt: number): void => {
    handled.set(department, [
      ...(handled.get(department) ?? []),
      { department, invokedAt, doneAt },
    ]);
  };
  const state = { running: true, failures: 0 };
  const pollers = Array.from({ length: POLLERS }, () => poll(queue, drains, state, record));
  const stop = async (): Promise<void> => {
    state.running = false;
    await Promise.all(pollers);
  };
  env.defer(stop);
  return {
    record,
    indexedAt: (department, committedAt) => {
      const after = (handled.get(department) ?? []).filter((h) => h.invokedAt >= committedAt);
      return after.length === 0 ? undefined : Math.min(...after.map((h) => h.doneAt));
    },
    failures: () => state.failures,
    stop,
  };
}

/** One poller: receives, handles and deletes until stopped, backing off on an empty queue. */
async function poll(
  queue: QueueClient,
  drains: SharedDrains,
  state: { running: boolean; failures: number },
  record: Workers['record'],
): Promise<void> {
  let idleDelay = 100;
  while (state.running) {
    let receivedMessageItems;
    try {
      ({ receivedMessageItems } = await queue.receiveMessages({
        numberOfMessages: BATCH_SIZE,
        visibilityTimeout: 30,
      }));
    } catch {
      state.failures++;
      await sleep(idleDelay);
      continue;
    }
    if (receivedMessageItems.length === 0) {
      await sleep(idleDelay);
      idleDelay = Math.min(2000, idleDelay * 2);
      continue;
    }
    idleDelay = 100;
    await mapBounded(receivedMessageItems, BATCH_SIZE, async (item) => {
      const payload = decodeQueueMessage(item.messageText);
      const invokedAt = now();
      try {
        await handleIndexUpdateMessage(drains, payload);
      } catch {
        // As the host does: the message reappears after its visibility timeout.
        state.failures++;
        return;
      }
      const doneAt = now();
      const message = parseIndexQueueMessage(payload);
      const departments = message.v === 2 ? message.departments : [];
      for (const department of departments) record(department, invokedAt, doneAt);
      await queue.deleteMessage(item.messageId, item.popReceipt).catch(() => {
        state.failures++; // redelivered later; reconciling again is harmless
      });
    });
  }
}

/**
 * Waits until the queue holds no message, visible or not (the writers' delayed covers surface
 * after {@link coverDelayFor}, and the workers handle them).
 */
export async function queueEmpty(queue: QueueClient): Promise<void> {
  const deadline = now() + (coverDelayFor(DEFAULT_DRAIN_LINGER_MS) + 60) * 1000;
  while (((await queue.getProperties()).approximateMessagesCount ?? 0) > 0) {
    if (now() > deadline) throw new Error('The index-updates queue did not empty.');
    await sleep(250);
  }
}

/**
 * Storage requests of the outbox sweep over idle departments, counted as the case counts the
 * writes' (the table clients' request kinds): the first sweep of fresh tables, which also runs the
 * hourly discovery (a scan across partitions, and the checkpoint's write), then the next one.
 */
export async function idleSweepCost(
  drains: SharedDrains,
  kinds: { employees: RequestKinds; index: RequestKinds },
): Promise<{ first: number; then: number }> {
  const counted = (): number =>
    [...kinds.employees.counts.values(), ...kinds.index.counts.values()].reduce(
      (sum, n) => sum + n,
      0,
    );
  const sweepOnce = async (at: number): Promise<number> => {
    kinds.employees.reset();
    kinds.index.reset();
    const report = await sweepOutboxes(drains, { now: () => at });
    // Idle departments hold no marker and no outbox row, so the sweep drains none of them.
    if (report.rows > 0 || report.failed.length > 0 || report.departments !== 0) {
      throw new Error(`The sweep found work after the run: ${JSON.stringify(report)}`);
    }
    return counted();
  };
  const first = await sweepOnce(Date.now());
  return { first, then: await sweepOnce(Date.now() + 5 * 60_000) };
}
