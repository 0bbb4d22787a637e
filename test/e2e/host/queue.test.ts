/**
 * Storage queue triggers on the local host behave as on Azure: base64 messages decoded, trigger
 * metadata passed, a failed message redelivered after `visibilityTimeout`, moved to
 * `<queue>-poison` after `maxDequeueCount` failed attempts, deleted only after success.
 */
import type { QueueClient } from '@azure/storage-queue';
import { poisonQueueName } from '../../../src/storage/keys/queues';
import { testClients } from '../../support/storage';
import { startHostApp, type HostApp } from './hostApp';
import { WAIT_MS } from '../../support/waits';

let app: HostApp;
const clients = testClients();

beforeAll(async () => {
  app = await startHostApp({ HOSTAPP_SLOW_MS: '400' });
});

afterAll(async () => {
  await app?.host.stop();
});

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

async function send(queueName: string, text: string): Promise<string> {
  const queue = clients.queue(queueName);
  await queue.createIfNotExists();
  return (await queue.sendMessage(text)).messageId;
}

/** Messages in the queue, visible or not. */
async function messageCount(queue: QueueClient): Promise<number> {
  return (await queue.getProperties()).approximateMessagesCount ?? 0;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms.`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('a message whose handler always throws is tried maxDequeueCount (5) times, then moved to <queue>-poison', async () => {
  const text = base64(JSON.stringify({ job: 'doomed' }));
  const id = await send(app.queues.alwaysFail, text);

  const attempts = await app.waitForRecords(
    (records) => records.filter((r) => r.fn === 'alwaysFail' && r.id === id).length >= 5,
  );
  const poison = clients.queue(poisonQueueName(app.queues.alwaysFail));
  const moved = await waitFor(async () => {
    if (!(await poison.exists())) return undefined;
    const peeked = await poison.peekMessages({ numberOfMessages: 32 });
    return peeked.peekedMessageItems.length > 0 ? peeked.peekedMessageItems : undefined;
  });

  const mine = attempts.filter((r) => r.fn === 'alwaysFail' && r.id === id);
  expect(mine.map((r) => r.dequeueCount)).toEqual([1, 2, 3, 4, 5]);
  expect(typeof mine[0]!.insertionTime).toBe('string');
  expect(moved.map((m) => m.messageText)).toEqual([text]);
  expect(await messageCount(clients.queue(app.queues.alwaysFail))).toBe(0);
  await app.host.waitForOutput(
    /Message has reached MaxDequeueCount of 5\. Moving message to queue/,
  );

  // No sixth attempt: the message is gone from the trigger's queue.
  await new Promise((r) => setTimeout(r, 1_500));
  expect(app.records('alwaysFail').filter((r) => r.id === id)).toHaveLength(5);
});

test('a handler that fails once succeeds on the second delivery, and the message is deleted', async () => {
  const id = await send(app.queues.failOnce, base64('retry me'));

  const records = await app.waitForRecords(
    (all) => all.filter((r) => r.fn === 'failOnce' && r.id === id).length >= 2,
  );
  const mine = records.filter((r) => r.fn === 'failOnce' && r.id === id);
  expect(mine.map((r) => r.dequeueCount)).toEqual([1, 2]);
  expect(mine[1]!.message).toBe('retry me');
  // host.json visibilityTimeout is one second: the retry cannot come sooner.
  expect((mine[1]!.at as number) - (mine[0]!.at as number)).toBeGreaterThanOrEqual(900);

  await waitFor(async () =>
    (await messageCount(clients.queue(app.queues.failOnce))) === 0 ? true : undefined,
  );
  expect(await clients.queue(poisonQueueName(app.queues.failOnce)).exists()).toBe(false);
});

test('base64 messages are decoded: JSON arrives as an object (its properties in the metadata), plain text as a string', async () => {
  await send(
    app.queues.echo,
    base64(JSON.stringify({ employeeId: '000223', name: 'Jörg "J" O\'Neil' })),
  );
  await send(app.queues.echo, base64('plain text, not JSON'));

  const records = await app.waitForRecords(
    (all) => all.filter((r) => r.fn === 'echoQueue').length >= 2,
  );
  const received = records.filter((r) => r.fn === 'echoQueue');
  expect(received).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        type: 'object',
        message: { employeeId: '000223', name: 'Jörg "J" O\'Neil' },
      }),
      expect.objectContaining({ type: 'string', message: 'plain text, not JSON' }),
    ]),
  );
  const keysOf = (type: string) => received.find((r) => r.type === type)!.metadataKeys;
  const hostKeys = [
    'dequeueCount',
    'expirationTime',
    'id',
    'insertionTime',
    'nextVisibleTime',
    'popReceipt',
    'queueTrigger',
    'sys',
  ];
  expect(keysOf('string')).toEqual(hostKeys);
  // As Azure's binding data: a JSON object's top-level properties join the host's names.
  expect(keysOf('object')).toEqual([...hostKeys, 'employeeId', 'name'].sort());
});

test('a message that is not base64 goes straight to the poison queue without running the function', async () => {
  const before = app.records('echoQueue').length;
  await send(app.queues.echo, 'not base64 at all!');
  const poison = clients.queue(poisonQueueName(app.queues.echo));
  const moved = await waitFor(async () => {
    if (!(await poison.exists())) return undefined;
    const peeked = await poison.peekMessages();
    return peeked.peekedMessageItems[0];
  });
  expect(moved.messageText).toBe('not base64 at all!');
  expect(app.records('echoQueue')).toHaveLength(before);
  expect(app.host.output()).toMatch(/Message decoding has failed/);
});

test('the admin endpoint runs a queue function once with the input as the message', async () => {
  const response = await fetch(`${app.host.origin}/admin/functions/echoQueue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input: JSON.stringify({ via: 'admin' }) }),
  });
  expect(response.status).toBe(202);
  const records = await app.waitForRecords((all) =>
    all.some((r) => r.fn === 'echoQueue' && (r.message as { via?: string })?.via === 'admin'),
  );
  expect(records.find((r) => (r.message as { via?: string })?.via === 'admin')).toMatchObject({
    type: 'object',
    dequeueCount: 1,
  });
});

test('a queue output binding enqueues the returned messages, base64-encoded, one per array item', async () => {
  await send(app.queues.forwardIn, base64('hello'));
  const out = clients.queue(app.queues.forwardOut);
  const messages = await waitFor(async () => {
    if (!(await out.exists())) return undefined;
    const peeked = await out.peekMessages({ numberOfMessages: 32 });
    return peeked.peekedMessageItems.length >= 2 ? peeked.peekedMessageItems : undefined;
  });
  const decoded = messages.map((m) => Buffer.from(m.messageText, 'base64').toString('utf8'));
  expect(decoded).toEqual([JSON.stringify({ forwarded: 'hello' }), 'second']);
});

test('batchSize (4) and newBatchThreshold (2) bound how many messages run at once', async () => {
  const queue = clients.queue(app.queues.slow);
  await queue.createIfNotExists();
  const texts = Array.from({ length: 12 }, (_, i) => `job-${i}`);
  for (const text of texts) await queue.sendMessage(base64(text));

  const records = await app.waitForRecords(
    (all) =>
      all.filter((r) => r.fn === 'slowQueue' && r.event === 'finished').length === texts.length,
  );
  // Replay starts and finishes in time order to find the largest overlap.
  const events = records
    .filter((r) => r.fn === 'slowQueue')
    .map((r) => ({ at: r.at as number, delta: r.event === 'started' ? 1 : -1 }))
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  let running = 0;
  let peak = 0;
  for (const event of events) {
    running += event.delta;
    peak = Math.max(peak, running);
  }
  // One batch of 4 is taken at once; another is fetched only when at most 2 are running.
  expect(peak).toBeGreaterThanOrEqual(4);
  expect(peak).toBeLessThanOrEqual(6);
  await waitFor(async () => ((await messageCount(queue)) === 0 ? true : undefined));
});
