/**
 * tools/replay-poison.ts: poison messages go back to their queue unchanged, sent before they are
 * deleted; --max bounds the move, --dry-run changes nothing; the command line prints each id.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  parseReplayArgs,
  replayPoisonMessages,
  type ReplayedMessage,
} from '../../../tools/replay-poison';
import { decodeQueueMessage, sendJsonMessage } from '../../../src/storage/queue';
import { poisonQueueName } from '../../../src/storage/keys';
import { testClients, uniqueName } from '../../support/storage';

const clients = testClients();
const ROOT = path.resolve(__dirname, '..', '..', '..');

async function poisonedQueue(count: number): Promise<{ name: string; ids: string[] }> {
  const name = uniqueName('replay');
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

describe('replay-poison', () => {
  it('moves every poison message back to its queue with the same text', async () => {
    const { name, ids } = await poisonedQueue(40); // more than one 32-message receive
    const seen: ReplayedMessage[] = [];
    const moved = await replayPoisonMessages(clients, name, { onMessage: (m) => seen.push(m) });

    expect(moved.map((m) => m.messageId).sort()).toEqual([...ids].sort());
    expect(seen).toHaveLength(40);
    expect(employeeIds(await drain(name))).toEqual(
      Array.from({ length: 40 }, (_, i) => String(i + 1).padStart(6, '0')).sort(),
    );
    expect(await drain(poisonQueueName(name))).toEqual([]);
  });

  it('moves at most --max messages and leaves the rest in the poison queue', async () => {
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
  });

  it('reads its command line', () => {
    expect(parseReplayArgs(['archive-requests'])).toEqual({
      queueName: 'archive-requests',
      max: undefined,
      dryRun: false,
    });
    expect(parseReplayArgs(['index-updates', '--max', '10', '--dry-run'])).toEqual({
      queueName: 'index-updates',
      max: 10,
      dryRun: true,
    });
    expect(() => parseReplayArgs([])).toThrow(/Usage/);
    expect(() => parseReplayArgs(['a', 'b'])).toThrow(/Usage/);
    expect(() => parseReplayArgs(['q', '--max', '0'])).toThrow(/--max/);
    expect(() => parseReplayArgs(['q', '--max', 'ten'])).toThrow(/--max/);
    expect(() => parseReplayArgs(['q', '--force'])).toThrow();
  });

  it('prints each moved message id when run as a command', async () => {
    const { name, ids } = await poisonedQueue(2);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', '@swc-node/register', path.join(ROOT, 'tools', 'replay-poison.ts'), name],
      { cwd: ROOT, env: { ...process.env } },
    );

    for (const id of ids) expect(stdout).toContain(`moved ${id}`);
    expect(stdout).toContain(`Moved 2 message(s) from ${name}-poison to ${name}.`);
    expect(await drain(name)).toHaveLength(2);
  }, 60_000);
});
