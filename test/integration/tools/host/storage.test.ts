/**
 * The local host resolves a binding's connection itself, as the Functions host does (a connection
 * string, or `<name>__*` identity settings), and builds its own SDK clients: they reach Azurite,
 * retry with the `STORAGE_*` budget, and abandon a try that hangs (tools/host/storage.ts).
 */
import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import {
  ConnectionError,
  ConnectionResolver,
  DEFAULT_CONNECTION,
} from '../../../../tools/host/storage';
import { azuriteConnectionString, uniqueName, uniqueTableName } from '../../../support/storage';

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(() => proxy.stop());
beforeEach(() => {
  proxy.setFaults(null);
  proxy.resetCounts();
});

async function failure(operation: () => Promise<unknown>): Promise<unknown> {
  try {
    await operation();
  } catch (error) {
    return error;
  }
  throw new Error('The operation was expected to fail.');
}

describe('ConnectionResolver', () => {
  it('reaches the account of AzureWebJobsStorage: queues, tables and containers', async () => {
    const clients = new ConnectionResolver({
      AzureWebJobsStorage: azuriteConnectionString(),
    }).clients();
    const queue = clients.queue(uniqueName('q'));
    await queue.create();
    await queue.sendMessage('aGVsbG8=');
    const { receivedMessageItems } = await queue.receiveMessages();
    expect(receivedMessageItems.map((m) => m.messageText)).toEqual(['aGVsbG8=']);
    const table = clients.table(uniqueTableName('Host'));
    await table.createTable();
    await table.createEntity({ partitionKey: 'p', rowKey: 'r', value: 1 });
    expect((await table.getEntity<{ value: number }>('p', 'r')).value).toBe(1);
    const container = clients.container(uniqueName('c'));
    await container.create();
    expect(await container.exists()).toBe(true);
    await Promise.all([queue.delete(), table.deleteTable(), container.delete()]);
  });

  it('reads a named connection from its own setting, once per name', () => {
    const resolver = new ConnectionResolver({ MyStorage: azuriteConnectionString() });
    const clients = resolver.clients('MyStorage');
    expect(resolver.clients('MyStorage')).toBe(clients);
    expect(clients.queue('jobs').url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1\/jobs$/,
    );
    expect(() => resolver.clients(DEFAULT_CONNECTION)).toThrow(ConnectionError);
  });

  it('builds identity-based endpoints as the Functions host does', () => {
    const clients = new ConnectionResolver({
      Data__accountName: 'acct',
      Data__blobServiceUri: 'https://blobs.example.test',
    }).clients('Data');
    expect(clients.queue('jobs').url).toBe('https://acct.queue.core.windows.net/jobs');
    expect(clients.container('c').url).toBe('https://blobs.example.test/c');
    expect(clients.table('T').url).toBe('https://acct.table.core.windows.net');
  });

  it('says which settings are missing or wrong', () => {
    const resolve = (env: Record<string, string>, name?: string) => () =>
      new ConnectionResolver(env).clients(name);
    expect(resolve({})).toThrow(/Storage connection 'AzureWebJobsStorage' is not configured/);
    expect(resolve({ AzureWebJobsStorage: ' ' })).toThrow(/AzureWebJobsStorage__accountName/);
    expect(resolve({ S: 'AccountName=a;QueueEndpoint=http://127.0.0.1:1/a' }, 'S')).toThrow(
      /needs AccountName and AccountKey/,
    );
    expect(resolve({ S__accountName: 'a', S__credential: 'secret' }, 'S')).toThrow(
      /S__credential must be "managedidentity"/,
    );
  });

  it('retries a failed try within the STORAGE_* budget', async () => {
    proxy.setFaults({ rate: 1, kinds: ['503'] });
    const clients = new ConnectionResolver({
      AzureWebJobsStorage: proxy.connectionString,
      STORAGE_MAX_RETRIES: '2',
      STORAGE_RETRY_DELAY_MS: '1',
      STORAGE_MAX_RETRY_DELAY_MS: '5',
    }).clients();
    const error = await failure(() => clients.queue(uniqueName('busy')).create());
    expect((error as { statusCode?: number }).statusCode).toBe(503);
    expect(proxy.counts().byFault).toEqual({ '503': 3 });
  });

  it('abandons a try that hangs, as a retriable ETIMEDOUT', async () => {
    proxy.setFaults({ rate: 1, kinds: ['timeout'], timeoutMs: 60_000 });
    const clients = new ConnectionResolver({
      AzureWebJobsStorage: proxy.connectionString,
      STORAGE_MAX_RETRIES: '1',
      STORAGE_RETRY_DELAY_MS: '1',
      STORAGE_TRY_TIMEOUT_MS: '200',
    }).clients();
    const error = await failure(() => clients.table(uniqueTableName('Slow')).createTable());
    expect((error as { code?: string }).code).toBe('ETIMEDOUT');
    expect(proxy.counts().byFault).toEqual({ timeout: 2 });
  });
});
