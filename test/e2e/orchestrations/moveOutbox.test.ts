/**
 * Nothing a move writes waits for the outbox sweep: a move's copy into its target records a change
 * in the target's index outbox, and the move publishes it as any writer does (a cover and the
 * writer's drain, src/indexing/queue/queueChangeSink.ts). Through the local host, with the sweep
 * scheduled out of reach, two employees of another department move into one seeded with 150
 * employees, and neither department's outbox holds a row 30 s after the moves' completion (read
 * from storage: the operations view lists only departments marked pending, issue #45).
 */
import { odata } from '@azure/data-tables';
import type { RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { outboxRowKeyRange } from '../../../src/storage/keys/tables/outbox';
import { COVER_DELAY_SECONDS } from '../../../src/indexing/queue/queueChangeSink';
import { hostWith, isolatedSettings, pollUntilEnded, seedDepartment, send } from './support';

let host: RunningHost;
const settings = isolatedSettings();

/** Pending outbox rows per department, read from the host's `Employees` table. */
async function pendingOutbox(): Promise<Record<string, number>> {
  const range = outboxRowKeyRange();
  const pending: Record<string, number> = {};
  for (const department of ['Engineering', 'Sales']) {
    for await (const row of testClients()
      .table(settings.EMPLOYEES_TABLE!)
      .listEntities({
        queryOptions: {
          filter: odata`PartitionKey eq ${department} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
          select: ['RowKey'],
        },
      })) {
      if (row.rowKey) pending[department] = (pending[department] ?? 0) + 1;
    }
  }
  return pending;
}

/** Polls until no outbox row is pending or `ms` passed; the last reading. */
async function drainedWithin(ms: number): Promise<Record<string, number>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const pending = await pendingOutbox();
    if (Object.keys(pending).length === 0 || Date.now() > deadline) return pending;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  host = await hostWith({
    ...settings,
    // Once a year: no sweep during the test (and none at startup).
    INDEX_OUTBOX_SWEEP_SCHEDULE: '0 0 0 1 1 *',
  });
  await seedDepartment(
    host,
    'Engineering',
    Array.from({ length: 150 }, (_, i) => ({
      employeeId: String(i + 1).padStart(6, '0'),
      lastName: `Engineer${i % 40}`,
      email: `e${i + 1}@contoso.com`,
    })),
  );
  await seedDepartment(host, 'Sales', [
    { employeeId: '000901', lastName: 'Engineer3', email: 's901@contoso.com' },
    { employeeId: '000902', lastName: 'Jones', email: 's902@contoso.com' },
  ]);
  expect(await drainedWithin(60_000)).toEqual({});
  // The seeding's covers answer for rows written until they surface: moving only after their
  // window leaves the moves' rows to the moves' own publishing.
  await new Promise((resolve) => setTimeout(resolve, (COVER_DELAY_SECONDS + 1) * 1000));
}, 240_000);
afterAll(() => host?.stop());

it('drains the outbox rows of moves into a 150-employee department within 30 s, with no sweep', async () => {
  for (const employeeId of ['000901', '000902']) {
    const started = await send(host, 'POST', `/departments/Sales/employees/${employeeId}/move`, {
      toDepartment: 'Engineering',
    });
    expect(started.status).toBe(202);
    const status = await pollUntilEnded(host, String(started.json.statusUri));
    expect(status).toMatchObject({ runtimeStatus: 'Completed', output: { moved: true } });
  }
  const completedAt = Date.now();
  expect(await drainedWithin(30_000)).toEqual({});
  expect(Date.now() - completedAt).toBeLessThan(30_000);
  expect((await send(host, 'GET', '/departments/Engineering')).json.employeeCount).toBe(152);
  expect(host.output()).not.toMatch(/Functions\.sweepIndexOutboxes/);
}, 180_000);
