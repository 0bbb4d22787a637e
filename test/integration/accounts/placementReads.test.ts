/**
 * The placement cache's misses for one department share one read of the placement table
 * (src/accounts/placement.ts): a write's and a drain's parallel storage calls each ask for the
 * department's placement, and once the cache period ran out they all miss together. A `fresh`
 * query never shares a read, and a forgotten department is read anew.
 */
import { AccountSet, HOME_ACCOUNT } from '../../../src/accounts/accounts';
import { Placement } from '../../../src/accounts/placement';
import { PlacementStore } from '../../../src/accounts/placementStore';
import { accountClients } from '../../support/accounts';
import { uniqueTableName } from '../../support/storage';

const CACHE_MS = 5_000;
const { home, data1 } = accountClients();
const table = home.table(uniqueTableName('Pl'));
afterAll(() => table.deleteTable().catch(() => undefined));

/** A placement over a fresh store whose reads are counted, and its clock. */
function placement() {
  const store = new PlacementStore(table);
  const reads = jest.spyOn(store, 'read');
  const clock = { now: 1_000_000 };
  const accounts = new AccountSet({ name: HOME_ACCOUNT, weight: 0, clients: home }, [
    { name: 'DATA1', weight: 1, clients: data1 },
  ]);
  const placed = new Placement({
    accounts,
    store,
    livesInHome: async () => false,
    cacheMs: CACHE_MS,
    now: () => clock.now,
  });
  return { placed, reads, clock };
}

it('answers the misses of one department that come together with one read', async () => {
  const { placed, reads, clock } = placement();
  const first = await placed.ofDepartment('Sales', { place: true });
  expect(first.account).toBe('DATA1');
  reads.mockClear();
  clock.now += CACHE_MS;
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => placed.ofDepartment('Sales', { place: true })),
  );
  expect(reads).toHaveBeenCalledTimes(1);
  expect(answers.map((a) => [a.account, a.version])).toEqual(Array(5).fill(['DATA1', 1]));
  // Cached from that read on.
  await placed.ofDepartment('Sales');
  expect(reads).toHaveBeenCalledTimes(1);
});

it('never shares a read with a fresh query, nor one sent before the department was forgotten', async () => {
  const { placed, reads } = placement();
  await placed.ofDepartment('HR', { place: true });
  reads.mockClear();
  await Promise.all([
    placed.ofDepartment('HR', { fresh: true }),
    placed.ofDepartment('HR', { fresh: true }),
  ]);
  expect(reads).toHaveBeenCalledTimes(2);
  placed.forget('HR');
  const before = placed.ofDepartment('HR');
  placed.forget('HR');
  const after = placed.ofDepartment('HR');
  await Promise.all([before, after]);
  expect(reads).toHaveBeenCalledTimes(4);
});
