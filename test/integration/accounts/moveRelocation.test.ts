/**
 * A move whose source or target department is relocated to another account between the move's
 * copy and its removal (docs/orchestrations.md "Move", docs/accounts.md): the relocation rewrites
 * every row of the department (new ETags, in another account) without editing any, so the move
 * must take neither side for edited. It completes, the employee ends up in exactly one department,
 * and an edit made meanwhile on either side (the source, or the copy in the target) survives.
 */
import { archiveEmployeeChunkActivity } from '../../../src/orchestrations/archive/archiveActivities';
import {
  copyToTargetActivity,
  removeFromSourceActivity,
} from '../../../src/orchestrations/move/moveActivities';
import type { MoveInput } from '../../../src/orchestrations/move/moveRequest';
import { spreadDeployment, spreadPerson } from '../../support/accounts';
import { relocateInProcess, relocationDeps } from '../../support/relocation';
import { runCopyAndRemove } from '../orchestrations/support';

const { services } = spreadDeployment({ INDEX_DRAIN_LINGER_MS: '1' });

/**
 * Two departments, the source with a few employees, the target with one. The moved employee
 * (`000002`) was only created and edited (no review, no photo): its data version is its ETag.
 */
async function seed(source: string, target: string): Promise<void> {
  const { departments, employees, reviews } = services.directory();
  await departments.put(source, { description: source });
  await departments.put(target, { description: target });
  for (let n = 1; n <= 4; n++) await employees.create(source, spreadPerson(n));
  await employees.create(target, spreadPerson(9));
  await employees.patch(source, '000002', { age: 41 });
  await reviews.put(source, '000001', 2024, { managerRating: 4, peerRating: 5, comments: 'ok' });
  await services.changeQueue().settled();
}

/** The data account other than the one holding `department`. */
async function otherAccount(department: string): Promise<string> {
  const placed = await services.accounts()!.placement.ofDepartment(department, { fresh: true });
  return placed.account === 'DATA1' ? 'DATA2' : 'DATA1';
}

/** Where employee `employeeId` is now, among `departments`. */
async function departmentsHolding(departments: string[], employeeId: string): Promise<string[]> {
  const found: string[] = [];
  for (const department of departments) {
    const held = await services
      .directory()
      .employees.get(department, employeeId)
      .then(() => true)
      .catch((error: { code?: string }) => {
        if (error.code === 'EmployeeNotFound') return false;
        throw error;
      });
    if (held) found.push(department);
  }
  return found;
}

it.each<[string, 'source' | 'target', 'none' | 'source' | 'target']>([
  ['its source is relocated', 'source', 'none'],
  ['its source is relocated and the target copy edited', 'source', 'target'],
  ['its target is relocated and the source edited', 'target', 'source'],
])(
  'a move completes when, between its copy and its removal, %s',
  async (_case, relocated, edited) => {
    const source = `Move from ${relocated} ${edited}`;
    const target = `Move to ${relocated} ${edited}`;
    await seed(source, target);
    const move: MoveInput = {
      department: source,
      employeeId: '000002',
      toDepartment: target,
      moveId: `move-${relocated}-${edited}`,
    };
    const department = relocated === 'source' ? source : target;
    const to = await otherAccount(department);
    const rounds = await runCopyAndRemove(services.orchestrations(), move, async () => {
      // Held between the copy and the removal: someone edits one side (the target's copy, or the
      // source), and one department moves to the other account.
      const { employees } = services.directory();
      if (edited === 'target') await employees.patch(target, '000002', { firstName: 'Edited' });
      if (edited === 'source') await employees.patch(source, '000002', { lastName: 'Edited' });
      await relocateInProcess(relocationDeps(services), department, to);
    });
    expect(rounds).toBe(2);
    expect(
      await services.accounts()!.placement.ofDepartment(department, { fresh: true }),
    ).toMatchObject({ account: to, phase: 'stable' });
    expect(await departmentsHolding([source, target], '000002')).toEqual([target]);
    const moved = (await services.directory().employees.get(target, '000002')).value;
    expect(moved).toMatchObject({
      firstName: edited === 'target' ? 'Edited' : 'First2',
      lastName: edited === 'source' ? 'Edited' : 'Last2',
      email: 'u2@contoso.com',
      age: 41,
    });
    const { departments } = services.directory();
    expect((await departments.get(source)).value.employeeCount).toBe(3);
    expect((await departments.get(target)).value.employeeCount).toBe(2);
  },
);

it('answers a wait, not a failure, while the source is frozen: the move and an archive go on after the switch', async () => {
  const source = 'Frozen source';
  const target = 'Frozen target';
  await seed(source, target);
  const activities = services.orchestrations();
  const move: MoveInput = {
    department: source,
    employeeId: '000002',
    toDepartment: target,
    moveId: 'move-frozen',
  };
  const copy = await copyToTargetActivity(activities, move);
  if (!('copied' in copy)) throw new Error(JSON.stringify(copy));
  const to = await otherAccount(source);
  let removal: unknown;
  let archived: unknown;
  await relocateInProcess(relocationDeps(services), source, to, async (step, chunk) => {
    // Frozen for the last sync: the removal and an archive chunk find every write refused.
    if (step !== 'sync' || chunk !== 0) return;
    removal = await removeFromSourceActivity(activities, { ...move, copied: copy });
    archived = await archiveEmployeeChunkActivity(activities, {
      department: source,
      employeeIds: ['000003'],
    });
  });
  const wait = {
    relocating: { retryAfterSeconds: expect.any(Number), message: expect.any(String) },
  };
  expect(removal).toEqual(wait);
  expect(archived).toEqual(wait);
  expect(await departmentsHolding([source, target], '000002')).toEqual([source, target]);

  // The orchestrators call again after their timer: both go through in the new account.
  expect(await runCopyAndRemove(activities, move)).toBe(1);
  expect(await departmentsHolding([source, target], '000002')).toEqual([target]);
  expect(
    await archiveEmployeeChunkActivity(activities, { department: source, employeeIds: ['000003'] }),
  ).toEqual({ archived: 1, notFound: 0 });
  expect(await departmentsHolding([source], '000003')).toEqual([]);
  expect((await services.directory().departments.get(source)).value.employeeCount).toBe(2);
});
