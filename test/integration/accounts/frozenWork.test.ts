/**
 * Index work that meets a relocation (docs/accounts.md "Index work in the frozen window"):
 * an `index-updates` nudge or cover for a department frozen for the last sync waits (a nudge for
 * after the wait, the message completes) instead of failing five times into the poison queue; and
 * a reconcile run by a process whose placement cache predates a relocation never removes a live
 * member from an org-wide last-name list on what it read from the deleted source.
 */
import { createServices, type Services } from '../../../functions/shared/services';
import { createDirectory } from '../../../src/directory';
import { reconcileEmployeeIndexes } from '../../../src/indexing/employeeIndex/indexMaintenance';
import { findEmployeesAcrossOrganisation } from '../../../src/indexing/employeeIndex/indexQueries';
import { SharedDrains } from '../../../src/indexing';
import {
  handleIndexUpdateMessage,
  RELOCATING_NUDGE_DELAY_SECONDS,
} from '../../../src/indexing/queue/indexUpdates';
import {
  removeEverywhere,
  spreadConfig,
  spreadSettings,
  spreadPerson,
  otherDataAccount,
} from '../../support/accounts';
import { relocateInProcess, relocationDeps } from '../../support/relocation';

const settings = spreadSettings({ INDEX_DRAIN_LINGER_MS: '1' });
const config = spreadConfig(settings);
// Another process, whose placement cache keeps what it read for a minute.
const staleConfig = spreadConfig({ ...settings, PLACEMENT_CACHE_SECONDS: '60' });
let services: Services;

beforeAll(() => {
  services = createServices(() => config);
});
afterAll(() => removeEverywhere(settings));

const placementOf = (department: string) =>
  services.accounts()!.placement.ofDepartment(department, { fresh: true });

it.each([
  ['a nudge', {}],
  ['a cover', { before: Date.now() + 60_000 }],
])(
  '%s for a department frozen by a relocation waits: asked again later, the message completes',
  async (_kind, fields) => {
    const department = `Frozen drain ${Object.keys(fields).length}`;
    await services.directory().departments.put(department, { description: department });
    // Outbox rows nobody drains yet (no sink): the nudge below has work in the frozen department.
    const silent = createDirectory({
      employees: services.accounts()!.table(config.tables.employees),
      outbox: true,
    });
    for (let n = 1; n <= 3; n++) await silent.employees.create(department, spreadPerson(n));
    const nudges: [string, number][] = [];
    const drains = new SharedDrains({
      ...services.indexStores(),
      nudge: async (d, delaySeconds) => {
        nudges.push([d, delaySeconds]);
      },
    });
    const to = otherDataAccount((await placementOf(department)).account);
    let outcome: unknown;
    await relocateInProcess(relocationDeps(services), department, to, async (step, chunk) => {
      if (step !== 'sync' || chunk !== 0) return;
      // Frozen: every write of the drain is refused with 503 Relocating.
      outcome = await handleIndexUpdateMessage(drains, {
        v: 2,
        departments: [department],
        ...fields,
      }).catch((error: unknown) => error);
    });
    expect(outcome).toEqual({ employees: 0, gone: 0, waiting: [department] });
    expect(nudges).toEqual([[department, RELOCATING_NUDGE_DELAY_SECONDS]]);
    // The nudge sent for after the wait drains the rows in the department's new account.
    expect(await handleIndexUpdateMessage(drains, { v: 2, departments: [department] })).toEqual({
      employees: 3,
      gone: 0,
    });
    const stores = services.indexStores();
    const found = await findEmployeesAcrossOrganisation(
      stores.employees,
      stores.lastNames,
      'last2',
    );
    expect(found.items.filter((item) => item.department === department)).toHaveLength(1);
  },
);

it('a reconcile by a process whose placement predates a relocation keeps the live member', async () => {
  const department = 'Stale reconcile';
  const { departments, employees } = services.directory();
  await departments.put(department, { description: department });
  await employees.create(department, spreadPerson(1, 'Zebedee'));
  await services.changeQueue().settled();
  await services.indexDrains().request(department);
  const stores = services.indexStores();
  const search = async () =>
    (await findEmployeesAcrossOrganisation(stores.employees, stores.lastNames, 'zebedee')).items;
  expect(await search()).toHaveLength(1);
  // The other process read the placement before the relocation, and trusts it for a minute.
  const stale = createServices(() => staleConfig);
  const before = await stale.accounts()!.placement.ofDepartment(department);
  await relocateInProcess(relocationDeps(services), department, otherDataAccount(before.account));
  expect((await stale.accounts()!.placement.ofDepartment(department)).account).toBe(before.account);
  // A reconcile there (a move's re-pointing, an audit repair) with the name as its hint.
  const result = await reconcileEmployeeIndexes(stale.indexStores(), {
    department,
    employeeId: '000001',
    previous: { lastName: 'Zebedee' },
  });
  expect(result.present).toBe(true);
  expect(await search()).toHaveLength(1);
});
