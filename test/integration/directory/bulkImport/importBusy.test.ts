/**
 * An import that storage is too busy to write at all (issue 43, docs/targets.md): the department's
 * partition behind a targets front whose per-partition target is below one chunk's transaction,
 * so every chunk is refused `ServerBusy` past the SDK's retries. Nothing is written, and the call
 * fails as a `ThrottledError` (503 `StorageBusy` with `Retry-After` over HTTP) instead of answering
 * 200 with every row failed and no word on when to come back.
 */
import { ThrottledError } from '../../../../src/domainErrors';
import { createDirectory } from '../../../../src/directory';
import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { TargetsLimiter } from '../../../../tools/targets/targetsLimiter';
import { testClients, uniqueTableName } from '../../../support/storage';
import { employeeBody, partitionEntities } from '../fixture';

const name = uniqueTableName('EmpBusy');
let front: FaultProxy;

beforeAll(async () => {
  front = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(async () => {
  await front?.stop();
  await testClients()
    .table(name)
    .deleteTable()
    .catch(() => undefined);
});

it('answers busy, not 200 with every row failed, when no chunk could be written', async () => {
  const table = testClients(front.connectionString).table(name);
  const directory = createDirectory({ employees: table, changes: { publish: async () => {} } });
  await directory.departments.put('Busy imports', {});
  // 15 entities/s per partition: a chunk of 10 rows (20 employee rows, their index entities, the
  // outbox row and a count shard) is never admitted; the reads before it are.
  front.setTargets(
    new TargetsLimiter({
      accountRequests: 1_000,
      partitionEntities: 15,
      queueMessages: 1_000,
      blobRequests: 1_000,
    }),
  );
  const rows = Array.from({ length: 10 }, (_, i) => employeeBody(i + 1));
  let outcome: unknown;
  try {
    outcome = await directory.employees.import('Busy imports', rows);
  } catch (error) {
    outcome = error;
  } finally {
    front.setTargets(null);
  }
  expect(outcome).toBeInstanceOf(ThrottledError);
  expect(outcome).toMatchObject({ code: 'StorageBusy' });
  expect((outcome as ThrottledError).retryAfterSeconds).toBeGreaterThan(0);
  const stored = await partitionEntities(testClients().table(name), 'Busy imports');
  expect(stored.filter((e) => e.EntityType === 'Employee.v1')).toEqual([]);
  // Sent again once storage has room: every row goes in.
  await expect(directory.employees.import('Busy imports', rows)).resolves.toEqual({
    created: 10,
    failed: [],
  });
});
