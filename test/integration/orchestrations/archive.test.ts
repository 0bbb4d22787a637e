/**
 * The department archive's activities against real Azurite: listing pages while archiving never
 * skips or repeats an employee, archiving each chunk twice (a replayed activity) ends with every
 * employee archived exactly once and gone from the directory, and an unknown department is
 * refused.
 */
import {
  archiveEmployeeChunkActivity,
  listEmployeePageActivity,
  type EmployeeIdPage,
} from '../../../src/orchestrations/archive/archiveActivities';
import { isRefusal } from '../../../src/orchestrations/refusal';
import type { OrchestrationServices } from '../../../src/orchestrations/services';
import type { EmployeeChangeSink } from '../../../src/directory/changes';
import { createContext } from '../../../src/directory/context';
import { createDirectory } from '../../../src/directory/directory';
import { queueChangeSink } from '../../../src/indexing/queue/queueChangeSink';
import { uniqueName } from '../../support/storage';
import { createIndexingFixture } from '../indexing/fixture';
import { chunk } from '../../../src/orchestrations/retryPolicy';
import { createWorld, people, seed, type TestWorld } from './support';

let world: TestWorld;
// Pages and chunks as the archive takes them (ARCHIVE_PAGE_SIZE, ARCHIVE_CHUNK_SIZE), small: the
// tiling is the same at 1,000 and 100, which the bench's scale case runs at real sizes.
const PAGE_SIZE = 10;
const CHUNK_SIZE = 4;
const SIZE = 3 * PAGE_SIZE + 3;

beforeAll(async () => {
  world = await createWorld();
  await seed(world.directory, 'Sales', people(SIZE));
  await seed(world.directory, 'Marketing', people(3, 500));
});
afterAll(async () => {
  await world.cleanup();
});

it('archives every employee page by page, a chunk per activity; running each chunk twice changes nothing', async () => {
  const seen: string[] = [];
  let pages = 0;
  let continuationToken: string | null = null;
  do {
    const page = await listEmployeePageActivity(world.services, {
      department: 'Sales',
      continuationToken,
      pageSize: PAGE_SIZE,
    });
    if (isRefusal(page)) throw new Error(page.refused.message);
    const { employeeIds, continuationToken: next } = page as EmployeeIdPage;
    seen.push(...employeeIds);
    pages++;
    for (const ids of chunk(employeeIds, CHUNK_SIZE)) {
      const input = { department: 'Sales', employeeIds: ids };
      const expected = { archived: ids.length, notFound: 0 };
      expect(await archiveEmployeeChunkActivity(world.services, input)).toEqual(expected);
      // The replay finds them archived and counts them so.
      expect(await archiveEmployeeChunkActivity(world.services, input)).toEqual(expected);
    }
    continuationToken = next;
  } while (continuationToken);

  expect(pages).toBe(4);
  expect(seen).toEqual(people(SIZE).map((p) => p.employeeId));
  const archived: string[] = [];
  for await (const e of world.archive.listEntities<Record<string, unknown>>()) {
    if (String(e.rowKey).startsWith('empid_')) archived.push(String(e.EmployeeId));
  }
  expect(archived.sort()).toEqual(seen);
  // The department and its count shards (its own bookkeeping) stay; nothing of an employee does.
  const left = [...(await world.snapshot()).keys()].filter(
    (key) =>
      key.endsWith('@Sales') &&
      !key.startsWith('department@') &&
      !key.startsWith('department_count_'),
  );
  expect(left).toEqual([]);
  expect((await world.directory.departments.get('Sales')).value.employeeCount).toBe(0);
  expect((await world.directory.departments.get('Marketing')).value.employeeCount).toBe(3);
});

it('refuses a department that does not exist', async () => {
  expect(
    await listEmployeePageActivity(world.services, {
      department: 'Nowhere',
      continuationToken: null,
    }),
  ).toMatchObject({ refused: { code: 'DepartmentNotFound' } });
});

it('a replayed archive activity publishes the change its first run lost; the indexes converge', async () => {
  const fx = createIndexingFixture();
  try {
    await fx.directory.departments.put('Support', {});
    await fx.directory.employees.create('Support', {
      employeeId: '000777',
      firstName: 'Ari',
      lastName: 'Okafor',
      email: 'ari@contoso.com',
    });
    await fx.drain();
    expect(await fx.drift()).toEqual([]);

    // The delete commits with its outbox row, then the nudge for the `archived` change fails to go
    // out: nothing drains the row until the retried activity publishes again.
    const queue = queueChangeSink(fx.clients.queue(fx.names.queue));
    let loseNextArchived = true;
    const changes: EmployeeChangeSink = {
      outbox: true,
      publish: async (batch) => {
        if (loseNextArchived && batch.some((change) => change.reason === 'archived')) {
          loseNextArchived = false;
          throw new Error('index-updates unreachable');
        }
        await queue.publish(batch);
      },
    };
    const services: OrchestrationServices = {
      directory: createContext({ employees: fx.stores.employees, changes }),
      employees: createDirectory({ employees: fx.stores.employees, changes }).employees,
      archive: fx.clients.table(fx.names.archive),
      // The archive keeps photo blobs where they are: this container is never touched.
      photos: fx.clients.container(uniqueName('unusedphotos')),
      indexStores: fx.stores,
      changes,
    };
    const input = { department: 'Support', employeeIds: ['000777'] };
    await expect(archiveEmployeeChunkActivity(services, input)).rejects.toThrow('unreachable');
    expect(await fx.drain()).toBe(0);
    expect(await fx.drift()).not.toEqual([]);
    expect(await fx.stores.lastNames.members('okafor')).not.toEqual([]);

    // The orchestrator retries the activity: it finds the employee archived and re-publishes.
    expect(await archiveEmployeeChunkActivity(services, input)).toEqual({
      archived: 1,
      notFound: 0,
    });
    await queue.settled(); // the nudge lingers before it is sent
    expect(await fx.drain()).toBeGreaterThan(0);
    expect(await fx.drift()).toEqual([]);
    expect(await fx.stores.lastNames.members('okafor')).toEqual([]);
  } finally {
    await fx.cleanup();
  }
});
