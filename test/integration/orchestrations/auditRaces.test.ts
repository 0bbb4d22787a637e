/**
 * The audit's repairs against a concurrent change, deterministically: a pause hook runs a
 * concurrent delete or create between the audit's reads and its repair write. Each repair
 * rechecks inside the condition of its write, so it fails harmlessly (not counted) instead of
 * writing back what the concurrent change just removed, or removing what it just added.
 */
import {
  DEPARTMENT_ROW_KEY,
  emailRowKey,
  lastNameRowKey,
} from '../../../src/storage/keys/tables/employees';
import {
  auditDepartmentPageActivity,
  auditOrgLastNamesActivity,
  FIRST_AUDIT_STEP,
} from '../../../src/orchestrations/audit/auditActivities';
import { lastNameIndexEntity } from '../../../src/directory/entities/partitionLastNameIndex';
import { createWorld, people, seed, type TestWorld } from './support';
import { readEntity } from '../../../src/storage/tables/entities';

let world: TestWorld;

beforeEach(async () => {
  world = await createWorld();
  await seed(world.directory, 'Sales', people(4));
});
afterEach(async () => {
  await world.cleanup();
});

/** The first page of Sales' forward pass (every employee), with `repair` and a pause hook. */
function auditFirstPage(beforeRepair: () => Promise<void>) {
  return auditDepartmentPageActivity(
    world.services,
    { department: 'Sales', repair: true, step: FIRST_AUDIT_STEP },
    { beforeRepair },
  );
}

it('does not create the email copy of an employee deleted after the audit read it', async () => {
  await world.employees.deleteEntity('Sales', emailRowKey('p000002@contoso.com'));
  const page = await auditFirstPage(async () => {
    await world.directory.employees.delete('Sales', '000002');
  });
  expect(page.counts.emailCopies).toEqual({ checked: 4, missing: 1, stale: 0, repaired: 0 });
  expect(await readEntity(world.employees, 'Sales', emailRowKey('p000002@contoso.com'))).toBe(
    undefined,
  );
});

it('does not list again in the last-name entity an employee deleted after the audit read it', async () => {
  // people(4): 000001 Jones, 000002 Smith, 000003 Ng, 000004 Müller; Smith's entity lost 000002.
  await world.employees.updateEntity(
    lastNameIndexEntity('Sales', { lastName: 'smith', ids: ['000999'] }),
    'Replace',
  );
  const page = await auditFirstPage(async () => {
    await world.employees.deleteEntity('Sales', 'empid_000002');
  });
  expect(page.counts.lastNameEntities).toMatchObject({ missing: 1, repaired: 0 });
  const entity = await readEntity(world.employees, 'Sales', lastNameRowKey('smith'));
  expect(entity?.Count).toBe(1);
});

it('does not remove from the org-wide index a member created after the audit checked it', async () => {
  const lastNames = world.services.indexStores.lastNames;
  const ghost = { department: 'Sales', employeeId: '000777' };
  for (const { employeeId, lastName } of people(4)) {
    await lastNames.add(lastName, { department: 'Sales', employeeId });
  }
  await lastNames.add('Ghost', ghost); // an orphan: no employee 000777 (yet)
  const page = await auditOrgLastNamesActivity(
    world.services,
    { repair: true },
    {
      beforeRepair: async () => {
        // Concurrently: 000777 is created as Ghost, and the outbox drain lists it (its change writes
        // the list even when the member is already there).
        await world.directory.employees.import('Sales', [
          {
            employeeId: '000777',
            firstName: 'Gus',
            lastName: 'Ghost',
            email: 'g@contoso.com',
            age: 40,
          },
        ]);
        await lastNames.change(await lastNames.snapshot('ghost'), [ghost], []);
      },
    },
  );
  expect(page).toEqual({ counts: { checked: 5, missing: 0, stale: 1, repaired: 0 }, next: null });
  expect(await lastNames.members('ghost')).toEqual([ghost]);
});

describe('the manager copy on the department', () => {
  async function auditManager(beforeRepair?: () => Promise<void>) {
    const page = await auditDepartmentPageActivity(
      world.services,
      { department: 'Sales', repair: true, step: { pass: 'listing' } },
      { beforeRepair },
    );
    return page.counts.managerCopy;
  }

  it('is found stale when it differs from the manager, and repaired from the manager', async () => {
    await world.directory.departments.setManager('Sales', '000003');
    expect(await auditManager()).toEqual({ checked: 1, missing: 0, stale: 0, repaired: 0 });
    await world.employees.updateEntity(
      { partitionKey: 'Sales', rowKey: DEPARTMENT_ROW_KEY, ManagerLastName: 'Mallory' },
      'Merge',
    );
    expect(await auditManager()).toEqual({ checked: 1, missing: 0, stale: 1, repaired: 1 });
    expect((await world.directory.departments.get('Sales')).value.manager).toMatchObject({
      employeeId: '000003',
      lastName: 'Ng',
    });
  });

  it('is not rewritten from a manager renamed after the audit read it', async () => {
    await world.directory.departments.setManager('Sales', '000003');
    await world.employees.updateEntity(
      { partitionKey: 'Sales', rowKey: DEPARTMENT_ROW_KEY, ManagerLastName: 'Mallory' },
      'Merge',
    );
    const counts = await auditManager(async () => {
      // The manager's own rename rewrites the copy in its transaction (here: "Nguyen").
      await world.directory.employees.patch('Sales', '000003', { lastName: 'Nguyen' });
    });
    expect(counts).toEqual({ checked: 1, missing: 0, stale: 1, repaired: 0 });
    expect((await world.directory.departments.get('Sales')).value.manager).toMatchObject({
      lastName: 'Nguyen',
    });
  });
});
