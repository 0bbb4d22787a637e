/**
 * What a drain costs in member-list requests when nearly every employee has a last name of their
 * own, as in a real organisation: the names of a round that share a partition are read in one
 * query and written in one transaction, so the lists cost a small fraction of a request per
 * employee (one read and one write per name per round cost 1.4 per employee before).
 */
import type { TableClient } from '@azure/data-tables';
import { drainOutbox } from '../../../../src/indexing/drain/outboxDrain';
import { createIndexingFixture, employeeBody, type IndexingFixture } from '../fixture';

let fx: IndexingFixture;
beforeEach(() => {
  fx = createIndexingFixture({ mode: 'entity' });
});
afterEach(() => fx.cleanup());

/** Counts the requests that read or write org-wide list partitions (`lastnames_…`, `lastname_…`). */
function countListRequests(table: TableClient): { count: number } {
  const counter = { count: 0 };
  table.pipeline.addPolicy({
    name: 'listRequests',
    sendRequest: (request, next) => {
      const text = `${decodeURIComponent(request.url)} ${typeof request.body === 'string' ? request.body : ''}`;
      if (/PartitionKey(?:='|\s+eq\s+'|":")lastnames?_/.test(text)) counter.count++;
      return next(request);
    },
  });
  return counter;
}

it('writes the member lists of 300 employees with 300 distinct names in a few requests', async () => {
  await fx.directory.departments.put('Sales', {});
  // Names over a few first letters, each carried by one employee (and `Shared` by a quarter).
  const letters = ['a', 'b', 'k', 'm', 's', 'w'];
  const rows = Array.from({ length: 400 }, (_, i) =>
    employeeBody(i + 1, { lastName: i % 4 === 0 ? 'Shared' : `${letters[i % 6]}name${i}` }),
  );
  await fx.directory.employees.import('Sales', rows);
  const lists = countListRequests(fx.stores.index);

  const result = await drainOutbox(fx.stores, 'Sales', { sleep: async () => {} });

  expect(result).toMatchObject({ employees: 400, complete: true });
  // Per round (≤ 100 names): a query per ≤ 20 names of a partition, a transaction per partition.
  expect(lists.count / rows.length).toBeLessThan(0.25);
  expect(await fx.stores.lastNames.members('Shared')).toHaveLength(100);
  for (const row of rows.filter((r) => r.lastName !== 'Shared').slice(0, 5)) {
    expect(await fx.stores.lastNames.members(row.lastName)).toEqual([
      { department: 'Sales', employeeId: row.employeeId },
    ]);
  }
  expect(await fx.drift()).toEqual([]);
});
