/**
 * Outbox nudges against a nudge already on its way (real Azurite queue): the service may store a
 * nudge, and a worker drain it, before its sender hears the answer. A commit made in that window
 * must still get a nudge of its own, not wait for its cover or the outbox sweep. And a write
 * returns only once its cover — a delayed message that surfaces after its commit — is stored.
 */
import type { QueueClient } from '@azure/storage-queue';
import { queueChangeSink } from '../../../../src/indexing/queue/queueChangeSink';
import { decodeQueueMessage } from '../../../../src/storage/queue';
import { testClients, uniqueName } from '../../../support/storage';
import { refuseCovers } from '../../../support/queueFaults';

/**
 * Holds the answer of the first send of a message visible at once (a nudge, not a delayed cover)
 * after it reached storage, until released.
 */
function holdFirstAnswer(queue: QueueClient): { stored: Promise<void>; release(): void } {
  let stored!: () => void;
  let released!: () => void;
  const storedPromise = new Promise<void>((resolve) => (stored = resolve));
  const releasedPromise = new Promise<void>((resolve) => (released = resolve));
  let held = false;
  queue['storageClientContext'].queuesClient.pipeline.addPolicy({
    name: 'holdFirstAnswer',
    async sendRequest(request, next) {
      const response = await next(request);
      const delayed = /visibilitytimeout=[1-9]/i.test(request.url);
      if (!held && !delayed && request.method === 'POST' && /\/messages(\?|$)/.test(request.url)) {
        held = true;
        stored();
        await releasedPromise;
      }
      return response;
    },
  });
  return { stored: storedPromise, release: () => released() };
}

let queue: QueueClient;
beforeEach(() => {
  queue = testClients().queue(uniqueName('nudges'));
});
afterEach(async () => {
  await queue.deleteIfExists();
});

it('nudges again for a commit made while the previous nudge was stored but not yet answered', async () => {
  const gate = holdFirstAnswer(queue);
  const changes = queueChangeSink(queue, { nudgeLingerMs: 0 });
  await changes.publish([{ department: 'Sales', employeeId: '000001', reason: 'created' }]);
  await gate.stored;
  // A worker takes the stored nudge and drains the outbox before the next commit.
  const taken = (await queue.receiveMessages()).receivedMessageItems;
  expect(taken.map((m) => decodeQueueMessage(m.messageText))).toEqual([
    { v: 2, departments: ['Sales'] },
  ]);
  await queue.deleteMessage(taken[0]!.messageId, taken[0]!.popReceipt);

  // The next commit in Sales, while the first send has not heard its answer.
  await changes.publish([{ department: 'Sales', employeeId: '000002', reason: 'created' }]);
  gate.release();
  await changes.settled();

  const left = (await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems;
  expect(left.map((m) => decodeQueueMessage(m.messageText))).toEqual([
    { v: 2, departments: ['Sales'] },
  ]);
});

it('still shares one nudge between commits while it lingers', async () => {
  // Long enough for the first write's wait for its cover on a loaded machine.
  const changes = queueChangeSink(queue, { nudgeLingerMs: 1_000 });
  await changes.publish([{ department: 'Sales', employeeId: '000001', reason: 'created' }]);
  await changes.publish([{ department: 'Sales', employeeId: '000002', reason: 'created' }]);
  await changes.settled();
  expect((await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems).toHaveLength(1);
});

it('returns a write once its cover is stored, and shares the cover between the writes of its window', async () => {
  const changes = queueChangeSink(queue, { nudgeLingerMs: 60_000 }); // the nudge never leaves
  await changes.publish([{ department: 'Sales', employeeId: '000001', reason: 'created' }]);
  // No settled(): the write's own promise is the guarantee (its process may stop right after).
  expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
  expect((await queue.peekMessages()).peekedMessageItems).toEqual([]); // invisible for now
  await changes.publish([{ department: 'Sales', employeeId: '000002', reason: 'created' }]);
  expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
});

it('fails the publish of a queue-triggered writer whose cover cannot be stored, so that its message comes back', async () => {
  refuseCovers(queue);
  const change = { department: 'Sales', employeeId: '000001', reason: 'archived' } as const;
  const background = queueChangeSink(queue, { nudgeDelaySeconds: 1, failWithoutCover: true });
  await expect(background.publish([change])).rejects.toMatchObject({ kind: 'throttled' });
  // Without the option (an HTTP write without a drain of its own) the write answers: its rows
  // are left to the outbox sweep.
  const reported: string[] = [];
  const http = queueChangeSink(queue, {
    nudgeDelaySeconds: 1,
    onNudgeError: (_error, department) => reported.push(department),
  });
  await http.publish([change]);
  expect(reported).toEqual(['Sales']);
});
