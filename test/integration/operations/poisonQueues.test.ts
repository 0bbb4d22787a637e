/**
 * The poison replay routine (src/operations/poisonQueues.ts), behind both tools/replayPoison.ts
 * and the admin route: messages go back to their queue unchanged, sent before they are deleted;
 * `max` bounds the move, a dry run changes nothing; a replay run twice moves each message once,
 * and a crash between a message's send and its delete (a hook there) leaves a duplicate
 * delivery on the queue, never a loss.
 */
import {
  peekPoisonMessages,
  replayPoisonMessages,
  type ReplayedMessage,
} from '../../../src/operations/poisonQueues';
import { poisonQueueName } from '../../../src/storage/keys/queues';
import { decodeQueueMessage, sendJsonMessage } from '../../../src/storage/queue';
import { testClients, uniqueName } from '../../support/storage';

const clients = testClients();
const created: string[] = [];

afterAll(async () => {
  await Promise.allSettled(
    created.flatMap((name) => [
      clients.queue(name).delete(),
      clients.queue(poisonQueueName(name)).delete(),
    ]),
  );
});

async function poisonedQueue(count: number): Promise<{ name: string; ids: string[] }> {
  const name = uniqueName('replay');
  created.push(name);
  const poison = clients.queue(poisonQueueName(name));
  await poison.create();
  const ids: string[] = [];
  for (let n = 1; n <= count; n++) {
    ids.push(
      await sendJsonMessage(poison, {
        v: 1,
        department: 'Sales',
        employeeId: String(n).padStart(6, '0'),
      }),
    );
  }
  return { name, ids };
}

async function drain(queueName: string): Promise<unknown[]> {
  const queue = clients.queue(queueName);
  if (!(await queue.exists())) return [];
  const payloads: unknown[] = [];
  for (;;) {
    const { receivedMessageItems } = await queue.receiveMessages({ numberOfMessages: 32 });
    if (receivedMessageItems.length === 0) return payloads;
    for (const item of receivedMessageItems) {
      payloads.push(decodeQueueMessage(item.messageText));
      await queue.deleteMessage(item.messageId, item.popReceipt);
    }
  }
}

const employeeIds = (payloads: unknown[]): string[] =>
  payloads.map((p) => (p as { employeeId: string }).employeeId).sort();

const sixDigits = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => String(i + 1).padStart(6, '0')).sort();

describe('replayPoisonMessages', () => {
  it('moves every poison message back to its queue with the same text', async () => {
    const { name, ids } = await poisonedQueue(40); // more than one 32-message receive
    const seen: ReplayedMessage[] = [];
    const moved = await replayPoisonMessages(clients, name, { onMessage: (m) => seen.push(m) });

    expect(moved.map((m) => m.messageId).sort()).toEqual([...ids].sort());
    expect(seen).toHaveLength(40);
    expect(employeeIds(await drain(name))).toEqual(sixDigits(40));
    expect(await drain(poisonQueueName(name))).toEqual([]);
  });

  it('moves at most max messages and leaves the rest in the poison queue', async () => {
    const { name } = await poisonedQueue(5);
    const moved = await replayPoisonMessages(clients, name, { max: 2 });

    expect(moved).toHaveLength(2);
    expect(await drain(name)).toHaveLength(2);
    // The other three were never received, so they are still visible.
    const { peekedMessageItems } = await clients
      .queue(poisonQueueName(name))
      .peekMessages({ numberOfMessages: 32 });
    expect(peekedMessageItems).toHaveLength(3);
  });

  it('lists the messages on a dry run without moving or hiding them', async () => {
    const { name, ids } = await poisonedQueue(3);
    const listed = await replayPoisonMessages(clients, name, { dryRun: true });

    expect(listed.map((m) => m.messageId).sort()).toEqual([...ids].sort());
    expect(await clients.queue(name).exists()).toBe(false);
    expect(await drain(poisonQueueName(name))).toHaveLength(3);
  });

  it('does nothing when there is no poison queue, and refuses a poison queue name', async () => {
    const name = uniqueName('replay');
    await expect(replayPoisonMessages(clients, name)).resolves.toEqual([]);
    await expect(replayPoisonMessages(clients, `${name}-poison`)).rejects.toThrow(/poison queue/);
    await expect(peekPoisonMessages(clients, name, 32)).resolves.toEqual([]);
  });

  it('moves each message once when run twice', async () => {
    const { name } = await poisonedQueue(3);
    expect(await replayPoisonMessages(clients, name)).toHaveLength(3);
    expect(await replayPoisonMessages(clients, name)).toEqual([]);
    expect(employeeIds(await drain(name))).toEqual(sixDigits(3));
  });

  it('after a crash between send and delete, the next replay yields a duplicate, never a loss', async () => {
    const { name } = await poisonedQueue(2);
    const crash = new Error('process died after the send');
    let sends = 0;
    await expect(
      replayPoisonMessages(clients, name, {
        leaseSeconds: 1,
        afterSend: () => {
          sends++;
          if (sends === 2) throw crash; // the second message: sent, never deleted
        },
      }),
    ).rejects.toBe(crash);
    // The crashed message is in both queues; once its lease ends the next replay sends it again.
    expect(await clients.queue(name).peekMessages({ numberOfMessages: 32 })).toMatchObject({
      peekedMessageItems: [expect.anything(), expect.anything()],
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await replayPoisonMessages(clients, name)).toHaveLength(1);

    const delivered = employeeIds(await drain(name));
    expect(delivered).toHaveLength(3);
    expect(new Set(delivered)).toEqual(new Set(sixDigits(2)));
    expect(await drain(poisonQueueName(name))).toEqual([]);
  });

  it('peeks decoded messages without hiding them', async () => {
    const { name, ids } = await poisonedQueue(2);
    const peeked = await peekPoisonMessages(clients, name, 1);
    expect(peeked).toEqual([
      expect.objectContaining({
        messageId: ids[0],
        dequeueCount: 0,
        body: { v: 1, department: 'Sales', employeeId: '000001' },
      }),
    ]);
    expect(await peekPoisonMessages(clients, name, 32)).toHaveLength(2);
  });
});
