/**
 * The move's activities against real Azurite: each step run twice ends in the same state as once
 * (the runtime may run any activity again after a crash), the employee ends up in the target with
 * every same-partition copy, index and review, and a move onto a taken id or email is refused
 * with nothing moved.
 */
import {
  copyToTargetActivity,
  reindexEmployeeActivity,
  removeFromSourceActivity,
  validateMoveActivity,
} from '../../../src/orchestrations/move/moveActivities';
import type { CopyResult } from '../../../src/orchestrations/move/copyToTarget';
import type { MoveInput } from '../../../src/orchestrations/move/moveRequest';
import { createWorld, seed, type TestWorld } from './support';

let world: TestWorld;

beforeEach(async () => {
  world = await createWorld();
  await seed(world.directory, 'Sales', [
    { employeeId: '000001', lastName: 'Jones', email: 'jones@contoso.com' },
    { employeeId: '000002', lastName: 'Jones', email: 'jones2@contoso.com' },
  ]);
  await seed(world.directory, 'Marketing', [
    { employeeId: '000009', lastName: 'Jones', email: 'taken@contoso.com' },
  ]);
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

it('runs every step twice and ends as if each had run once', async () => {
  const { services, directory } = world;
  await directory.reviews.put('Sales', '000001', 2023, {
    managerRating: 3,
    peerRating: 4,
    comments: 'fine',
  });

  expect(await validateMoveActivity(services, move)).toEqual({
    state: 'ready',
    employee: { email: 'jones@contoso.com', lastName: 'Jones' },
    incarnation: expect.stringMatching(/^[0-9a-f]{32}$/),
  });
  const copy = await copyToTargetActivity(services, move);
  expect(copy).toMatchObject({ copied: true, reviews: 1 });
  const afterCopy = await world.snapshot();
  // A second try of the copy (its answer was lost) recognises its own commit.
  expect(await validateMoveActivity(services, move)).toMatchObject({ state: 'ready' });
  expect(await copyToTargetActivity(services, move)).toEqual({ ...copy, copied: false });
  expect(await world.snapshot()).toEqual(afterCopy);
  const removal = { ...move, copied: copy as CopyResult };

  const target = { department: 'Marketing', employeeId: '000001' };
  expect(await reindexEmployeeActivity(services, target)).toEqual({ present: true });
  expect(await reindexEmployeeActivity(services, target)).toEqual({ present: true });
  expect(await removeFromSourceActivity(services, removal)).toEqual({ removed: true });
  expect(await removeFromSourceActivity(services, removal)).toEqual({ removed: false });
  const source = {
    department: 'Sales',
    employeeId: '000001',
    previous: { email: 'jones@contoso.com', lastName: 'Jones' },
  };
  expect(await reindexEmployeeActivity(services, source)).toEqual({ present: false });
  expect(await reindexEmployeeActivity(services, source)).toEqual({ present: false });
  // The whole move again (a second orchestration of the same request) finds nothing to do.
  expect(await validateMoveActivity(services, { ...move, moveId: 'instance-2' })).toEqual({
    state: 'alreadyMoved',
  });

  await expect(directory.employees.get('Sales', '000001')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  const moved = await directory.employees.get('Marketing', '000001');
  expect(moved.value).toMatchObject({ department: 'Marketing', lastName: 'Jones', age: 40 });
  expect(
    (await directory.employees.getByEmail('Marketing', 'jones@contoso.com')).value,
  ).toMatchObject({ employeeId: '000001' });
  expect((await directory.departments.get('Sales')).value.employeeCount).toBe(1);
  expect((await directory.departments.get('Marketing')).value.employeeCount).toBe(2);
  const jones = await directory.employees.findByLastName('Marketing', 'Jones');
  expect(jones.items.map((e) => e.employeeId)).toEqual(['000001', '000009']);
  const salesJones = await directory.employees.findByLastName('Sales', 'Jones');
  expect(salesJones.items.map((e) => e.employeeId)).toEqual(['000002']);
  expect((await directory.reviews.list('Marketing', '000001')).items).toEqual([
    expect.objectContaining({ year: 2023, comments: 'fine' }),
  ]);
  const left = [...(await world.snapshot()).keys()].filter((key) => key.endsWith('@Sales'));
  expect(left.filter((key) => key.includes('000001'))).toEqual([]);

  // The outside indexes point at the target only.
  const lastNames = await world.services.indexStores.lastNames.members('jones');
  expect(lastNames).toContainEqual({ department: 'Marketing', employeeId: '000001' });
  expect(lastNames).not.toContainEqual({ department: 'Sales', employeeId: '000001' });
  await expect(world.index.getEntity('empid_Marketing', '000001')).resolves.toBeDefined();
  await expect(world.index.getEntity('empid_Sales', '000001')).rejects.toMatchObject({
    statusCode: 404,
  });
});

it('refuses a move onto an id taken in the target, and moves nothing', async () => {
  const { services, directory } = world;
  await directory.employees.create('Marketing', {
    employeeId: '000001',
    firstName: 'Other',
    lastName: 'Person',
    email: 'other@contoso.com',
  });
  const before = await world.snapshot();
  expect(await validateMoveActivity(services, move)).toEqual({
    refused: {
      code: 'EmployeeExists',
      message: 'Employee 000001 already exists in department "Marketing".',
    },
  });
  // Even if validation were skipped, the copy's transaction refuses and writes nothing.
  expect(await copyToTargetActivity(services, move)).toMatchObject({
    refused: { code: 'EmployeeExists' },
  });
  expect(
    await removeFromSourceActivity(services, {
      ...move,
      toDepartment: 'Nowhere',
      copied: { copiedReviews: [] },
    }),
  ).toMatchObject({ refused: { code: 'EmployeeNotFound' } });
  expect(await world.snapshot()).toEqual(before);
});

it('refuses a move onto an email taken in the target, and moves nothing', async () => {
  const { services, directory } = world;
  await directory.employees.patch('Sales', '000001', { email: 'taken@contoso.com' });
  const before = await world.snapshot();
  expect(await validateMoveActivity(services, move)).toMatchObject({
    refused: { code: 'EmailTaken' },
  });
  expect(await copyToTargetActivity(services, move)).toMatchObject({
    refused: { code: 'EmailTaken' },
  });
  expect(await world.snapshot()).toEqual(before);
});

it('refuses a move into a department that does not exist', async () => {
  expect(
    await validateMoveActivity(world.services, { ...move, toDepartment: 'Nowhere' }),
  ).toMatchObject({ refused: { code: 'DepartmentNotFound' } });
});

it('moves 120 reviews: copied bound to the target employee, removed from the source in chunks', async () => {
  const { services, directory } = world;
  const years = Array.from({ length: 120 }, (_, i) => 1950 + i);
  for (const year of years) {
    await directory.reviews.put('Sales', '000001', year, { managerRating: 1, peerRating: 2 });
  }
  const copy = (await copyToTargetActivity(services, move)) as CopyResult;
  expect(copy).toMatchObject({ copied: true, reviews: 120 });
  // A review written after the copy changes the source's version: the removal refuses.
  await directory.reviews.put('Sales', '000001', 2100, { managerRating: 9, peerRating: 9 });
  expect(await removeFromSourceActivity(services, { ...move, copied: copy })).toEqual({
    removed: false,
    sourceChanged: true,
  });
  const again = (await copyToTargetActivity(services, move)) as CopyResult;
  expect(again.reviews).toBe(121);
  expect(await removeFromSourceActivity(services, { ...move, copied: again })).toEqual({
    removed: true,
  });
  const moved = await directory.reviews.list('Marketing', '000001', undefined, { pageSize: 1000 });
  expect(moved.items.map((r) => r.year)).toEqual([...years, 2100]);
  const left = [...(await world.snapshot()).keys()].filter((key) => key.endsWith('@Sales'));
  expect(left.filter((key) => key.includes('000001'))).toEqual([]);
  // The target employee lists every review it holds: deleting it leaves none behind.
  await directory.employees.delete('Marketing', '000001');
  const after = [...(await world.snapshot()).keys()].filter((key) => key.includes('000001'));
  expect(after).toEqual([]);
});
