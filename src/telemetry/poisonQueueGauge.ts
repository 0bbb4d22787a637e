/**
 * Samples the poison queues' lengths for `directory.queue.poison.length`: one properties read per
 * queue, from a timer (the outbox sweep, every 5 minutes by default), never per request.
 */
import type { QueueClient } from '@azure/storage-queue';
import { unlessNotFound } from '../storage/storageFaults';
import { poisonQueueName } from '../storage/keys/queues';
import type { DirectoryMetrics } from './metrics';

/**
 * Reads the approximate length of each queue's `-poison` queue (0 when it does not exist: nothing
 * was ever poisoned) and records it in `metrics`.
 *
 * @throws {DomainError} when a queue's properties cannot be read (the other queues are recorded).
 */
export async function samplePoisonQueues(
  queue: (name: string) => QueueClient,
  queueNames: readonly string[],
  metrics: Pick<DirectoryMetrics, 'observePoisonQueue'>,
): Promise<void> {
  const results = await Promise.allSettled(
    queueNames.map(async (name) => {
      const poison = poisonQueueName(name);
      const properties = await unlessNotFound(() => queue(poison).getProperties());
      metrics.observePoisonQueue(poison, properties?.approximateMessagesCount ?? 0);
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
