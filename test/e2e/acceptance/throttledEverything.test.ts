/**
 * Every route and trigger under Azure's targets (issue 43, docs/targets.md): the host's storage
 * behind the targets front at a factor that throttles heavily, while lanes of callers drive every
 * operation of the OpenAPI document, the queue triggers (index drains, archive, log flush), the
 * Durable orchestrations and their activities, and the three timers. Every answer is recorded: none
 * is a 500, every 503 carries `Retry-After`; once the throttling stops, the state converges (the
 * index audit finds nothing missing or stale, the counts are exact, the log lines are flushed, no
 * message is poisoned) and every acknowledged write is there.
 */
import { randomBytes } from 'node:crypto';
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { TargetsLimiter } from '../../../tools/targets/targetsLimiter';
import { startHost, type RunningHost } from '../../support/host';
import { uniqueStorageSettings } from '../../support/accounts';
import { uniqueName } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';
import { departmentPartitionKey } from '../../../src/storage/keys/tables/employees';
import { HUB_SETTING } from '../orchestrations/support';
import { eventually, expectJson, send, seg, uniqueDepartment } from './client';
import { RecordingClient, statusCounts, waitRetryAfter } from './throttledCalls';
import {
  ARCHIVED_ID,
  createEmployee,
  featureLane,
  FEATURE_ID,
  IMPORTED_IDS,
  Ledger,
  logWindow,
  MOVED_ID,
  peopleLane,
  serviceLane,
  startOrchestration,
  type TourPlan,
} from './throttledTour';

/**
 * Heavy: a handful of callers meet these within a second (Azure's figures ÷ 130 to ÷ 330). A
 * partition's target stays above one import chunk's transaction plus the reads before it: below
 * that, every retry's own reads spend the second and the transaction is never admitted.
 */
const limiter = new TargetsLimiter({
  accountRequests: 60,
  partitionEntities: 15,
  queueMessages: 10,
  blobRequests: 4,
});
/** Routes the tour does not call, and why. */
const NOT_TOURED: Record<string, string> = {
  webConsole: 'static files: no storage behind it',
};
const TIMERS = ['sweepIndexOutboxes', 'sweepUnadoptedPhotos', 'dropExpiredLoginTables'];

const settings = uniqueStorageSettings();
let proxy: FaultProxy;
let host: RunningHost;
let client: RecordingClient;

beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
  host = await startHost({
    env: {
      AzureWebJobsStorage: proxy.connectionString,
      ...settings,
      [HUB_SETTING]: `Thr${randomBytes(5).toString('hex')}`,
    },
  });
  client = new RecordingClient(host.baseUrl);
});
afterAll(async () => {
  proxy?.setTargets(null);
  await host?.stop();
  await proxy?.stop();
});

const plan: TourPlan = {
  main: uniqueDepartment('Throttled'),
  moveTarget: uniqueDepartment('MoveTo'),
  archived: uniqueDepartment('Gone'),
  logSource: uniqueName('thr'),
  userId: `u${randomBytes(4).toString('hex')}@contoso.com`,
  expensesTable: settings.EXPENSES_TABLE!,
  indexQueue: settings.INDEX_QUEUE!,
};

/** The orchestrations, the archive queue, the relocation route and the timers, under targets. */
async function backgroundLane(ledger: Ledger): Promise<void> {
  const main = seg(plan.main);
  await createEmployee(client, ledger, plan.main, ARCHIVED_ID, 'Archived');
  await createEmployee(client, ledger, plan.main, MOVED_ID, 'Moved');
  const rows = IMPORTED_IDS.map((id) => ({
    employeeId: id,
    firstName: 'I',
    lastName: 'Imported',
    email: `i${id}@contoso.com`,
  }));
  // The import answers per row: a row storage was too busy for is sent again, as a client
  // would; a row refused as existing was created by an earlier try answered 503.
  let pending = rows;
  for (let round = 0; pending.length > 0; round++) {
    expect(round).toBeLessThan(20);
    const path = `/departments/${seg(plan.archived)}/employees/import`;
    const reply = await client.persist('importEmployees', 'POST', path, {
      json: { employees: pending },
    });
    const failed = expectJson(reply, 200).failed as {
      employeeId: string;
      error: { code: string };
    }[];
    expect(failed.filter((f) => !['StorageBusy', 'EmployeeExists'].includes(f.error.code))).toEqual(
      [],
    );
    const busy = new Set(
      failed.filter((f) => f.error.code === 'StorageBusy').map((f) => f.employeeId),
    );
    pending = pending.filter((row) => busy.has(row.employeeId));
    if (pending.length > 0) await waitRetryAfter(null);
  }
  const queued = await client.persist(
    'requestEmployeeArchive',
    'POST',
    `/departments/${main}/employees/${ARCHIVED_ID}/archive`,
  );
  expect(queued.status).toBe(202);
  // The archive queue's trigger writes the record under the targets too.
  await eventually(async () => {
    const path = `/archive/departments/${main}/employees/${ARCHIVED_ID}`;
    const reply = await client.once('getArchivedEmployee', 'GET', path);
    if (reply.status === 503) await waitRetryAfter(reply.headers.get('retry-after'));
    return reply.status === 200 ? true : undefined;
  });
  await startOrchestration(
    client,
    ledger,
    'move',
    'startMoveEmployee',
    `/departments/${main}/employees/${MOVED_ID}/move`,
    { toDepartment: plan.moveTarget },
  );
  await startOrchestration(
    client,
    ledger,
    'archive',
    'startArchiveDepartment',
    `/departments/${seg(plan.archived)}/archive`,
  );
  await startOrchestration(
    client,
    ledger,
    'audit',
    'startIndexAudit',
    '/maintenance/indexes/audit',
    { repair: false },
  );
  // One account only: the route refuses an unknown account (4xx), never a 500.
  await client.persist('startRelocateDepartment', 'POST', `/departments/${main}/relocate`, {
    json: { account: 'nowhere' },
  });
  for (const timer of TIMERS) {
    const fired = await fetch(`${host.origin}/admin/functions/${timer}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fired.status).toBe(202);
  }
}

/**
 * Polls the orchestrations (recording every answer) until all ended or `untilMs` passed; their
 * statuses by what they do.
 */
async function pollOrchestrations(ledger: Ledger, untilMs: number): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  for (;;) {
    for (const [what, statusUri] of ledger.orchestrations) {
      if (ENDED.includes(statuses.get(what) ?? '')) continue;
      const reply = await client.once('getOrchestration', 'GET', statusUri.replace(/^\/api/, ''));
      if (reply.status === 200)
        statuses.set(what, (reply.body as { runtimeStatus: string }).runtimeStatus);
    }
    const ended = [...statuses.values()].filter((s) => ENDED.includes(s)).length;
    if (ended === ledger.orchestrations.size || Date.now() > untilMs) return statuses;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
const ENDED = ['Completed', 'Failed', 'Terminated'];

it('answers every route 503 with Retry-After or success, never 500, and loses nothing', async () => {
  const ledger = new Ledger();
  proxy.setTargets(limiter);
  try {
    for (const dept of [plan.main, plan.moveTarget, plan.archived]) {
      const put = await client.persist('putDepartment', 'PUT', `/departments/${seg(dept)}`, {
        json: {},
      });
      expect([200, 201]).toContain(put.status);
    }
    await Promise.all([
      ...[1, 2, 3, 4].map((caller) => peopleLane(client, ledger, plan, caller, 3)),
      featureLane(client, ledger, plan),
      serviceLane(client, ledger, plan),
      backgroundLane(ledger),
    ]);
    // The orchestrations' activities keep running under the targets for a while.
    const throttledStatuses = await pollOrchestrations(ledger, Date.now() + 20_000);
    console.log(`Orchestrations under targets: ${JSON.stringify([...throttledStatuses])}`);
  } finally {
    proxy.setTargets(null);
  }
  const statuses = await pollOrchestrations(ledger, Date.now() + WAIT_MS);
  expect(Object.fromEntries(statuses)).toEqual({
    move: 'Completed',
    archive: 'Completed',
    audit: 'Completed',
  });
  const throttled = limiter.throttled();
  console.log(
    `Throttled tour: answers ${JSON.stringify(statusCounts(client.answers))}, front refused ${JSON.stringify(throttled)}`,
  );

  // Never a 500; every 503 says when to come back; the front did throttle.
  expect(client.answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
  for (const answer of client.answers.filter((a) => a.status === 503)) {
    expect({ ...answer, retryAfter: Number(answer.retryAfter) > 0 }).toMatchObject({
      retryAfter: true,
    });
  }
  expect(throttled.account + throttled.partition + throttled.queue).toBeGreaterThan(100);

  // Every operation of the document was called.
  const document = expectJson(await send(host.baseUrl, 'GET', '/openapi.json'), 200) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const operations = Object.values(document.paths).flatMap((path) =>
    Object.values(path).map((op) => op.operationId),
  );
  const toured = client.operations();
  expect(operations.filter((op) => !toured.has(op) && !(op in NOT_TOURED))).toEqual([]);

  await expectConverged(ledger);
}, 300_000);

/** Once the throttling stopped: the indexes audit clean, and everything acknowledged is there. */
async function expectConverged(ledger: Ledger): Promise<void> {
  const get = (path: string) => send(host.baseUrl, 'GET', path);
  await eventually(async () => {
    const started = expectJson(
      await send(host.baseUrl, 'POST', '/maintenance/indexes/audit', { json: {} }),
      202,
    );
    const status = await eventually(async () => {
      const reply = expectJson(await get(String(started.statusUri).replace(/^\/api/, '')), 200);
      return ['Completed', 'Failed'].includes(String(reply.runtimeStatus)) ? reply : undefined;
    });
    const output = status.output as { missing: number; stale: number };
    return output.missing === 0 && output.stale === 0 ? true : undefined;
  });
  for (const [key, e] of ledger.employees) {
    const path = `/departments/${seg(e.department)}/employees/${e.id}`;
    if (ledger.deleted.has(key)) {
      expect((await get(path)).status).toBe(404);
      continue;
    }
    if (e.id === ARCHIVED_ID || e.id === MOVED_ID) continue;
    expect(expectJson(await get(path), 200)).toMatchObject({
      lastName: e.lastName,
      email: e.email,
    });
    const byEmail = await get(
      `/departments/${seg(e.department)}/employees/by-email/${seg(e.email)}`,
    );
    expect(byEmail.status).toBe(200);
  }
  // The queue-triggered archive, the move and the department archive all took effect.
  const main = seg(plan.main);
  // The record is written before the employee is removed (a retried message finishes the job).
  await eventually(async () =>
    (await get(`/archive/departments/${main}/employees/${ARCHIVED_ID}`)).status === 200 &&
    (await get(`/departments/${main}/employees/${ARCHIVED_ID}`)).status === 404
      ? true
      : undefined,
  );
  expect((await get(`/departments/${seg(plan.moveTarget)}/employees/${MOVED_ID}`)).status).toBe(
    200,
  );
  expect((await get(`/departments/${main}/employees/${MOVED_ID}`)).status).toBe(404);
  for (const id of IMPORTED_IDS) {
    expect((await get(`/archive/departments/${seg(plan.archived)}/employees/${id}`)).status).toBe(
      200,
    );
    expect((await get(`/departments/${seg(plan.archived)}/employees/${id}`)).status).toBe(404);
  }
  // Counts exact: each department's count is what it holds.
  for (const dept of [plan.main, plan.moveTarget, plan.archived]) {
    const listing = expectJson(
      await get(`/departments/${seg(dept)}/employees?fromId=000000&toId=999999&pageSize=1000`),
      200,
    );
    const count = expectJson(await get(`/departments/${seg(dept)}`), 200).employeeCount;
    expect({ dept, count }).toEqual({ dept, count: (listing.items as unknown[]).length });
  }
  const feature = `/departments/${main}/employees/${FEATURE_ID}`;
  const claims = expectJson(await get(`${feature}/expenses?top=50`), 200).items as {
    claimId: string;
  }[];
  expect(claims.map((c) => c.claimId).sort()).toEqual([...ledger.expenseClaims].sort());
  const reviews = expectJson(await get(`${feature}/reviews`), 200).items as unknown[];
  expect(reviews).toHaveLength(ledger.reviewYears.length);
  const hourly = expectJson(
    await get(`${feature}/messages/hourly?day=${new Date().toISOString().slice(0, 10)}`),
    200,
  ).hours as number[];
  for (const [hour, count] of ledger.messagesByHour) expect(hourly[hour]).toBe(count);
  expect((await get(`${feature}/photo`)).status).toBe(302);
  const window = `from=${new Date(Date.now() - 7_200_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`;
  const events = expectJson(await get(`${feature}/access-events?${window}`), 200)
    .items as unknown[];
  expect(events).toHaveLength(ledger.accessEvents.length);
  const logins = expectJson(await get(`/logins/${seg(plan.userId)}?days=1`), 200)
    .items as unknown[];
  expect(logins).toHaveLength(ledger.logins.length);
  // The operations view counted the throttles of the callers' partition (apart from conflicts).
  const throttling = expectJson(await get('/operations'), 200).throttling as
    { accounts: { scopes: { partitionKey?: string; throttled: number }[] }[] } | undefined;
  const scopes = throttling?.accounts.flatMap((account) => account.scopes) ?? [];
  const mainKey = departmentPartitionKey(plan.main);
  expect(
    scopes.filter((scope) => scope.partitionKey === mainKey && scope.throttled > 0),
  ).not.toEqual([]);
  let logged = '';
  await eventually(async () => {
    logged = (await get(logWindow(plan.logSource))).text;
    return ledger.logLines.every((line) => logged.includes(line)) ? true : undefined;
  }).catch(async (error: unknown) => {
    const view = (await get('/operations')).text;
    const flushes = host
      .output()
      .split('\n')
      .filter((line) => /flushLogBatches|log messages/.test(line))
      .slice(-40)
      .join('\n');
    throw new Error(`Log lines not flushed: ${logged}\noperations: ${view}\nflushes:\n${flushes}`, {
      cause: error,
    });
  });
  // Nothing poisoned; every timer ran and recorded its run.
  const overview = expectJson(await get('/operations'), 200) as {
    poisonQueues: { queue: string; approximateCount: number }[];
    timers: { timer: string; outcome: string }[];
  };
  const poisoned = overview.poisonQueues.filter((q) => q.approximateCount > 0);
  // A poisoned message says why in the host's lines of its failed deliveries.
  const lines = host.output().split('\n');
  const failures = lines
    .flatMap((line, i) =>
      /\(Failed/.test(line)
        ? [line, lines[i + 1]!]
        : /MaxDequeueCount|\] Message /.test(line)
          ? [line]
          : [],
    )
    .slice(-60);
  expect({ poisoned, failures: poisoned.length > 0 ? failures : [] }).toEqual({
    poisoned: [],
    failures: [],
  });
  expect(overview.timers.map((t) => t.timer).sort()).toEqual(
    expect.arrayContaining([...TIMERS].sort()),
  );
}
