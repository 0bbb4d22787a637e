/**
 * Blobs and queues through the project's client factory while the proxy answers 503 or resets the
 * connection on 30% of requests: every write lands exactly once, reads return what was written,
 * and a 404 is asked once.
 */
import { NotFoundError } from '../../../src/domainErrors';
import { withStorageErrors } from '../../../src/storage/storageFaults';
import type { FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { testClients, uniqueName } from '../../support/storage';
import { clientsThrough, collect, inSequence, startTestProxy } from './proxyFixture';

const numbers = (count: number): number[] => [...Array(count).keys()];

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startTestProxy();
});
afterAll(() => proxy.stop());
beforeEach(() => {
  proxy.setFaults(null);
  proxy.resetCounts();
});

describe('blobs', () => {
  it('uploads and reads back 40 blobs while 30% of requests fail with 503 or a reset', async () => {
    const name = uniqueName('retry');
    await testClients().container(name).create();
    const container = clientsThrough(proxy).container(name);
    proxy.setFaults({ rate: 0.3, kinds: ['503', 'reset'], services: ['blob'], seed: 40 });

    await inSequence(numbers(40), (n) => {
      const body = `log line ${n}\n`;
      return container
        .getBlockBlobClient(`2026/11/22/${n}.log`)
        .upload(body, Buffer.byteLength(body));
    });
    const contents: string[] = [];
    await inSequence(numbers(40), async (n) => {
      const buffer = await container.getBlockBlobClient(`2026/11/22/${n}.log`).downloadToBuffer();
      contents.push(buffer.toString('utf8'));
    });

    const counts = proxy.counts();
    expect(counts.byFault['503']).toBeGreaterThan(0);
    expect(counts.byFault.reset).toBeGreaterThan(0);
    // Each upload was stored once; every other request either succeeded or was a fault retried.
    expect(counts.byStatus['201']).toBe(40);
    const succeeded = Object.entries(counts.byStatus)
      .filter(([status]) => status.startsWith('2'))
      .reduce((sum, [, count]) => sum + count, 0);
    expect(succeeded + counts.faultsInjected).toBe(counts.requests);
    expect(contents).toEqual(numbers(40).map((n) => `log line ${n}\n`));
    proxy.setFaults(null);
    expect(await collect(testClients().container(name).listBlobsFlat())).toHaveLength(40);
  });

  it('asks once for a missing blob', async () => {
    const name = uniqueName('missing');
    await testClients().container(name).create();
    const blob = clientsThrough(proxy).container(name).getBlobClient('nope.json');

    await expect(
      withStorageErrors(() => blob.getProperties(), {
        notFound: { code: 'IndexNotFound', message: 'No index blob for this name.' },
      }),
    ).rejects.toThrow(NotFoundError);
    expect(proxy.counts().byKind).toEqual({ 'blob:HEAD': 1 });
  });
});

describe('queues', () => {
  it('sends 40 messages exactly once each and drains them while 30% of requests fail', async () => {
    const name = uniqueName('retry');
    await testClients().queue(name).create();
    const queue = clientsThrough(proxy).queue(name);
    proxy.setFaults({ rate: 0.3, kinds: ['503', 'reset'], services: ['queue'], seed: 41 });

    await inSequence(numbers(40), (n) =>
      queue.sendMessage(Buffer.from(`{"n":${n}}`).toString('base64')),
    );
    const sendFaults = proxy.counts().faultsInjected;
    const received: number[] = [];
    while (received.length < 40) {
      const batch = await queue.receiveMessages({ numberOfMessages: 32, visibilityTimeout: 60 });
      if (batch.receivedMessageItems.length === 0) break;
      for (const message of batch.receivedMessageItems) {
        received.push(
          (JSON.parse(Buffer.from(message.messageText, 'base64').toString()) as { n: number }).n,
        );
        await queue.deleteMessage(message.messageId, message.popReceipt);
      }
    }

    expect(sendFaults).toBeGreaterThan(0);
    expect(proxy.counts().faultsInjected).toBeGreaterThan(sendFaults);
    expect(received.sort((a, b) => a - b)).toEqual(numbers(40));
    proxy.setFaults(null);
    const left = await testClients().queue(name).getProperties();
    expect(left.approximateMessagesCount).toBe(0);
  });

  it('asks once for a missing queue', async () => {
    const queue = clientsThrough(proxy).queue(uniqueName('missing'));
    await expect(queue.getProperties()).rejects.toMatchObject({ statusCode: 404 });
    expect(proxy.counts().byKind).toEqual({ 'queue:GET': 1 });
  });
});
