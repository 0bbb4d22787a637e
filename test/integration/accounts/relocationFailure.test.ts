/**
 * A relocation that fails (docs/accounts.md "A relocation that fails"): the relocation
 * orchestrator itself, run in-process over its activities (test/support/relocationRunner.ts), with
 * a step failing for good — its retries spent, as in an outage of an account longer than ~31 s —
 * at the copy, the freeze, the sync, the switch or the deletion, and then `POST …/relocate` again
 * (relocationStart.ts, as the route runs it). Before the switch the department is rolled back to
 * its source (writes resume, the change markers go) and the second request relocates it; after
 * it, the second request resumes the deletion. Either way every row ends in exactly one account
 * and the placement is `stable`; while a relocation runs, or stopped, the request answers it.
 */
import { randomUUID } from 'node:crypto';
import { RelocationRunningError } from '../../../src/accounts/accountErrors';
import { ThrottledError } from '../../../src/domainErrors';
import { Activities } from '../../../src/orchestrations/names';
import { relocateOrResume } from '../../../src/orchestrations/relocation/relocationStart';
import type { StorageClients } from '../../../src/storage/clients';
import { FENCE_EPOCH_ROW_KEY } from '../../../src/storage/keys/tables/placement';
import { accountClients, otherDataAccount, spreadDeployment } from '../../support/accounts';
import { auditIndexesInProcess, auditServicesFor, driftOf } from '../../support/indexAudit';
import { relocationDeps } from '../../support/relocation';
import { InProcessInstances, type Fault } from '../../support/relocationRunner';

const { config, services } = spreadDeployment({ INDEX_DRAIN_LINGER_MS: '1' });

const id = (n: number) => String(n).padStart(6, '0');

function clientsOf(name: string): StorageClients {
  const all = accountClients();
  return name === 'DATA1' ? all.data1 : name === 'DATA2' ? all.data2 : all.home;
}

/** A department of `employees` employees with an expense claim; answers its account. */
async function seed(department: string, employees = 8): Promise<string> {
  const { departments, employees: people } = services.directory();
  await departments.put(department, { description: department });
  for (let n = 1; n <= employees; n++) {
    await people.create(department, {
      employeeId: id(n),
      firstName: `First${n}`,
      lastName: `Last${n}`,
      email: `u${n}@contoso.com`,
    });
  }
  await services.expenseClaims().submit(department, id(3), claim);
  await services.changeQueue().settled();
  return (await placementOf(department)).account;
}

const claim = { amount: 10, currency: 'EUR', description: 'Lunch' };
const placementOf = (department: string) =>
  services.accounts()!.placement.ofDepartment(department, { fresh: true });

/** Every row of the department in an account, `table|pk|rk`. */
async function rowsIn(account: string, department: string): Promise<string[]> {
  const found: string[] = [];
  const { tables } = config;
  for (const table of [tables.employees, tables.employeeIndex, tables.expenses]) {
    for await (const row of clientsOf(account).table(table).listEntities()) {
      const pk = String(row.partitionKey);
      if (pk === department || pk.endsWith(`_${department}`) || pk.startsWith(`${department}_`)) {
        found.push(`${table}|${pk}|${row.rowKey}`);
      }
    }
  }
  return found;
}

const isMarker = (key: string) => key.includes('|~placement_changed_');

/** A client of the route's start over in-process instances. */
function relocator(instances: InProcessInstances) {
  return (department: string, to: string) =>
    relocateOrResume(relocationDeps(services, 10), instances, {
      department,
      to,
      cacheMs: 0,
      newId: () => randomUUID().replace(/-/g, ''),
    });
}

/** While copying (the third copy chunk): a patch and a claim, so change markers exist. */
function writeWhileCopying(department: string) {
  return async (activity: string, index: number): Promise<void> => {
    if (activity !== Activities.relocationCopy || index !== 2) return;
    await services.directory().employees.patch(department, id(8), { lastName: 'Synced' });
    await services.expenseClaims().submit(department, id(3), claim);
  };
}

/** Relocated whole: stable in `to`, every row there, the source keeping only its tombstones. */
async function expectRelocated(department: string, from: string, to: string): Promise<void> {
  expect(await placementOf(department)).toMatchObject({ account: to, phase: 'stable' });
  expect((await placementOf(department)).relocation).toBeUndefined();
  const { departments, employees } = services.directory();
  expect((await departments.get(department)).value.employeeCount).toBe(8);
  expect((await employees.get(department, id(8))).value.lastName).toBe('Synced');
  expect(await services.expenseClaims().newest(department, id(3), 10)).toHaveLength(2);
  await services.changeQueue().settled();
  await services.indexDrains().request(department);
  expect(driftOf(await auditIndexesInProcess(auditServicesFor(services.indexStores())))).toEqual(
    [],
  );
  const left = await rowsIn(from, department);
  expect(left.filter((key) => !key.endsWith(`|${FENCE_EPOCH_ROW_KEY}`))).toEqual([]);
  const there = await rowsIn(to, department);
  expect(there.some((key) => key.includes(id(8)))).toBe(true);
}

/** Rolled back: stable in the source, released, writable, and no change marker left. */
async function expectRolledBack(department: string, from: string): Promise<void> {
  expect(await placementOf(department)).toMatchObject({ account: from, phase: 'stable' });
  expect((await placementOf(department)).relocation).toBeUndefined();
  expect((await rowsIn(from, department)).filter(isMarker)).toEqual([]);
  await services.directory().employees.patch(department, id(7), { lastName: 'Writable' });
  expect((await services.directory().employees.get(department, id(7))).value.lastName).toBe(
    'Writable',
  );
}

it.each<[string, string, number, Fault]>([
  ['copy', Activities.relocationCopy, 4, 'before'],
  ['freeze', Activities.relocationFreeze, 0, 'before'],
  ['sync', Activities.relocationSync, 0, 'before'],
  ['switch', Activities.relocationSwitch, 0, 'before'],
])(
  'a relocation failing for good at its %s is rolled back to its source; the next request relocates it',
  async (step, activity, at, fault) => {
    const department = `Fails at ${step}`;
    const from = await seed(department);
    const to = otherDataAccount(from);
    const instances = new InProcessInstances(relocationDeps(services, 10));
    const relocate = relocator(instances);
    instances.before = writeWhileCopying(department);
    instances.fault = (name, index) => (name === activity && index >= at ? fault : undefined);
    const first = await relocate(department, to);
    expect(instances.end(first.id)).toMatchObject({ runtimeStatus: 'Failed' });
    expect(instances.end(first.id)!.failure).toContain('RelocationRolledBack');
    await expectRolledBack(department, from);
    // The outage is over: the same request relocates it, from the start.
    instances.fault = () => undefined;
    instances.before = async () => undefined;
    const second = await relocate(department, to);
    expect(second).toMatchObject({ resumed: false, phase: 'copying' });
    expect(instances.end(second.id)).toMatchObject({ runtimeStatus: 'Completed' });
    expect((await services.directory().employees.get(department, id(7))).value.lastName).toBe(
      'Writable',
    );
    await expectRelocated(department, from, to);
  },
);

it('a switch that took effect but whose answer was lost goes forward, not back', async () => {
  const department = 'Switch lost';
  const from = await seed(department);
  const to = otherDataAccount(from);
  const instances = new InProcessInstances(relocationDeps(services, 10));
  instances.before = writeWhileCopying(department);
  instances.fault = (name) => (name === Activities.relocationSwitch ? 'after' : undefined);
  const first = await relocator(instances)(department, to);
  expect(instances.end(first.id)).toMatchObject({ runtimeStatus: 'Completed' });
  await expectRelocated(department, from, to);
});

it('a deletion failing for good is resumed forward by the same request; others get 409 naming it', async () => {
  const department = 'Fails at delete';
  const from = await seed(department);
  const to = otherDataAccount(from);
  const instances = new InProcessInstances(relocationDeps(services, 10));
  const relocate = relocator(instances);
  const whileRunning: unknown[] = [];
  const copying = writeWhileCopying(department);
  instances.before = async (activity, index) => {
    await copying(activity, index);
    if (activity === Activities.relocationCopy && index === 1) {
      whileRunning.push(await relocate(department, to).catch((e: unknown) => e));
    }
  };
  instances.fault = (name, index) =>
    name === Activities.relocationDelete && index >= 1 ? 'before' : undefined;
  const first = await relocate(department, to);
  // While it ran: 409 naming it, where it was and that it runs.
  expect(whileRunning[0]).toBeInstanceOf(RelocationRunningError);
  expect(whileRunning[0]).toMatchObject({
    relocation: first.id,
    phase: 'copying',
    runtimeStatus: 'Running',
  });
  expect(instances.end(first.id)).toMatchObject({ runtimeStatus: 'Failed' });
  // Switched: the target takes writes; the department is still held by the relocation.
  expect(await placementOf(department)).toMatchObject({ account: to, phase: 'deleting' });
  await services.directory().employees.patch(department, id(7), { lastName: 'Writable' });
  // Another account: 409, naming the stopped relocation.
  await expect(relocate(department, 'home')).rejects.toMatchObject({
    code: 'RelocationRunning',
    relocation: first.id,
    phase: 'deleting',
    runtimeStatus: 'Failed',
  });
  instances.fault = () => undefined;
  instances.before = async () => undefined;
  const second = await relocate(department, to);
  expect(second).toEqual({ id: first.id, phase: 'deleting', resumed: true });
  expect(instances.end(first.id)).toMatchObject({ runtimeStatus: 'Completed' });
  await expectRelocated(department, from, to);
});

it.each<[string, number]>([
  // The rollback's first call fails before it changed anything: the department stays frozen.
  ['frozen', 0],
  // Its second: the placement is back in the source, the cleanup half done.
  ['rollingBack', 1],
])(
  'a rollback that fails itself (%s) is resumed by the same request, then the next relocates',
  async (phase, at) => {
    const department = `Rollback ${phase}`;
    const from = await seed(department);
    const to = otherDataAccount(from);
    const instances = new InProcessInstances(relocationDeps(services, 10));
    const relocate = relocator(instances);
    instances.before = writeWhileCopying(department);
    instances.fault = (name, index) =>
      name === Activities.relocationSync || (name === Activities.relocationRollback && index === at)
        ? 'before'
        : undefined;
    const first = await relocate(department, to);
    expect(instances.end(first.id)).toMatchObject({ runtimeStatus: 'Failed' });
    if (phase === 'frozen') {
      await expect(
        services.directory().employees.patch(department, id(6), { lastName: 'Refused' }),
      ).rejects.toBeInstanceOf(ThrottledError);
    }
    instances.fault = () => undefined;
    instances.before = async () => undefined;
    const resumed = await relocate(department, to);
    expect(resumed).toEqual({ id: first.id, phase, resumed: true });
    expect(instances.end(first.id)!.failure).toContain('RelocationRolledBack');
    await expectRolledBack(department, from);
    const again = await relocate(department, to);
    expect(again.resumed).toBe(false);
    expect(instances.end(again.id)).toMatchObject({ runtimeStatus: 'Completed' });
    await expectRelocated(department, from, to);
  },
);
