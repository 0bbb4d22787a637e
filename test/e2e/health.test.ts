/**
 * `GET /api/health` through the local host running the project's own functions: 200 while the
 * storage account answers, 503 with `"storage":"unreachable"` when it does not.
 */
import { azuriteConnectionString, freePort } from '../../tools/azurite';
import { startHost, type RunningHost } from '../support/host';
import { uniqueName } from '../support/storage';

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
  expect(await response.json()).toMatchObject({ status: 'degraded', storage: 'unreachable' });
});
