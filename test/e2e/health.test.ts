/**
 * `GET /api/health` through the local host running the project's own functions: 200 while the
 * storage account answers, 503 with `"storage":"unreachable"` when it does not.
 */
import { azuriteConnectionString, freePort } from '../../tools/azurite';
import { startFaultProxy } from '../../tools/faultProxy/faultProxy';
import { startHost, type RunningHost } from '../support/host';
import { azuriteConnectionString as sharedAzurite, uniqueName } from '../support/storage';

let host: RunningHost | undefined;

afterEach(async () => {
  await host?.stop();
  host = undefined;
});

/** The app's queues, named for this test so its listeners never touch another test's messages. */
function ownQueues(): Record<string, string> {
  return {
    ARCHIVE_QUEUE: uniqueName('archive'),
    INDEX_QUEUE: uniqueName('index'),
    LOG_QUEUE: uniqueName('logs'),
  };
}

test('health is 200 with storage ok while Azurite answers', async () => {
  host = await startHost({ env: ownQueues() });
  const response = await fetch(`${host.baseUrl}/health`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toMatchObject({ status: 'ok', storage: 'ok' });
});

test('health is 503 with storage unreachable when nothing listens at the storage endpoints', async () => {
  const dead = { blob: await freePort(), queue: await freePort(), table: await freePort() };
  host = await startHost({
    env: { ...ownQueues(), AzureWebJobsStorage: azuriteConnectionString(dead) },
  });
  const response = await fetch(`${host.baseUrl}/health`);
  expect(response.status).toBe(503);
  // Asking again within the probe interval gets the same cached report.
  expect(response.headers.get('retry-after')).toBe('5');
  expect(await response.json()).toMatchObject({ status: 'degraded', storage: 'unreachable' });
});

test('200 health requests cost at most a handful of storage requests', async () => {
  // The app's storage goes through a counting proxy; the durable runtime's own state does not.
  const proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
  try {
    host = await startHost({
      env: {
        ...ownQueues(),
        AzureWebJobsStorage: proxy.connectionString,
        DurableStorage: sharedAzurite(),
        AzureFunctionsJobHost__extensions__durableTask__storageProvider__connectionStringName:
          'DurableStorage',
      },
    });
    proxy.resetCounts();
    const started = Date.now();
    const statuses: number[] = [];
    // 4 bursts of 50 concurrent requests: concurrent callers share one probe, later ones reuse it.
    for (let burst = 0; burst < 4; burst += 1) {
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => fetch(`${host!.baseUrl}/health`)),
      );
      for (const response of responses) {
        statuses.push(response.status);
        await response.arrayBuffer();
      }
    }
    const elapsedMs = Date.now() - started;
    const counts = proxy.counts();
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // The probe lists one table and one container (the queue listing shares the queue service
    // with the triggers' polling, so it is not counted separately here): one probe per 5 s.
    const probes = Math.ceil(elapsedMs / 5_000) + 1;
    const tableLists = counts.byKind['table:GET'] ?? 0;
    const blobLists = counts.byKind['blob:GET'] ?? 0;
    process.stdout.write(
      `200 health requests in ${elapsedMs} ms: table:GET ${tableLists}, blob:GET ${blobLists}, ` +
        `all storage requests ${counts.requests} (${JSON.stringify(counts.byKind)})\n`,
    );
    expect(tableLists).toBeLessThanOrEqual(probes);
    expect(blobLists).toBeLessThanOrEqual(probes);
  } finally {
    await host?.stop();
    host = undefined;
    await proxy.stop();
  }
});
