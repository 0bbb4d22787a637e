/**
 * A failed message is released for its next delivery even while storage throttles: the listener
 * tries the visibility update again (with back-off) when storage refuses it past the SDK's
 * retries, so the message comes back after `visibilityTimeout`, not after its whole lease.
 * Against Azurite behind the fault proxy, which refuses every queue request for a few seconds.
 */
import { startFaultProxy, type FaultProxy } from '../../../../../tools/faultProxy/faultProxy';
import type { QueueOptions } from '../../../../../tools/host/config/hostJson';
import type { Invoker } from '../../../../../tools/host/core/invoke';
import { describeFunction } from '../../../../../tools/host/functions';
import { createLogger } from '../../../../../tools/host/log';
import { QueueListener } from '../../../../../tools/host/queue/queueListener';
import { FunctionRunner } from '../../../../../tools/host/runner';
import { poisonQueueName } from '../../../../../src/storage/keys/queues';
import { testClients, uniqueName } from '../../../../support/storage';

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(async () => {
  await proxy?.stop();
});

const fn = describeFunction({
  metadata: {
    name: 'jobs',
    bindings: { message: { type: 'queueTrigger', direction: 'in', queueName: 'jobs' } },
  },
  callback: () => undefined,
});

const options: QueueOptions = {
  maxPollingIntervalMs: 1_000,
  visibilityTimeoutMs: 1_000,
  batchSize: 1,
  newBatchThreshold: 0,
  maxDequeueCount: 5,
  messageEncoding: 'none',
};

test('a failed message whose release storage refused comes back after visibilityTimeout', async () => {
  const clients = testClients(proxy.connectionString);
  const queue = clients.queue(uniqueName('release'));
  await queue.create();
  await queue.sendMessage('job');

  const deliveries: number[] = [];
  let redelivered!: () => void;
  const second = new Promise<void>((resolve) => (redelivered = resolve));
  const invoker: Invoker = {
    invoke: async () => {
      deliveries.push(Date.now());
      if (deliveries.length > 1) {
        redelivered();
        return {};
      }
      // Storage refuses every queue request (the release included) for three seconds.
      proxy.setFaults({ rate: 1, kinds: ['503'], services: ['queue'] });
      setTimeout(() => proxy.setFaults(null), 3_000);
      throw new RangeError('the first delivery fails');
    },
  };
  const listener = new QueueListener({
    fn,
    queue,
    poisonQueue: clients.queue(poisonQueueName(queue.name)),
    options,
    runner: new FunctionRunner(invoker, [], []),
    logger: createLogger({ level: 'none' }),
    // Without the release, the message would wait out this lease.
    leaseMs: 60_000,
  });
  listener.start();
  const timeout = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new RangeError('not delivered again within 20 s')), 20_000).unref();
  });
  try {
    await Promise.race([second, timeout]);
  } finally {
    proxy.setFaults(null);
    await listener.stop(5_000);
  }
  expect(deliveries).toHaveLength(2);
  expect(deliveries[1]! - deliveries[0]!).toBeLessThan(20_000);
  await testClients().queue(queue.name).delete();
}, 60_000);
