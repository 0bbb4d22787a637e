/**
 * Requests that never get an answer: the per-try deadline of `createStorageClients`
 * (`STORAGE_TRY_TIMEOUT_MS`) abandons the try and the SDK retries it. The proxy holds faulted
 * requests for a minute, so only the client's own deadline can get these operations through.
 *
 * The deadlines here are short, so this file brings its own Azurite: the run's shared emulator
 * can stall for seconds while other workers load it, which would time out tries the proxy never
 * held (a CI run lost both scenarios that way, its container create included).
 */
import type { TableEntity } from '@azure/data-tables';
import { UnavailableError } from '../../../src/domainErrors';
import { withStorageErrors } from '../../../src/storage/storageFaults';
import { departmentPartitionKey, employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { startAzurite, type RunningAzurite } from '../../../tools/azurite';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { testClients as clientsOf, uniqueName, uniqueTableName } from '../../support/storage';
import { clientsThrough, collect, inSequence } from './proxyFixture';

/** Per-try deadline well above an idle emulator's answer time, far below the proxy's hold. */
const TRY_MS = 1_000;
const SHORT_TRIES = { STORAGE_TRY_TIMEOUT_MS: String(TRY_MS), STORAGE_MAX_RETRIES: '8' };
const HOLD_MS = 60_000;
const pk = departmentPartitionKey('Sales');
const numbers = (count: number): number[] => [...Array(count).keys()];

let azurite: RunningAzurite;
let proxy: FaultProxy;
const testClients = (): ReturnType<typeof clientsOf> => clientsOf(azurite.connectionString);
beforeAll(async () => {
  azurite = await startAzurite();
  proxy = await startFaultProxy({ target: azurite.ports });
});
afterAll(async () => {
  await proxy?.stop();
  await azurite?.stop();
});
beforeEach(() => {
  proxy.setFaults(null);
  proxy.resetCounts();
});

it('lands 30 table upserts while 30% of requests hang', async () => {
  const name = uniqueTableName('Hang');
  await testClients().tableService().createTable(name);
  const table = clientsThrough(proxy, SHORT_TRIES).table(name);
  proxy.setFaults({
    rate: 0.3,
    kinds: ['timeout'],
    timeoutMs: HOLD_MS,
    services: ['table'],
    seed: 30,
  });

  await inSequence(numbers(30), (n) =>
    table.upsertEntity({
      partitionKey: pk,
      rowKey: employeeRowKey(String(n).padStart(6, '0')),
      N: n,
    }),
  );

  const { faultsInjected: faults, requests } = proxy.counts();
  expect(faults).toBeGreaterThan(3);
  // Every hung try was abandoned and sent again (a slow answer abandoned too is one more). Had a
  // hang waited out the proxy's one-minute hold instead, the test would have run out of time.
  expect(requests).toBeGreaterThanOrEqual(30 + faults);
  proxy.setFaults(null);
  expect(
    await collect(testClients().table(name).listEntities<TableEntity<{ N: number }>>()),
  ).toHaveLength(30);
});

it('lands blob uploads and queue messages while 30% of requests hang', async () => {
  const containerName = uniqueName('hang');
  const queueName = uniqueName('hang');
  await testClients().container(containerName).create();
  await testClients().queue(queueName).create();
  const clients = clientsThrough(proxy, SHORT_TRIES);
  proxy.setFaults({
    rate: 0.3,
    kinds: ['timeout'],
    timeoutMs: HOLD_MS,
    services: ['blob', 'queue'],
    seed: 31,
  });

  await inSequence(numbers(15), (n) =>
    clients.container(containerName).getBlockBlobClient(`${n}.txt`).upload('x', 1),
  );
  await inSequence(numbers(15), (n) => clients.queue(queueName).sendMessage(String(n)));

  expect(proxy.counts().byFault.timeout).toBeGreaterThan(3);
  proxy.setFaults(null);
  expect(await collect(testClients().container(containerName).listBlobsFlat())).toHaveLength(15);
  // A hung request never reached storage, so retrying it did not send a message twice.
  expect((await testClients().queue(queueName).getProperties()).approximateMessagesCount).toBe(15);
});

it('reports storage as unavailable once every try has timed out', async () => {
  const table = clientsThrough(proxy, {
    STORAGE_TRY_TIMEOUT_MS: '200',
    STORAGE_MAX_RETRIES: '2',
  }).table(uniqueTableName('Never'));
  proxy.setFaults({ rate: 1, kinds: ['timeout'], timeoutMs: HOLD_MS });

  await expect(
    withStorageErrors(() => table.getEntity(pk, employeeRowKey('000001'))),
  ).rejects.toThrow(UnavailableError);
  expect(proxy.counts().byKind).toEqual({ 'table:GET': 3 });
});

it("still lets the caller's own abort signal end the whole operation", async () => {
  const table = clientsThrough(proxy, { STORAGE_TRY_TIMEOUT_MS: '10000' }).table(
    uniqueTableName('Abort'),
  );
  proxy.setFaults({ rate: 1, kinds: ['timeout'], timeoutMs: HOLD_MS });

  // An AbortError, not the per-try deadline's ETIMEDOUT 10 s later: the caller's signal ended it.
  await expect(
    table.getEntity(pk, employeeRowKey('000001'), { abortSignal: AbortSignal.timeout(300) }),
  ).rejects.toMatchObject({ name: 'AbortError' });
  expect(proxy.counts().requests).toBe(1);
});
