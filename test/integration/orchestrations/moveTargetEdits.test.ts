/**
 * A move never rewrites a target copy it no longer owns (real Azurite): the copy is visible in the
 * target from its insert on, so a PATCH or a review PUT there answers 200 and must survive the
 * move's later rounds (the source changed) and a repeated try of the copy activity.
 */
import { copyToTargetActivity } from '../../../src/orchestrations/move/moveActivities';
import type { MoveInput } from '../../../src/orchestrations/move/moveRequest';
import { holdFirstBatch } from '../../support/batchGate';
import { createWorld, runCopyAndRemove, seed, type TestWorld } from './support';

let world: TestWorld;

beforeEach(async () => {
  world = await createWorld();
  await seed(world.directory, 'Sales', [
    { employeeId: '000001', lastName: 'Jones', email: 'jones@contoso.com' },
  ]);
  await seed(world.directory, 'Marketing', []);
  await world.directory.reviews.put('Sales', '000001', 2023, {
    managerRating: 3,
    peerRating: 4,
    comments: 'fine',
  });
});
afterEach(async () => {
  await world.cleanup();
});

const move: MoveInput = {
  department: 'Sales',
  employeeId: '000001',
  toDepartment: 'Marketing',
  moveId: 'instance-1',
};

/** Matches a transaction that updates the employee's primary entity in the target. */
function updatesTargetEmployee(body: string): boolean {
  const target = `(PartitionKey='Marketing',RowKey='empid_000001') HTTP/1.1`;
  return body
    .split('\r\n')
    .some((line) => /^(PUT|MERGE|PATCH) /.test(line) && line.endsWith(target));
}

async function expectGoneFromSource(): Promise<void> {
  await expect(world.directory.employees.get('Sales', '000001')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect((await world.directory.departments.get('Sales')).value.employeeCount).toBe(0);
  expect((await world.directory.departments.get('Marketing')).value.employeeCount).toBe(1);
}

it('keeps a PATCH of the target copy when the source changed too and the move copies again', async () => {
  const { directory } = world;
  const rounds = await runCopyAndRemove(world.services, move, async () => {
    await directory.employees.patch('Marketing', '000001', { firstName: 'Edited' });
    await directory.employees.patch('Sales', '000001', { age: 41 });
  });

  expect(rounds).toBe(2);
  // The target was edited during the move: it wins, its PATCH is not rewritten.
  expect((await directory.employees.get('Marketing', '000001')).value).toMatchObject({
    firstName: 'Edited',
    lastName: 'Jones',
  });
  await expectGoneFromSource();
});

it('keeps a PATCH of the target copy when the copy activity runs again', async () => {
  const { directory, services } = world;
  const first = await copyToTargetActivity(services, move);
  expect(first).toMatchObject({ copied: true });
  await directory.employees.patch('Marketing', '000001', { firstName: 'Edited' });

  // The runtime runs the first round's copy again (its answer was lost): same input.
  expect(await copyToTargetActivity(services, move)).toMatchObject({ copied: false });

  expect((await directory.employees.get('Marketing', '000001')).value.firstName).toBe('Edited');
  expect(await runCopyAndRemove(services, move)).toBe(1);
  expect((await directory.employees.get('Marketing', '000001')).value.firstName).toBe('Edited');
  await expectGoneFromSource();
});

it("keeps a review PUT on the target, and still carries the source's new review", async () => {
  const { directory } = world;
  const rounds = await runCopyAndRemove(world.services, move, async () => {
    await directory.reviews.put('Marketing', '000001', 2023, {
      managerRating: 8,
      peerRating: 8,
      comments: 'written on the target',
    });
    await directory.reviews.put('Sales', '000001', 2024, {
      managerRating: 5,
      peerRating: 5,
      comments: 'new in the source',
    });
  });

  expect(rounds).toBe(2);
  expect((await directory.reviews.list('Marketing', '000001')).items).toEqual([
    expect.objectContaining({ year: 2023, managerRating: 8, comments: 'written on the target' }),
    expect.objectContaining({ year: 2024, comments: 'new in the source' }),
  ]);
  await expectGoneFromSource();
});

it("keeps a PATCH of the target that lands between the refresh's read and its transaction", async () => {
  const { directory, services } = world;
  const first = await copyToTargetActivity(services, move);
  if (!('copied' in first)) throw new Error('refused');
  await directory.employees.patch('Sales', '000001', { lastName: 'Smith' });

  // The second round decided to refresh (the target was still its copy); hold its transaction.
  const gate = holdFirstBatch(world.employees, updatesTargetEmployee);
  const second = copyToTargetActivity(services, { ...move, ownedEtag: first.targetEtag });
  await gate.reached;
  await directory.employees.patch('Marketing', '000001', { firstName: 'Edited' });
  gate.release();
  // The refresh lost its condition: the activity fails and the runtime runs it again.
  await expect(second).rejects.toMatchObject({ code: 'StorageBusy' });
  const retried = await copyToTargetActivity(services, { ...move, ownedEtag: first.targetEtag });
  expect(retried).toMatchObject({ copied: false });

  expect((await directory.employees.get('Marketing', '000001')).value).toMatchObject({
    firstName: 'Edited',
    lastName: 'Jones',
  });
});
