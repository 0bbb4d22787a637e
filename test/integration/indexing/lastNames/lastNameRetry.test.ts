/**
 * A drain round writes every org-wide member list it names, and other departments' drains write
 * them too. A list write that loses to one of them is tried again alone — the list read again,
 * then the sources — instead of losing (and rerunning) the whole round; and a round takes a
 * bounded number of last names, so it has few lists to win. A pause hook holds one department's
 * round between its index writes and its list writes while another department's drain writes the
 * same list.
 */
import { drainOutbox } from '../../../../src/indexing/drain/outboxDrain';
import type { DrainStep } from '../../../../src/indexing/drain/outboxDrainRounds';
import { createIndexingFixture, employeeBody as body, type IndexingFixture } from '../fixture';

let fx: IndexingFixture;
beforeEach(async () => {
  fx = createIndexingFixture({ mode: 'entity' });
  await fx.directory.departments.put('Sales', {});
  await fx.directory.departments.put('Marketing', {});
});
afterEach(() => fx.cleanup());

const noWait = async (): Promise<void> => {};
const members = async (lastName: string) =>
  (await fx.stores.lastNames.members(lastName)).map((m) => `${m.department}/${m.employeeId}`);

it("retries only the list another department's drain wrote, in the same round", async () => {
  await fx.directory.employees.create('Sales', body(1));
  await fx.directory.employees.create('Sales', body(2));
  await fx.directory.employees.create('Marketing', body(3));
  const steps: string[] = [];
  const afterStep = async (step: DrainStep, round: number): Promise<void> => {
    steps.push(`${step}:${round}`);
    // Sales has read the Jones list; Marketing's drain writes it before Sales does.
    if (step === 'ids' && round === 1) {
      await drainOutbox(fx.stores, 'Marketing', { sleep: noWait });
    }
  };

  const result = await drainOutbox(fx.stores, 'Sales', { afterStep, sleep: noWait });

  expect(result).toMatchObject({ rows: 2, employees: 2, rounds: 1, complete: true });
  expect(steps).toEqual(['read:1', 'snapshot:1', 'emails:1', 'ids:1', 'lastNames:1', 'deleted:1']);
  expect(await members('Jones')).toEqual(['Marketing/000003', 'Sales/000001']);
  expect(await members('Smith')).toEqual(['Sales/000002']);
});

it('takes at most the configured number of last names per round', async () => {
  for (const [n, lastName] of [
    [1, 'Adams'],
    [2, 'Brown'],
    [3, 'Clark'],
    [4, 'Brown'],
  ] as const) {
    await fx.directory.employees.create('Sales', body(n, { lastName }));
  }
  const result = await drainOutbox(fx.stores, 'Sales', { maxLastNamesPerRound: 2, sleep: noWait });
  // Adams and Brown, then Clark and Brown again.
  expect(result).toMatchObject({ rows: 4, employees: 4, rounds: 2, complete: true });
  expect(await members('Brown')).toEqual(['Sales/000002', 'Sales/000004']);
  expect(await members('Clark')).toEqual(['Sales/000003']);
});
