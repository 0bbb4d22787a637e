/**
 * Outbox nudges against a nudge already on its way (real Azurite queue): the service may store a
 * nudge, and a worker drain it, before its sender hears the answer. A commit made in that window
 * must still get a nudge of its own, not wait for the outbox sweep.
 */
import type { QueueClient } from '@azure/storage-queue';
import { queueChangeSink } from '../../../src/indexing/queueChangeSink';
import { decodeQueueMessage } from '../../../src/storage/queue';
import { testClients, uniqueName } from '../../support/storage';

/** Holds the answer of the first message send after it reached storage, until released. */
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
      if (!held && request.method === 'POST' && /\/messages(\?|$)/.test(request.url)) {
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
  const changes = queueChangeSink(queue, { nudgeLingerMs: 50 });
  await changes.publish([{ department: 'Sales', employeeId: '000001', reason: 'created' }]);
  await changes.publish([{ department: 'Sales', employeeId: '000002', reason: 'created' }]);
  await changes.settled();
  expect((await queue.peekMessages({ numberOfMessages: 32 })).peekedMessageItems).toHaveLength(1);
});
