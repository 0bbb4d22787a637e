/**
 * The app under Azure's targets (docs/targets.md): the host's storage behind the targets front at
 * a factor that throttles heavily, eight callers writing and reading one department at once.
 * Every answer is a success or a 503 with `Retry-After` — never a 500 — and once the throttling
 * stops, every acknowledged write is there, with its indexes, and nothing half-written is left.
 */
import { startFaultProxy, type FaultProxy } from '../../../tools/faultProxy/faultProxy';
import { TargetsLimiter } from '../../../tools/targets/targetsLimiter';
import { startHost, type RunningHost } from '../../support/host';
import { eventually, expectJson, send, seg, uniqueDepartment, type Reply } from './client';

let proxy: FaultProxy;
let host: RunningHost;
const limiter = new TargetsLimiter({
  accountRequests: 60,
  partitionEntities: 15,
  queueMessages: 15,
  blobRequests: 5,
});

beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
  host = await startHost({ env: { AzureWebJobsStorage: proxy.connectionString } });
});
afterAll(async () => {
  await host?.stop();
  await proxy?.stop();
});

const CALLERS = 8;
const ROUNDS = 6;

it('answers 503 with Retry-After, never 500, and keeps every acknowledged write', async () => {
  const dept = uniqueDepartment('Throttled');
  const call = (method: string, path: string, json?: unknown): Promise<Reply> =>
    send(host.baseUrl, method, path, json === undefined ? {} : { json });
  expectJson(await call('PUT', `/departments/${seg(dept)}`, {}), 201);

  proxy.setTargets(limiter);
  const answers: Reply[] = [];
  const created = new Map<string, string>(); // id → last name acknowledged
  const deleted = new Set<string>();
  try {
    await Promise.all(
      Array.from({ length: CALLERS }, async (_, caller) => {
        for (let round = 0; round < ROUNDS; round++) {
          const id = String(caller * 100 + round + 1).padStart(6, '0');
          const base = `/departments/${seg(dept)}/employees`;
          const body = {
            employeeId: id,
            firstName: 'T',
            lastName: `Throttle${caller}`,
            email: `t${id}@contoso.com`,
          };
          const create = await call('POST', base, body);
          answers.push(create);
          if (create.status !== 201) continue;
          created.set(id, body.lastName);
          answers.push(await call('GET', `${base}/${id}`));
          const rename = await call('PATCH', `${base}/${id}`, { lastName: `Renamed${caller}` });
          answers.push(rename);
          if (rename.status === 200) created.set(id, `Renamed${caller}`);
          if (round % 3 === 2) {
            const removal = await call('DELETE', `${base}/${id}`);
            answers.push(removal);
            if (removal.status === 204) deleted.add(id);
          }
        }
      }),
    );
  } finally {
    proxy.setTargets(null);
  }

  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
  for (const answer of answers.filter((a) => a.status === 503)) {
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  // The targets did throttle (else this test shows nothing), and some work got through.
  expect(limiter.throttled().account + limiter.throttled().partition).toBeGreaterThan(0);
  expect(created.size).toBeGreaterThan(0);

  // Every acknowledged write is there, with its indexes, once the throttling has stopped.
  const base = `/departments/${seg(dept)}/employees`;
  for (const [id, lastName] of created) {
    const read = await call('GET', `${base}/${id}`);
    if (deleted.has(id)) {
      expect(read.status).toBe(404);
      continue;
    }
    // A rename whose answer was a 503 may or may not have landed: either name is acknowledged.
    expect(read.status).toBe(200);
    const stored = (read.body as { lastName: string }).lastName;
    expect([lastName, lastName.replace('Renamed', 'Throttle')]).toContain(stored);
    const byEmail = await call('GET', `${base}/by-email/${seg(`t${id}@contoso.com`)}`);
    expect(byEmail.status).toBe(200);
    await eventually(async () => {
      const search = await call(
        'GET',
        `/employees?lastName=${seg(stored)}&department=${seg(dept)}`,
      );
      const items = (search.body as { items?: { employeeId: string }[] }).items ?? [];
      return items.some((e) => e.employeeId === id) ? true : undefined;
    });
  }
  // The department's count is exactly what is there (nothing half-written).
  const listing = await call('GET', `${base}?fromId=000000&toId=999999&pageSize=1000`);
  const present = ((listing.body as { items: unknown[] }).items ?? []).length;
  const department = expectJson(await call('GET', `/departments/${seg(dept)}`), 200);
  expect(department.employeeCount).toBe(present);
}, 240_000);
