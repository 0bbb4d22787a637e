/**
 * `GET /api/operations` and the poison routes through the local host: a backlog made on purpose
 * (a host without index workers, its department marked pending as a cover that could not be
 * stored marks it) shows as pending outbox rows of the department, a second host
 * drains it and the view shows it gone, with the outbox sweep's last run; a poison message is
 * inspected decoded and replayed twice (moved once); unknown queues are refused with 400, and a
 * replay is a write like any other (JSON only, same-site only).
 */
import type { RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { sendJsonMessage } from '../../../src/storage/queue';
import { markPending } from '../../../src/indexing/drain/pendingMarkers';
import {
  eventually,
  expectError,
  expectJson,
  send,
  seg,
  uniqueDepartment,
} from '../acceptance/client';
import {
  backlogSettings,
  removeBacklogStorage,
  startDrainingHost,
  startUndrainedHost,
} from './backlog';

interface Overview {
  outbox: {
    departmentsChecked: number;
    departments: { department: string; pending: number; oldestAgeSeconds: number }[];
  };
  poisonQueues: { queue: string; poisonQueue: string; approximateCount: number }[];
  timers: { timer: string; outcome: string }[];
  logBacklog: { queue: string; approximateCount: number };
}

const settings = backlogSettings();
const dept = uniqueDepartment('Ops');
let api: RunningHost;
let drainer: RunningHost | undefined;

beforeAll(async () => {
  api = await startUndrainedHost(settings);
});
afterAll(async () => {
  await Promise.allSettled([api?.stop(), drainer?.stop()]);
  await removeBacklogStorage(settings);
});

const overview = async (): Promise<Overview> =>
  expectJson(await send(api.baseUrl, 'GET', '/operations'), 200) as unknown as Overview;

describe('GET /api/operations', () => {
  it('shows a made backlog and, once a worker runs, its drain and the sweep run', async () => {
    expect((await send(api.baseUrl, 'PUT', `/departments/${seg(dept)}`, { json: {} })).status).toBe(
      201,
    );
    for (let n = 1; n <= 3; n++) {
      const created = await send(api.baseUrl, 'POST', `/departments/${seg(dept)}/employees`, {
        json: {
          employeeId: `00000${n}`,
          firstName: 'Op',
          lastName: `Erator${n}`,
          email: `op${n}@contoso.com`,
        },
      });
      expect(created.status).toBe(201);
    }

    // Work a stored cover answers for is the queue's: the view lists marked departments only.
    expect((await overview()).outbox.departments).toEqual([]);
    await markPending(testClients().table(settings.EMPLOYEES_TABLE), dept, 'cover-failed');
    const before = await overview();
    expect(before.outbox.departmentsChecked).toBe(1);
    expect(before.outbox.departments).toEqual([
      expect.objectContaining({ department: dept, pending: 3 }),
    ]);
    expect(before.poisonQueues.map((q) => q.queue)).toEqual([
      settings.ARCHIVE_QUEUE,
      settings.INDEX_QUEUE,
      settings.LOG_QUEUE,
    ]);
    expect(before.timers).toEqual([]);

    drainer = await startDrainingHost(settings);
    const after = await eventually(async () => {
      const current = await overview();
      const swept = current.timers.find((t) => t.timer === 'sweepIndexOutboxes');
      return current.outbox.departments.length === 0 && swept ? current : undefined;
    });
    expect(after.timers).toEqual([
      expect.objectContaining({ timer: 'sweepIndexOutboxes', outcome: 'succeeded' }),
    ]);
    // The index the drain wrote answers the eventual read.
    const eventual = await send(
      api.baseUrl,
      'GET',
      `/departments/${seg(dept)}/employees/by-email/${seg('op2@contoso.com')}?consistency=eventual`,
    );
    expect(eventual.status).toBe(200);
  });
});

describe('poison messages', () => {
  it('are inspected decoded and replayed once however often the replay runs', async () => {
    const poison = testClients().queue(`${settings.ARCHIVE_QUEUE}-poison`);
    await poison.createIfNotExists();
    const payload = { v: 1, department: dept, employeeId: '000404' };
    const messageId = await sendJsonMessage(poison, payload);

    const counted = await overview();
    expect(counted.poisonQueues.find((q) => q.queue === settings.ARCHIVE_QUEUE)).toEqual({
      queue: settings.ARCHIVE_QUEUE,
      poisonQueue: `${settings.ARCHIVE_QUEUE}-poison`,
      approximateCount: 1,
    });
    const inspected = expectJson(
      await send(api.baseUrl, 'GET', `/operations/poison/${settings.ARCHIVE_QUEUE}?max=5`),
      200,
    );
    expect(inspected).toEqual({
      queue: settings.ARCHIVE_QUEUE,
      items: [expect.objectContaining({ messageId, dequeueCount: 0, body: payload })],
    });

    const replay = `/operations/poison/${settings.ARCHIVE_QUEUE}/replay`;
    const first = expectJson(await send(api.baseUrl, 'POST', replay, { json: { max: 32 } }), 200);
    expect(first).toMatchObject({
      queue: settings.ARCHIVE_QUEUE,
      moved: 1,
      items: [{ messageId }],
    });
    const second = expectJson(await send(api.baseUrl, 'POST', replay, { json: {} }), 200);
    expect(second).toEqual({ queue: settings.ARCHIVE_QUEUE, moved: 0, items: [] });
  });

  it('refuses queues the app does not use, bad bounds, non-JSON and cross-site replays', async () => {
    expectError(
      await send(api.baseUrl, 'GET', '/operations/poison/other-queue'),
      400,
      'UnknownQueue',
    );
    expectError(
      await send(api.baseUrl, 'GET', `/operations/poison/${settings.INDEX_QUEUE}-poison`),
      400,
      'UnknownQueue',
    );
    expectError(
      await send(api.baseUrl, 'GET', `/operations/poison/${settings.INDEX_QUEUE}?max=33`),
      400,
      'InvalidInput',
    );
    const replay = `/operations/poison/${settings.INDEX_QUEUE}/replay`;
    expectError(
      await send(api.baseUrl, 'POST', replay, { json: { max: 257 } }),
      400,
      'InvalidInput',
    );
    expect(
      (
        await send(api.baseUrl, 'POST', replay, {
          raw: 'max=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(415);
    expectError(
      await send(api.baseUrl, 'POST', replay, {
        json: {},
        headers: { 'sec-fetch-site': 'cross-site' },
      }),
      403,
      'CrossSiteRequest',
    );
  });
});
