/**
 * The fault proxy itself: it forwards byte for byte, counts what it sees, and breaks requests in
 * the documented ways. Clients here have no retries, so each fault reaches the test as it is.
 */
import { TableTransaction, type TableEntity, type TransactionAction } from '@azure/data-tables';
import { ThrottledError } from '../../../../src/domainErrors';
import { storageCode, toDomainError } from '../../../../src/storage/storageFaults';
import {
  departmentPartitionKey,
  employeeRowKey,
} from '../../../../src/storage/keys/tables/employees';
import { freePort } from '../../../../tools/azurite';
import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { testClients, uniqueName, uniqueTableName } from '../../../support/storage';
import { clientsThrough, collect, inSequence, startTestProxy } from '../../storage/proxyFixture';

const NO_RETRIES = { STORAGE_MAX_RETRIES: '0' };
const pk = departmentPartitionKey('Sales');
const rowKey = (n: number): string => employeeRowKey(String(n).padStart(6, '0'));

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startTestProxy();
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

describe('pass-through', () => {
  it('forwards every service and counts requests by service and method, bytes and statuses', async () => {
    const clients = clientsThrough(proxy);
    const table = clients.table(uniqueTableName('Pass'));
    await table.createTable();
    await table.upsertEntity({ partitionKey: pk, rowKey: rowKey(1), Name: 'Jones' });
    const container = clients.container(uniqueName('pass'));
    await container.create();
    await container.getBlockBlobClient('a.txt').upload('hello', 5);
    const queue = clients.queue(uniqueName('pass'));
    await queue.create();
    await queue.sendMessage('aGVsbG8=');

    const counts = proxy.counts();
    expect(counts.byKind).toEqual({
      'table:POST': 1,
      'table:PATCH': 1,
      'blob:PUT': 2,
      'queue:PUT': 1,
      'queue:POST': 1,
    });
    expect(counts.requests).toBe(6);
    expect(counts.faultsInjected).toBe(0);
    expect(counts.byStatus).toEqual({ '201': 5, '204': 1 });
    // Six request heads of a few hundred bytes each, plus the bodies.
    expect(counts.bytesSent).toBeGreaterThan(6 * 200);
    expect(counts.bytesReceived).toBeGreaterThan(6 * 100);
  });

  it('streams a 100-operation entity group transaction through unchanged', async () => {
    const name = uniqueTableName('Batch');
    const table = clientsThrough(proxy).table(name);
    await table.createTable();
    proxy.resetCounts();
    const transaction = new TableTransaction();
    for (let n = 0; n < 100; n += 1) {
      transaction.upsertEntity({
        partitionKey: pk,
        rowKey: rowKey(n),
        Note: `ü€ ${n} --batch_boundary`,
      });
    }
    const result = await table.submitTransaction(transaction.actions);

    expect(result.status).toBe(202);
    expect(proxy.counts().byKind).toEqual({ 'table:POST': 1 });
    const stored = await collect(
      testClients().table(name).listEntities<TableEntity<{ Note: string }>>(),
    );
    expect(stored).toHaveLength(100);
    expect(stored.find((e) => e.rowKey === rowKey(7))?.Note).toBe('ü€ 7 --batch_boundary');
  });

  it('starts counting from zero after resetCounts', async () => {
    await clientsThrough(proxy).tableService().createTable(uniqueTableName('Reset'));
    expect(proxy.counts().requests).toBe(1);
    proxy.resetCounts();
    expect(proxy.counts()).toEqual({
      requests: 0,
      byKind: {},
      bytesSent: 0,
      bytesReceived: 0,
      entitiesRead: 0,
      faultsInjected: 0,
      byFault: {},
      byStatus: {},
    });
  });

  it('counts the entities table queries and point reads return, not those written', async () => {
    const table = clientsThrough(proxy).table(uniqueTableName('Entities'));
    await table.createTable();
    const actions = Array.from({ length: 30 }, (_, n): TransactionAction => [
      'upsert',
      { partitionKey: pk, rowKey: rowKey(n), Name: `Name ${n}` },
    ]);
    await table.submitTransaction(actions);
    expect(proxy.counts().entitiesRead).toBe(0);

    await table.getEntity(pk, rowKey(3));
    const pages = [];
    for await (const page of table.listEntities().byPage({ maxPageSize: 20 })) pages.push(page);
    await failure(() => table.getEntity(pk, rowKey(99)));

    expect(pages.map((page) => page.length)).toEqual([20, 10]);
    expect(proxy.counts().entitiesRead).toBe(31);
  });
});

describe('injected faults', () => {
  it('answers 503 ServerBusy in the Table service error format, without storage seeing the request', async () => {
    proxy.setFaults({ rate: 1, kinds: ['503'] });
    const name = uniqueTableName('Busy');
    const error = await failure(() =>
      clientsThrough(proxy, NO_RETRIES).tableService().createTable(name),
    );

    expect((error as { statusCode?: number }).statusCode).toBe(503);
    expect(storageCode(error)).toBe('ServerBusy');
    expect(proxy.counts()).toMatchObject({
      requests: 1,
      faultsInjected: 1,
      byFault: { '503': 1 },
      byStatus: { '503': 1 },
    });
    const tables = await collect(testClients().tableService().listTables());
    expect(tables.map((t) => t.name)).not.toContain(name);
  });

  it('answers 500 InternalError in the Blob service XML format', async () => {
    proxy.setFaults({ rate: 1, kinds: ['500'], services: ['blob'] });
    const error = await failure(() =>
      clientsThrough(proxy, NO_RETRIES).container(uniqueName('err')).create(),
    );
    expect((error as { statusCode?: number }).statusCode).toBe(500);
    expect(storageCode(error)).toBe('InternalError');
  });

  it('adds Retry-After: 1, which becomes the throttled error retry hint', async () => {
    proxy.setFaults({ rate: 1, kinds: ['503-retry-after'], services: ['queue'] });
    const error = await failure(() =>
      clientsThrough(proxy, NO_RETRIES).queue(uniqueName('busy')).create(),
    );
    const domain = toDomainError(error);
    expect(domain).toBeInstanceOf(ThrottledError);
    expect((domain as ThrottledError).retryAfterSeconds).toBe(1);
  });

  it('resets the connection before the request reaches storage', async () => {
    proxy.setFaults({ rate: 1, kinds: ['reset'], services: ['blob'] });
    const name = uniqueName('reset');
    const error = await failure(() => clientsThrough(proxy, NO_RETRIES).container(name).create());
    expect((error as { code?: string }).code).toBe('ECONNRESET');
    expect(await testClients().container(name).exists()).toBe(false);
  });

  it('resets the connection after storage applied the request (reset-after)', async () => {
    const name = uniqueTableName('After');
    await testClients().tableService().createTable(name);
    proxy.setFaults({ rate: 1, kinds: ['reset-after'] });
    const error = await failure(() =>
      clientsThrough(proxy, NO_RETRIES)
        .table(name)
        .createEntity({ partitionKey: pk, rowKey: rowKey(1) }),
    );
    expect((error as { code?: string }).code).toBe('ECONNRESET');
    const stored = await testClients().table(name).getEntity(pk, rowKey(1));
    expect(stored.rowKey).toBe(rowKey(1));
  });

  it('holds a timed-out request until the client gives up on it', async () => {
    proxy.setFaults({ rate: 1, kinds: ['timeout'], timeoutMs: 60_000 });
    const error = await failure(() =>
      clientsThrough(proxy, { ...NO_RETRIES, STORAGE_TRY_TIMEOUT_MS: '200' })
        .tableService()
        .createTable(uniqueTableName('Slow')),
    );
    // The client's deadline (ETIMEDOUT), not the proxy's drop a minute later (a reset).
    expect((error as { code?: string }).code).toBe('ETIMEDOUT');
    expect(proxy.counts().byFault).toEqual({ timeout: 1 });
  });

  it('drops a held request itself after timeoutMs', async () => {
    proxy.setFaults({ rate: 1, kinds: ['timeout'], timeoutMs: 300 });
    const error = await failure(() =>
      clientsThrough(proxy, { ...NO_RETRIES, STORAGE_TRY_TIMEOUT_MS: '30000' })
        .queue(uniqueName('drop'))
        .create(),
    );
    expect((error as { code?: string }).code).toBe('ECONNRESET');
  });

  it('breaks only the chosen services', async () => {
    proxy.setFaults({ rate: 1, kinds: ['503'], services: ['table'] });
    const clients = clientsThrough(proxy, NO_RETRIES);
    await clients.container(uniqueName('fine')).create();
    await clients.queue(uniqueName('fine')).create();
    await expect(
      clients.tableService().createTable(uniqueTableName('Broken')),
    ).rejects.toMatchObject({
      statusCode: 503,
    });
    expect(proxy.counts().faultsInjected).toBe(1);
  });

  it('answers 502 in the storage error format when the emulator cannot be reached', async () => {
    const closed = await freePort();
    const orphan = await startFaultProxy({
      target: { blob: closed, queue: closed, table: closed },
    });
    try {
      const error = await failure(() =>
        clientsThrough(orphan, NO_RETRIES).container(uniqueName('gone')).create(),
      );
      expect((error as { statusCode?: number }).statusCode).toBe(502);
      expect(storageCode(error)).toBe('BadGateway');
      expect(orphan.counts().byStatus).toEqual({ '502': 1 });
    } finally {
      await orphan.stop();
    }
  });

  it('replays the same faults for the same seed', async () => {
    const clients = clientsThrough(proxy, NO_RETRIES);
    const container = clients.container(uniqueName('seed'));
    await container.create();
    const run = async (): Promise<string[]> => {
      proxy.setFaults({ rate: 0.5, kinds: ['500', '503'], seed: 2024 });
      const outcomes: string[] = [];
      await inSequence([...Array(30).keys()], async (n) => {
        try {
          await container.getBlockBlobClient(`b${n}`).upload('x', 1);
          outcomes.push('ok');
        } catch (error) {
          outcomes.push(String((error as { statusCode?: number }).statusCode));
        }
      });
      return outcomes;
    };
    const first = await run();
    expect(first).toContain('ok');
    expect(first.some((o) => o !== 'ok')).toBe(true);
    expect(await run()).toEqual(first);
  });
});
