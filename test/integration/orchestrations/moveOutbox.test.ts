/**
 * The move's copy publishes the change it records in the target's index outbox, as every writer
 * does (the e2e twin, test/e2e/orchestrations/moveOutbox.test.ts, shows the row drained with no
 * sweep); a try run again after a crash between its commit and its publish publishes again.
 */
import { odata } from '@azure/data-tables';
import type { EmployeeChange, EmployeeChangeSink } from '../../../src/directory/changes';
import { createContext } from '../../../src/directory/context';
import { parseOutboxRowKey } from '../../../src/storage/keys/tables/outbox';
import { copyToTargetActivity } from '../../../src/orchestrations/move/moveActivities';
import type { MoveInput } from '../../../src/orchestrations/move/moveRequest';
import { createWorld, people, seed, type TestWorld } from './support';

let world: TestWorld;
beforeAll(async () => {
  world = await createWorld();
  await seed(world.directory, 'Sales', [
    { employeeId: '000901', lastName: 'Jones', email: 'jones@contoso.com' },
  ]);
  await seed(world.directory, 'Engineering', people(150));
});
afterAll(() => world.cleanup());

const move: MoveInput = {
  department: 'Sales',
  employeeId: '000901',
  toDepartment: 'Engineering',
  moveId: 'instance-1',
};

/** Outbox rows of a department partition, by employee id. */
async function outboxOf(department: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const entity of world.employees.listEntities({
    queryOptions: { filter: odata`PartitionKey eq ${department}` },
  })) {
    const key = parseOutboxRowKey(entity.rowKey ?? '');
    if (key) ids.push(key.employeeId);
  }
  return ids;
}

it('publishes the target change its copy records in the outbox, on every try', async () => {
  const published: EmployeeChange[][] = [];
  const sink: EmployeeChangeSink = {
    outbox: true,
    publish: async (changes) => void published.push(changes),
  };
  const services = {
    ...world.services,
    directory: createContext({ employees: world.employees, changes: sink }),
  };

  expect(await copyToTargetActivity(services, move)).toMatchObject({ copied: true });
  expect(await outboxOf('Engineering')).toEqual(['000901']);
  expect(published).toEqual([
    [expect.objectContaining({ department: 'Engineering', employeeId: '000901' })],
  ]);

  // A try run again (the first one's publish was lost with its process) finds the copy done and
  // still publishes: the row is not left to the sweep.
  published.length = 0;
  expect(await copyToTargetActivity(services, move)).toMatchObject({ copied: false });
  expect(published).toEqual([
    [expect.objectContaining({ department: 'Engineering', employeeId: '000901' })],
  ]);
});
