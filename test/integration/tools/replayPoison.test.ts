/**
 * tools/replayPoison.ts, the command line over src/operations/poisonQueues.ts (whose routine is
 * tested in test/integration/operations/poisonQueues.test.ts): it reads its arguments and prints
 * each moved message id.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseReplayArgs } from '../../../tools/replayPoison';
import { decodeQueueMessage, sendJsonMessage } from '../../../src/storage/queue';
import { poisonQueueName } from '../../../src/storage/keys/queues';
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

describe('replayPoison', () => {
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
      ['-r', '@swc-node/register', path.join(ROOT, 'tools', 'replayPoison.ts'), name],
      { cwd: ROOT, env: { ...process.env } },
    );

    for (const id of ids) expect(stdout).toContain(`moved ${id}`);
    expect(stdout).toContain(`Moved 2 message(s) from ${name}-poison to ${name}.`);
    expect(await drain(name)).toHaveLength(2);
  });
});
