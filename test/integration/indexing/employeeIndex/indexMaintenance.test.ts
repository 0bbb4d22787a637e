/**
 * Inter-partition index and org-wide last-name index maintained through `index-updates`:
 * every directory write reaches the indexes; duplicated, reordered and payload-less messages
 * leave them exactly equal to a recomputation from the primary entities.
 */
import { reconcileEmployeeIndexes } from '../../../../src/indexing/employeeIndex/indexMaintenance';
import { handleIndexUpdateMessage } from '../../../../src/indexing/queue/indexUpdates';
import {
  findEmployeesAcrossOrganisation,
  getEmployeeByEmailEventually,
} from '../../../../src/indexing/employeeIndex/indexQueries';
import { createIndexingFixture, employeeBody as body, type IndexingFixture } from '../fixture';

describe.each(['entity', 'blob'] as const)('index maintenance with last-name mode %s', (mode) => {
  let fx: IndexingFixture;
  beforeEach(async () => {
    fx = createIndexingFixture({ mode });
    await fx.directory.departments.put('Sales', {});
    await fx.directory.departments.put('R and D', {});
  });
  afterEach(() => fx.cleanup());

  it('follows creates, renames, email changes, deletes and imports', async () => {
    for (let n = 1; n <= 4; n++) await fx.directory.employees.create('Sales', body(n));
    await fx.directory.employees.import('R and D', [body(10), body(11, { lastName: 'jones' })]);
    await fx.directory.employees.patch('Sales', '000001', {
      lastName: 'Brown',
      email: 'new1@contoso.com',
    });
    await fx.directory.employees.delete('Sales', '000002');
    await fx.drain();
    expect(await fx.drift()).toEqual([]);

    const jones = await findEmployeesAcrossOrganisation(
      fx.stores.employees,
      fx.stores.lastNames,
      'JONES',
    );
    expect(jones.items.map((e) => `${e.department}/${e.employeeId}`)).toEqual([
      'R and D/000011',
      'Sales/000003',
    ]);
    const byEmail = await getEmployeeByEmailEventually(
      fx.stores.index,
      'Sales',
      'NEW1@contoso.com',
    );
    expect(byEmail.value).toEqual(
      expect.objectContaining({ employeeId: '000001', lastName: 'Brown' }),
    );
    await expect(
      getEmployeeByEmailEventually(fx.stores.index, 'Sales', 'u1@contoso.com'),
    ).rejects.toThrow();
  });

  it('hands out an eventual by-email ETag that If-Match still accepts after the employee became manager', async () => {
    await fx.directory.employees.create('Sales', body(1));
    await fx.drain();
    const seen = await getEmployeeByEmailEventually(fx.stores.index, 'Sales', 'u1@contoso.com');
    // Making someone manager merges IsManager onto the primary only: no data change, no message.
    await fx.directory.departments.setManager('Sales', '000001');
    const patched = await fx.directory.employees.patch(
      'Sales',
      '000001',
      { firstName: 'Renamed' },
      { ifMatch: seen.etag },
    );
    expect(patched.value.firstName).toBe('Renamed');
  });

  it('stays correct when v1 change messages left by an earlier deploy are duplicated and delivered old-after-new', async () => {
    await fx.directory.employees.create('Sales', body(1));
    await fx.drain();
    // Old message (created, no previous) replayed after a rename and an email change.
    await fx.directory.employees.patch('Sales', '000001', {
      lastName: 'Taylor',
      email: 'x@contoso.com',
    });
    await fx.drain();
    const old = {
      v: 1,
      changes: [{ department: 'Sales', employeeId: '000001', reason: 'created' }],
    };
    await handleIndexUpdateMessage(fx.drains, old);
    await handleIndexUpdateMessage(fx.drains, old);
    // A stale 'deleted' hint for an employee that exists must not remove it.
    await handleIndexUpdateMessage(fx.drains, {
      v: 1,
      changes: [
        {
          department: 'Sales',
          employeeId: '000001',
          reason: 'deleted',
          previous: { email: 'x@contoso.com', lastName: 'Taylor' },
        },
      ],
    });
    expect(await fx.drift()).toEqual([]);
    expect((await fx.stores.lastNames.members('taylor')).length).toBe(1);
    expect(await fx.stores.lastNames.members('jones')).toEqual([]);
  });

  it('repairs from tracked keys alone, with no change named (the move reindex, the audit repair)', async () => {
    await fx.directory.employees.create('Sales', body(1));
    await fx.drain();
    await fx.directory.employees.patch('Sales', '000001', {
      lastName: 'Lost',
      email: 'lost@contoso.com',
    });
    // Drop the post-commit nudge: empty the queue without handling it.
    await fx.clients.queue(fx.names.queue).clearMessages();
    const repaired = await reconcileEmployeeIndexes(fx.stores, {
      department: 'Sales',
      employeeId: '000001',
    });
    expect(repaired.present).toBe(true);
    expect(await fx.drift()).toEqual([]);
  });

  it('finishes a new employee whose first drain crashed after its index entries, before its last name', async () => {
    await fx.directory.employees.create('Sales', body(1));
    const realChanges = fx.stores.lastNames.changes;
    fx.stores.lastNames.changes = async () => {
      throw new Error('crash');
    };
    await expect(fx.drain({ visibilityTimeout: 1 })).rejects.toThrow('crash');
    fx.stores.lastNames.changes = realChanges;
    await new Promise((r) => setTimeout(r, 1200));
    expect(await fx.drain()).toBeGreaterThan(0);
    expect(await fx.drift()).toEqual([]);
    expect(await fx.stores.lastNames.members(body(1).lastName)).toEqual([
      { department: 'Sales', employeeId: '000001' },
    ]);
  });

  it('converges after a crash in the middle of a drain', async () => {
    await fx.directory.employees.create('Sales', body(1));
    await fx.drain();
    await fx.directory.employees.patch('Sales', '000001', {
      email: 'crash@contoso.com',
      lastName: 'Crashed',
    });
    // Simulated crash: the last-name store fails once in the middle of the drain.
    const realChanges = fx.stores.lastNames.changes;
    fx.stores.lastNames.changes = async () => {
      throw new Error('crash');
    };
    // The crashed message must come back (as the trigger's would after its visibility timeout).
    await expect(fx.drain({ visibilityTimeout: 1 })).rejects.toThrow('crash');
    fx.stores.lastNames.changes = realChanges;
    await new Promise((r) => setTimeout(r, 1200));
    expect(await fx.drain()).toBeGreaterThan(0);
    expect(await fx.drift()).toEqual([]);
  });
});
