/**
 * The targets front (the fault proxy with Azure's targets): past a target it answers as Azure
 * does — 503, `x-ms-error-code: ServerBusy`, each service's error body (OData JSON for tables, XML
 * for blobs and queues), the account's own message when the account is over — before storage
 * sees the request; and the SDKs' exponential retry, as the app configures it, gets every write
 * through a partition held to its target.
 */
import { TableTransaction, type TableClient } from '@azure/data-tables';
import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { TargetsLimiter } from '../../../../tools/targets/targetsLimiter';
import type { StorageTargets } from '../../../../tools/targets/azureTargets';
import { uniqueName, uniqueTableName } from '../../../support/storage';
import { azuritePorts, clientsThrough } from '../../storage/proxyFixture';

const proxies: FaultProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.stop();
});

async function front(
  targets: StorageTargets,
): Promise<{ proxy: FaultProxy; limiter: TargetsLimiter }> {
  const limiter = new TargetsLimiter(targets);
  const proxy = await startFaultProxy({ target: azuritePorts(), targets: limiter });
  proxies.push(proxy);
  return { proxy, limiter };
}

const ROOMY = {
  accountRequests: 10_000,
  partitionEntities: 10_000,
  queueMessages: 10_000,
  blobRequests: 10_000,
};

/** A raw request through the front (no SDK), to see the answer as it is on the wire. */
async function raw(
  proxy: FaultProxy,
  service: 'blob' | 'queue' | 'table',
  path: string,
  init: RequestInit = {},
) {
  const response = await fetch(`http://127.0.0.1:${proxy.ports[service]}${path}`, init);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

test('a table partition over its target: 503 ServerBusy in the Table service JSON error shape', async () => {
  const { proxy, limiter } = await front({ ...ROOMY, partitionEntities: 2 });
  const table = clientsThrough(proxy, { STORAGE_MAX_RETRIES: '0' }).table(uniqueTableName('Tgt'));
  await table.createTable();
  await table.createEntity({ partitionKey: 'hot', rowKey: '1' });
  await table.createEntity({ partitionKey: 'hot', rowKey: '2' });
  const path = `/devstoreaccount1/${table.tableName}(PartitionKey='hot',RowKey='1')`;
  const answer = await raw(proxy, 'table', path, { headers: { accept: 'application/json' } });
  expect(answer.status).toBe(503);
  expect(answer.headers.get('x-ms-error-code')).toBe('ServerBusy');
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const error = (
    JSON.parse(answer.body) as { 'odata.error': { code: string; message: { value: string } } }
  )['odata.error'];
  expect(error.code).toBe('ServerBusy');
  expect(error.message.value).toMatch(/^The server is busy\.\nRequestId:/);
  // Another partition of the same table has room.
  await table.createEntity({ partitionKey: 'cold', rowKey: '1' });
  expect(limiter.throttled().partition).toBe(1);
});

test('a batch counts its operations against the partition', async () => {
  const { proxy } = await front({ ...ROOMY, partitionEntities: 4 });
  const table = clientsThrough(proxy, { STORAGE_MAX_RETRIES: '0' }).table(uniqueTableName('Tgt'));
  await table.createTable();
  await table.createEntity({ partitionKey: 'q', rowKey: '0' });
  await table.createEntity({ partitionKey: 'p', rowKey: '0' });
  // 1 + 4 entities in the partition's second: over its 4.
  const batch = new TableTransaction();
  for (const rowKey of ['1', '2', '3', '4']) batch.createEntity({ partitionKey: 'p', rowKey });
  await expect(table.submitTransaction(batch.actions)).rejects.toMatchObject({
    statusCode: 503,
    code: 'ServerBusy',
  });
  // Nothing of it reached storage (read with the targets off: the partition's second is spent).
  proxy.setTargets(null);
  const stored = [];
  const filter = "PartitionKey eq 'p'";
  for await (const entity of table.listEntities({ queryOptions: { filter } })) stored.push(entity);
  expect(stored).toHaveLength(1);
});

test('blobs and queues over their targets answer in the XML error shape; the account its own message', async () => {
  const { proxy } = await front({ ...ROOMY, blobRequests: 1, queueMessages: 1 });
  const clients = clientsThrough(proxy, { STORAGE_MAX_RETRIES: '0' });
  const container = clients.container(uniqueName('tgt'));
  await container.create();
  await container.getBlockBlobClient('a.txt').upload('a', 1);
  const blob = await raw(proxy, 'blob', `/devstoreaccount1/${container.containerName}/a.txt`);
  expect(blob.status).toBe(503);
  expect(blob.headers.get('content-type')).toBe('application/xml');
  expect(blob.body).toMatch(
    /<Error><Code>ServerBusy<\/Code><Message>The server is busy\.\nRequestId:/,
  );

  const queue = clients.queue(uniqueName('tgt'));
  await queue.create();
  await queue.sendMessage('one');
  await expect(queue.sendMessage('two')).rejects.toMatchObject({
    statusCode: 503,
    code: 'ServerBusy',
  });

  const account = await front({ ...ROOMY, accountRequests: 1 });
  await raw(account.proxy, 'queue', `/devstoreaccount1/${queue.name}/messages?peekonly=true`);
  const over = await raw(
    account.proxy,
    'queue',
    `/devstoreaccount1/${queue.name}/messages?peekonly=true`,
  );
  expect(over.status).toBe(503);
  expect(over.body).toContain('<Message>Operations per second is over the account limit.');
  expect(account.limiter.throttled().account).toBe(1);
});

test("the SDKs' exponential retry, at the app's default settings, gets a burst 3x a partition's target through", async () => {
  const { proxy, limiter } = await front({ ...ROOMY, partitionEntities: 10 });
  // src/config's defaults (the test environment shortens them): exponential from 200 ms, with
  // jitter, up to 8 s, 5 retries.
  const settings = { STORAGE_RETRY_DELAY_MS: '200', STORAGE_MAX_RETRY_DELAY_MS: '8000' };
  const table: TableClient = clientsThrough(proxy, settings).table(uniqueTableName('Tgt'));
  await table.createTable();
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      table.createEntity({ partitionKey: 'hot', rowKey: String(i) }),
    ),
  );
  const stored = [];
  const filter = "PartitionKey eq 'hot'";
  for await (const entity of table.listEntities({ queryOptions: { filter } })) stored.push(entity);
  expect(stored).toHaveLength(30);
  expect(limiter.throttled().partition).toBeGreaterThanOrEqual(20);
  // At 10 entities/s, 30 take at least two windows after the first.
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
}, 90_000);
