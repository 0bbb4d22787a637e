/**
 * Caches may save reads, never decide a write. Every directory context keeps its own versions of
 * the department and the same-partition last-name index entities, without expiry, and nothing
 * tells it when another context writes them: the HTTP directory and the workers' directory of one
 * process, or another instance. Each scenario is deterministic: context A warms its cache (a write
 * of its own reads and remembers those entities), context B then changes them, and A writes from
 * its stale cache. The result must be what a write from fresh reads leaves: the stale version
 * costs A a 412 and a retry, never a wrong write.
 */
import { createServices, type Services } from '../../../../functions/shared/services';
import { loadConfig } from '../../../../src/config';
import type { Directory } from '../../../../src/directory/directory';
import { NotFoundError } from '../../../../src/domainErrors';
import { lastNameRowKey } from '../../../../src/storage/keys/tables/employees';
import {
  azuriteConnectionString,
  testClients,
  uniqueName,
  uniqueTableName,
} from '../../../support/storage';
import {
  compareIndexes,
  createDirectoryFixture,
  employeeBody,
  type DirectoryFixture,
} from '../fixture';
import { readEntity } from '../../../../src/storage/tables/entities';
import { readLastNameIndex } from '../../../../src/directory/entities';

/** The manager the department entity names now, read from storage. */
async function managerOf(directory: Directory): Promise<string | undefined> {
  return (await directory.departments.get('Ops')).value.manager?.employeeId;
}

describe('two directory contexts over one table', () => {
  let fx: DirectoryFixture;
  let a: Directory;
  let b: Directory;
  beforeEach(async () => {
    fx = createDirectoryFixture();
    await fx.directory.departments.put('Ops', {});
    await fx.directory.employees.create('Ops', employeeBody(1, { lastName: 'Lee' }));
    a = fx.another();
    b = fx.another();
    // A warms its cache: a create reads the department with its count shards and the index
    // entity of its last name, and remembers them (and the index as it wrote it).
    await a.employees.create('Ops', employeeBody(2, { lastName: 'Smith' }));
  });
  afterEach(() => fx.cleanup());

  it('deleting the employee another context just made manager clears the manager copy', async () => {
    await b.departments.setManager('Ops', '000001');
    await a.employees.delete('Ops', '000001');
    expect(await managerOf(fx.directory)).toBeUndefined();
  });

  it('a group delete of the employee another context just made manager clears the copy', async () => {
    await b.departments.setManager('Ops', '000001');
    const { entity } = await fx.directory.employees.get('Ops', '000001');
    expect(await a.employees.deleteVersions('Ops', [entity])).toMatchObject({
      deleted: ['000001'],
    });
    expect(await managerOf(fx.directory)).toBeUndefined();
  });

  it('deleting an employee another context added to the cached index removes its id', async () => {
    await b.employees.create('Ops', employeeBody(3, { lastName: 'Smith' }));
    await a.employees.delete('Ops', '000003');
    const { stored, expected } = await compareIndexes(fx.table, 'Ops');
    expect(stored).toEqual(expected);
    expect(await idsOf(fx, 'smith')).toEqual(['000002']);
  });

  it('a group delete of an employee another context added to the cached index removes its id', async () => {
    await b.employees.create('Ops', employeeBody(3, { lastName: 'Smith' }));
    const { entity } = await fx.directory.employees.get('Ops', '000003');
    await a.employees.deleteVersions('Ops', [entity]);
    expect(await idsOf(fx, 'smith')).toEqual(['000002']);
  });

  it('renaming an employee another context added to the cached index moves its id', async () => {
    await b.employees.create('Ops', employeeBody(3, { lastName: 'Smith' }));
    await a.employees.patch('Ops', '000003', { lastName: 'Brown' });
    const { stored, expected } = await compareIndexes(fx.table, 'Ops');
    expect(stored).toEqual(expected);
    expect(await idsOf(fx, 'smith')).toEqual(['000002']);
    expect(await idsOf(fx, 'brown')).toEqual(['000003']);
  });

  it('an index entity that does not list the employee (damaged data) is left as it is', async () => {
    // Damage behind every cache: the Smith index loses 000002.
    await fx.table.updateEntity(
      { partitionKey: 'Ops', rowKey: lastNameRowKey('smith'), Ids00: '' },
      'Merge',
    );
    // A writes the Smith index again (its cached version fails, it reads and retries): its cache
    // is current and lacks 000002, so the delete's condition on it passes and changes nothing.
    await a.employees.create('Ops', employeeBody(5, { lastName: 'Smith' }));
    await a.employees.delete('Ops', '000002');
    expect(await idsOf(fx, 'smith')).toEqual(['000005']);
    await expect(fx.directory.employees.get('Ops', '000002')).rejects.toBeInstanceOf(NotFoundError);
  });
});

/** The ids the stored same-partition index entity of `name` lists (none when absent). */
async function idsOf(fx: DirectoryFixture, name: string): Promise<string[]> {
  const entity = await readEntity(fx.table, 'Ops', lastNameRowKey(name));
  return (entity && readLastNameIndex(entity)?.ids) ?? [];
}

describe('two instances, each with a service root of its own', () => {
  const names = { employees: uniqueTableName('Emp'), queue: uniqueName('idx') };
  const config = loadConfig({
    ...process.env,
    AzureWebJobsStorage: azuriteConnectionString(),
    EMPLOYEES_TABLE: names.employees,
    INDEX_QUEUE: names.queue,
  });
  let first: Services;
  let second: Services;
  beforeAll(async () => {
    first = createServices(() => config);
    second = createServices(() => config);
    await first.directory().departments.put('Ops', {});
    await first.directory().employees.create('Ops', employeeBody(1, { lastName: 'Lee' }));
  });
  afterAll(async () => {
    // Every nudge and writer drain of both roots has ended before their queue and table go: a
    // nudge still in flight would log after the file ended, which fails the jest run.
    await Promise.all([first, second].map((services) => services.changeQueue().settled()));
    const clients = testClients();
    await clients.table(names.employees).deleteTable();
    await clients.queue(names.queue).deleteIfExists();
  });

  it("the workers' directory deletes the employee the HTTP directory of its process made manager", async () => {
    const worker = first.orchestrations().employees;
    await worker.create('Ops', employeeBody(2, { lastName: 'Smith' }));
    await first.directory().departments.setManager('Ops', '000001');
    await worker.delete('Ops', '000001');
    expect(await managerOf(second.directory())).toBeUndefined();
  });

  it('an instance renames an employee the other instance added to its cached index', async () => {
    await first.directory().employees.create('Ops', employeeBody(3, { lastName: 'Smith' }));
    await second.directory().employees.create('Ops', employeeBody(4, { lastName: 'Smith' }));
    await first.directory().employees.patch('Ops', '000004', { lastName: 'Brown' });
    const table = testClients().table(names.employees);
    const { stored, expected } = await compareIndexes(table, 'Ops');
    expect(stored).toEqual(expected);
  });
});
