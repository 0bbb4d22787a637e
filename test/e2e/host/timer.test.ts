/**
 * Timer triggers on the local host: NCRONTAB schedules in UTC, `runOnStartup`, the timer object
 * with `isPastDue` and the persisted schedule status, and past-due detection after downtime.
 */
import { randomBytes } from 'node:crypto';
import { testClients } from '../../support/storage';
import { startHostApp, type HostApp } from './hostApp';
import { WAIT_MS } from '../../support/waits';

const clients = testClients();
let app: HostApp | undefined;

afterEach(async () => {
  await app?.host.stop();
  app = undefined;
});

interface TimerRecord {
  timer: {
    isPastDue: boolean;
    schedule: { adjustForDST: boolean };
    scheduleStatus: { last: string; next: string; lastUpdated: string } | null;
  };
  at: number;
}

function timerRecords(hostApp: HostApp): TimerRecord[] {
  return hostApp.records('fixtureTimer') as unknown as TimerRecord[];
}

test('runOnStartup fires the timer once at startup, with isPastDue false and the schedule status', async () => {
  app = await startHostApp({ HOSTAPP_TIMER_RUN_ON_STARTUP: 'true' });
  await app.waitForRecords((records) => records.some((r) => r.fn === 'fixtureTimer'));
  const [fired] = timerRecords(app);
  expect(fired!.timer.isPastDue).toBe(false);
  expect(fired!.timer.schedule).toEqual({ adjustForDST: true });
  // A yearly schedule is monitored: its next occurrence is next 1 January, 00:00 UTC.
  const nextNewYear = `${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`;
  expect(fired!.timer.scheduleStatus).toMatchObject({ next: nextNewYear });
  await new Promise((r) => setTimeout(r, 500));
  expect(timerRecords(app)).toHaveLength(1);
});

test('a six-field schedule fires at its occurrences (every second), without a monitor below one minute', async () => {
  app = await startHostApp({ HOSTAPP_TIMER_SCHEDULE: '* * * * * *' });
  await app.waitForRecords(
    (records) => records.filter((r) => r.fn === 'fixtureTimer').length >= 3,
    10_000,
  );
  const fired = timerRecords(app);
  for (const record of fired) {
    expect(record.timer.isPastDue).toBe(false);
    expect(record.timer.scheduleStatus).toBeNull();
  }
  // Occurrences are whole seconds apart (allowing for invocation latency).
  const gaps = fired.slice(1, 3).map((r, i) => r.at - fired[i]!.at);
  for (const gap of gaps) expect(gap).toBeGreaterThan(500);
});

test('an occurrence missed while the host was down fires at startup with isPastDue true', async () => {
  const hostId = `test-${randomBytes(8).toString('hex')}`;
  // The status a host left behind: last ran on 1 January 2020, next due 1 January 2021.
  const status = {
    Last: '2020-01-01T00:00:00.000Z',
    Next: '2021-01-01T00:00:00.000Z',
    LastUpdated: '2020-01-01T00:00:01.000Z',
  };
  const container = clients.container('azure-webjobs-hosts');
  await container.createIfNotExists();
  const text = JSON.stringify(status);
  await container
    .getBlockBlobClient(`timers/${hostId}/Host.Functions.fixtureTimer/status`)
    .upload(text, Buffer.byteLength(text));

  app = await startHostApp({ AzureFunctionsWebHost__hostid: hostId });
  await app.waitForRecords((records) => records.some((r) => r.fn === 'fixtureTimer'));
  const [fired] = timerRecords(app);
  expect(fired!.timer.isPastDue).toBe(true);
  expect(fired!.timer.scheduleStatus).toMatchObject({ last: status.Last, next: status.Next });

  // After the run the status records it, and the next occurrence is in the future.
  const saved = await waitForStatus(container, hostId, (s) => s.Last !== status.Last);
  expect(Date.parse(saved.Next)).toBeGreaterThan(Date.now());
});

test('the admin endpoint fires a timer function on demand', async () => {
  app = await startHostApp();
  const response = await fetch(`${app.host.origin}/admin/functions/fixtureTimer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(response.status).toBe(202);
  await app.waitForRecords((records) => records.some((r) => r.fn === 'fixtureTimer'));
  expect(timerRecords(app)[0]!.timer.isPastDue).toBe(false);
});

async function waitForStatus(
  container: ReturnType<typeof clients.container>,
  hostId: string,
  predicate: (status: { Last: string; Next: string }) => boolean,
): Promise<{ Last: string; Next: string }> {
  const blob = container.getBlockBlobClient(`timers/${hostId}/Host.Functions.fixtureTimer/status`);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const status = JSON.parse((await blob.downloadToBuffer()).toString('utf8')) as {
      Last: string;
      Next: string;
    };
    if (predicate(status)) return status;
    if (Date.now() > deadline) throw new Error(`Status never matched: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
