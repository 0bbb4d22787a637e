/**
 * A malformed optional setting turns off only the feature that needs it: the host still loads
 * every function file (the Node worker would stop at the first one that throws while loading),
 * the other routes answer, health names the setting, and the app logs one line about it.
 */
import { startHost, type RunningHost } from '../support/host';
import { asAdmin, asPrincipal, telemetryPrincipal } from '../support/principals';

let host: RunningHost | undefined;

afterAll(async () => {
  await host?.stop();
});

test('a malformed LOG_MAX_BATCH_BYTES (and a malformed schedule) leaves the other functions registered and answering', async () => {
  host = await startHost({
    env: { LOG_MAX_BATCH_BYTES: 'abc', LOGIN_CLEANUP_SCHEDULE: 'every day' },
  });

  // Every function file loaded: the ones after functions/logs.ts too, and the ones whose
  // registration reads a setting while loading (the timer's schedule, the queue names).
  const functions = JSON.stringify(await (await fetch(`${host.origin}/admin/functions`)).json());
  for (const name of [
    'health',
    'putDepartment',
    'dropExpiredLoginTables',
    'flushLogBatches',
    'archiveEmployee',
    'indexUpdates',
  ]) {
    expect(functions).toContain(`"${name}"`);
  }

  const health = await fetch(`${host.baseUrl}/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({
    status: 'degraded',
    storage: 'ok',
    settings: { invalid: ['LOGIN_CLEANUP_SCHEDULE', 'LOG_MAX_BATCH_BYTES'] },
  });

  const department = await fetch(
    `${host.baseUrl}/departments/Settings${Date.now()}`,
    asAdmin({
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'still works' }),
    }),
  );
  expect(department.status).toBe(201);

  // The feature that needs the setting says which one, instead of guessing a limit.
  const logs = await fetch(
    `${host.baseUrl}/logs`,
    asPrincipal(telemetryPrincipal, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'e2e', entries: [{ level: 'info', message: 'hello' }] }),
    }),
  );
  expect(logs.status).toBe(503);
  const body = (await logs.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('SettingInvalid');
  expect(body.error.message).toContain('LOG_MAX_BATCH_BYTES');

  // One clear line per bad setting in the app's log.
  const output = host.output();
  expect(
    output.match(/Configuration: Setting LOG_MAX_BATCH_BYTES must be a whole number/g),
  ).toHaveLength(1);
  expect(output).toMatch(/Configuration: Setting LOGIN_CLEANUP_SCHEDULE must be a six-field/);
});
