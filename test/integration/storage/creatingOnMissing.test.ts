/**
 * Storage created on first use, the one way (`creatingOnMissing`, src/storage/createOnce.ts): no
 * creation while the resource exists, the creation and one retry when storage says it is missing,
 * and nothing created for any other failure. The log ingest on a fresh account (no queue, no
 * container) is its first user.
 */
import { parseLogBatch } from '../../../src/logs/entry';
import { LogIngest } from '../../../src/logs/ingest/ingest';
import { creatingOnMissing, isContainerMissing } from '../../../src/storage/createOnce';
import { testClients, uniqueName } from '../../support/storage';

const clients = testClients();

it('uses an existing queue without creating it', async () => {
  const queue = clients.queue(uniqueName('q'));
  await queue.create();
  let creations = 0;
  await creatingOnMissing(
    () => queue.sendMessage('hello'),
    () => {
      creations++;
      return queue.createIfNotExists();
    },
  );
  expect(creations).toBe(0);
  expect((await queue.peekMessages()).peekedMessageItems.map((m) => m.messageText)).toEqual([
    'hello',
  ]);
  await queue.delete();
});

it('creates a missing queue, then sends once', async () => {
  const queue = clients.queue(uniqueName('q'));
  let creations = 0;
  await creatingOnMissing(
    () => queue.sendMessage('hello'),
    () => {
      creations++;
      return queue.createIfNotExists();
    },
  );
  expect(creations).toBe(1);
  const { peekedMessageItems } = await queue.peekMessages({ numberOfMessages: 32 });
  expect(peekedMessageItems.map((m) => m.messageText)).toEqual(['hello']);
  await queue.delete();
});

it('creates a missing container only for ContainerNotFound, not for a missing blob', async () => {
  const container = clients.container(uniqueName('c'));
  const blob = container.getBlockBlobClient('a.txt');
  await creatingOnMissing(
    () => blob.upload('x', 1),
    () => container.createIfNotExists(),
    isContainerMissing,
  );
  expect((await blob.downloadToBuffer()).toString()).toBe('x');

  // A missing blob (its container there) is a 404 too, but not a missing container: no creation.
  let creations = 0;
  await expect(
    creatingOnMissing(
      () => container.getBlockBlobClient('absent.txt').download(),
      () => {
        creations++;
        return container.createIfNotExists();
      },
      isContainerMissing,
    ),
  ).rejects.toBeDefined();
  expect(creations).toBe(0);
  await container.delete();
});

it('lets a log batch through on an account with neither its queue nor its container', async () => {
  const queue = clients.queue(uniqueName('logq'));
  const container = clients.container(uniqueName('logs'));
  const ingest = new LogIngest({ queue, container });
  const at = new Date().toISOString();
  const entry = (i: number) => ({
    at,
    level: 'Information',
    message: `line ${i} ${'x'.repeat(200)}`,
  });

  // One inline message: the queue is created by the send's 404.
  const small = await ingest.accept(
    parseLogBatch({ source: 'app', entries: [entry(1)] }, { maxBatchEntries: 100_000 }),
  );
  expect(small.staged).toBe(false);
  // Too large for one message: staged in a blob, whose container is created by the upload.
  const entries = Array.from({ length: 1_000 }, (_, i) => entry(i));
  const large = await ingest.accept(
    parseLogBatch({ source: 'app', entries }, { maxBatchEntries: 100_000 }),
  );
  expect(large.staged).toBe(true);

  const { peekedMessageItems } = await queue.peekMessages({ numberOfMessages: 32 });
  expect(peekedMessageItems).toHaveLength(2);
  const staged: string[] = [];
  for await (const item of container.listBlobsFlat()) staged.push(item.name);
  expect(staged).toHaveLength(1);
  await Promise.all([queue.delete(), container.delete()]);
});
