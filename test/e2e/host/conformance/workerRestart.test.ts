/**
 * At `functionTimeout` Azure restarts the worker, not just the one invocation: every invocation
 * in flight fails, the app loads again (appStart runs again) and its in-memory state is gone.
 * Source: azure-functions-host, a FunctionTimeoutException restarts the language worker channel
 * (learn.microsoft.com azure-functions/functions-host-json "functionTimeout").
 */
import path from 'node:path';
import { HOSTAPP_ROOT, startHostApp, type HostApp } from '../hostApp';
import { WAIT_MS } from '../../../support/waits';

let app: HostApp;

beforeAll(async () => {
  app = await startHostApp({}, { hostJsonPath: path.join(HOSTAPP_ROOT, 'host.timeout.json') });
});
afterAll(async () => {
  await app?.host.stop();
});

interface WorkerState {
  loadId: string;
  appStarts: number;
  cached: string[];
}

async function state(): Promise<WorkerState> {
  return (await (await fetch(`${app.host.baseUrl}/worker/state`)).json()) as WorkerState;
}

it('a timeout fails every running invocation, runs appStart again and drops in-memory state', async () => {
  const before = await state();
  expect(before.appStarts).toBe(1);
  expect((await fetch(`${app.host.baseUrl}/worker/cache/k1`, { method: 'PUT' })).status).toBe(204);
  expect((await state()).cached).toEqual(['k1']);

  // The first runs past the 2 s functionTimeout; the second starts after it, so the restart at
  // the first one's deadline comes before its own.
  const first = fetch(`${app.host.baseUrl}/worker/wait/60000`);
  await app.waitForRecords((r) => r.some((x) => x.fn === 'workerWait' && x.event === 'started'));
  const second = fetch(`${app.host.baseUrl}/worker/wait/60000`);
  await app.waitForRecords(
    (r) => r.filter((x) => x.fn === 'workerWait' && x.event === 'started').length === 2,
  );
  expect((await first).status).toBe(500);
  expect((await second).status).toBe(500);
  expect(app.host.output()).toContain(
    "Function 'workerWait' was running when the worker restarted",
  );

  // Requests wait for the restart under way, so the next answer comes from the new worker.
  const deadline = Date.now() + WAIT_MS;
  let after = await state();
  while (after.loadId === before.loadId && Date.now() < deadline) after = await state();
  // A fresh module: appStart ran once more on it, and the cache is empty.
  expect(after).toEqual({ loadId: expect.any(String), appStarts: 1, cached: [] });
  const starts = app.records('appStart').map((r) => r.loadId);
  expect(starts).toEqual([before.loadId, after.loadId]);
});
