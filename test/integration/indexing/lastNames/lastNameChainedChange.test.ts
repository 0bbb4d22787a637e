/**
 * Option 3: a member-list change touching more than 99 shards used to go out as one entity group
 * transaction of more than 100 operations (Azure answers 400; Azurite does not enforce it), which
 * blocked the department's outbox for good. It is now written in chained transactions of at most
 * 100 operations (the fence and 99 shard writes), each next one conditional on the fence's ETag the
 * previous one gave: a change that gets in between two of them makes the rest of the chain fail.
 * A counting wrapper around the table client records each submitted transaction.
 */
import type { TableClient, TransactionAction } from '@azure/data-tables';
import {
  entityLastNameStore,
  MAX_TRANSACTION_OPERATIONS,
} from '../../../../src/indexing/lastNames/lastNameEntityStore';
import type { EmployeeRef } from '../../../../src/indexing/lastNames/lastNameStore';
import { testClients, uniqueTableName } from '../../../support/storage';

/** The table client, recording the size of every transaction and calling `after` after each. */
function counting(table: TableClient) {
  const sizes: number[] = [];
  const hooks: { after?: (index: number) => Promise<void> } = {};
  const wrapped = new Proxy(table, {
    get(target, property, receiver) {
      if (property === 'submitTransaction') {
        return async (actions: TransactionAction[]) => {
          sizes.push(actions.length);
          const index = sizes.length - 1;
          const response = await target.submitTransaction(actions);
          await hooks.after?.(index);
          return response;
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { wrapped, sizes, hooks };
}

const people = (count: number, from = 0): EmployeeRef[] =>
  Array.from({ length: count }, (_, i) => ({
    department: 'Sales',
    employeeId: String(from + i).padStart(6, '0'),
  }));

let table: TableClient;
beforeEach(() => {
  table = testClients().table(uniqueTableName('Chain'));
});
afterEach(() => table.deleteTable());

// One member a shard: every member added or removed is a shard written.
const ONE_MEMBER_A_SHARD = 20;

it('writes a change of 150 shards in transactions of at most 100 operations', async () => {
  const { wrapped, sizes } = counting(table);
  const store = entityLastNameStore(wrapped, { maxShardChars: ONE_MEMBER_A_SHARD });
  const written = await store.change(await store.snapshot('Jones'), people(150), []);
  expect(written?.members).toHaveLength(150);
  expect(sizes).toEqual([100, 52]);
  expect(await store.members('Jones')).toEqual(people(150));

  // The version the chain returns is the list's: the next change (all removed) is accepted.
  sizes.length = 0;
  const emptied = await store.change(written!, [], people(150));
  expect(emptied?.members).toEqual([]);
  expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_TRANSACTION_OPERATIONS);
  expect(sizes).toHaveLength(2);
  expect(await store.members('Jones')).toEqual([]);
});

it('fails the rest of the chain when another change gets in between, losing the round', async () => {
  const { wrapped, sizes, hooks } = counting(table);
  const store = entityLastNameStore(wrapped, { maxShardChars: ONE_MEMBER_A_SHARD });
  const other = entityLastNameStore(table, { maxShardChars: ONE_MEMBER_A_SHARD });
  const stale = await store.snapshot('Jones');
  // Between the first and the second transaction, another drainer changes the list.
  hooks.after = async (index) => {
    if (index !== 0) return;
    const between = await other.snapshot('Jones');
    // A reader between the two sees part of the change: the first 99 members, each once.
    expect(between.members).toEqual(people(99).map((m) => `${m.department}/${m.employeeId}`));
    expect(await other.change(between, people(1, 500), [])).toBeDefined();
  };
  expect(await store.change(stale, people(150), [])).toBeUndefined();
  expect(sizes).toEqual([100, 52]);

  // The rerun (a fresh read) writes what is still missing, and keeps the other change.
  hooks.after = undefined;
  const rerun = await store.change(await store.snapshot('Jones'), people(150), []);
  expect(rerun?.members).toHaveLength(151);
  expect(await store.members('Jones')).toEqual([...people(150), ...people(1, 500)]);
});
