/**
 * SIGTERM stops the host cleanly: no new messages are taken, a running handler may finish (its
 * message is then deleted), and a handler still running when the grace period ends has its
 * message released for redelivery. A message is never deleted unprocessed, and a crash
 * (SIGKILL) leaves it in the queue too.
 */
import { testClients } from '../../support/storage';
import { startHostApp } from './hostApp';
import { WAIT_MS } from '../../support/waits';

const clients = testClients();

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

async function messageCount(queueName: string): Promise<number> {
  return (await clients.queue(queueName).getProperties()).approximateMessagesCount ?? 0;
}

test('SIGTERM during a slow handler waits for it; the message is then deleted and the exit is clean', async () => {
  const app = await startHostApp({ HOSTAPP_SLOW_MS: '1500', HOST_SHUTDOWN_TIMEOUT_MS: '20000' });
  const queue = clients.queue(app.queues.slow);
  await queue.createIfNotExists();
  await queue.sendMessage(base64('finish me'));
  await app.waitForRecords((records) =>
    records.some((r) => r.fn === 'slowQueue' && r.event === 'started'),
  );

  await app.host.stop();

  expect(await app.host.exited()).toBe(0);
  expect(app.records('slowQueue').map((r) => r.event)).toEqual(['started', 'finished']);
  expect(await messageCount(app.queues.slow)).toBe(0);
});

test('SIGTERM with a handler outlasting the grace period releases its message for redelivery', async () => {
  const app = await startHostApp({ HOSTAPP_SLOW_MS: '10000', HOST_SHUTDOWN_TIMEOUT_MS: '300' });
  const queue = clients.queue(app.queues.slow);
  await queue.createIfNotExists();
  const { messageId } = await queue.sendMessage(base64('do not lose me'));
  await app.waitForRecords((records) =>
    records.some((r) => r.fn === 'slowQueue' && r.event === 'started'),
  );

  await app.host.stop();

  expect(app.records('slowQueue').map((r) => r.event)).toEqual(['started']);
  expect(app.host.output()).toMatch(/released for redelivery/);
  // Visible again after host.json visibilityTimeout (1 s), with the same content.
  const deadline = Date.now() + WAIT_MS;
  let received;
  while (!received && Date.now() < deadline) {
    received = (await queue.receiveMessages({ visibilityTimeout: 30 })).receivedMessageItems[0];
    if (!received) await new Promise((r) => setTimeout(r, 250));
  }
  expect(received).toMatchObject({
    messageId,
    messageText: base64('do not lose me'),
    dequeueCount: 2,
  });
});

test('a crash (SIGKILL) mid-handler leaves the message in the queue', async () => {
  const app = await startHostApp({ HOSTAPP_SLOW_MS: '10000' });
  const queue = clients.queue(app.queues.slow);
  await queue.createIfNotExists();
  await queue.sendMessage(base64('survive a crash'));
  await app.waitForRecords((records) =>
    records.some((r) => r.fn === 'slowQueue' && r.event === 'started'),
  );

  app.host.kill();
  await app.host.exited();

  // Invisible until its lease expires, but still there.
  expect(await messageCount(app.queues.slow)).toBe(1);
});
