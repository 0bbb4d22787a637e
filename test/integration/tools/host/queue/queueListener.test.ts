/**
 * The local host's queue listener polls as the Functions host's does (WebJobs `QueueListener`):
 * a poll that found messages is followed by the next one as soon as the messages in flight drop
 * to `newBatchThreshold`, with no polling delay in between; only a poll that finds the queue
 * empty waits, the minimum delay first. Against a real Azurite queue; the delays between polls
 * are recorded through the listener's `sleep` seam instead of being timed.
 */
import type { QueueOptions } from '../../../../../tools/host/config/hostJson';
import type { Invoker } from '../../../../../tools/host/core/invoke';
import { describeFunction } from '../../../../../tools/host/functions';
import { createLogger } from '../../../../../tools/host/log';
import { MIN_POLLING_DELAY_MS } from '../../../../../tools/host/queue/backoff';
import { QueueListener } from '../../../../../tools/host/queue/queueListener';
import { FunctionRunner } from '../../../../../tools/host/runner';
import { poisonQueueName } from '../../../../../src/storage/keys/queues';
import { testClients, uniqueName } from '../../../../support/storage';

const clients = testClients();

const fn = describeFunction({
  metadata: {
    name: 'jobs',
    bindings: { message: { type: 'queueTrigger', direction: 'in', queueName: 'jobs' } },
  },
  callback: () => undefined,
});

const options: QueueOptions = {
  maxPollingIntervalMs: 2_000,
  visibilityTimeoutMs: 5_000,
  batchSize: 2,
  newBatchThreshold: 1,
  maxDequeueCount: 5,
  messageEncoding: 'none',
};

test('after polls that found messages the listener polls again at once; the first empty poll waits the minimum delay', async () => {
  const queue = clients.queue(uniqueName('listener'));
  await queue.create();
  const texts = Array.from({ length: 6 }, (_, i) => `job-${i}`);
  for (const text of texts) await queue.sendMessage(text);

  const handled: string[] = [];
  const invoker: Invoker = {
    invoke: async (_fn, request) => {
      handled.push(String(request.inputData?.[0]?.data?.string));
      return {};
    },
  };
  /** Each polling delay the listener asked for, with the messages handed to the function by then. */
  const delays: { ms: number; handled: number }[] = [];
  let secondDelay!: () => void;
  const twoDelays = new Promise<void>((resolve) => (secondDelay = resolve));
  const listener = new QueueListener({
    fn,
    queue,
    poisonQueue: clients.queue(poisonQueueName(queue.name)),
    options,
    runner: new FunctionRunner(invoker, [], []),
    logger: createLogger({ level: 'none' }),
    sleep: async (ms) => {
      delays.push({ ms, handled: handled.length });
      if (delays.length === 2) secondDelay();
    },
  });
  listener.start();
  await twoDelays;
  await listener.stop(5_000);

  // Three polls of two messages, then one that found the queue empty: only that one waited.
  expect(delays[0]).toEqual({ ms: MIN_POLLING_DELAY_MS, handled: texts.length });
  // Still empty: the delay grows from there.
  expect(delays[1]!.ms).toBeGreaterThan(MIN_POLLING_DELAY_MS);
  expect([...handled].sort()).toEqual(texts);
  expect((await queue.getProperties()).approximateMessagesCount).toBe(0);
  await queue.delete();
});
