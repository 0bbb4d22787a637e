/**
 * Outbox rows without a readable change used to stay forever, and 500 of them filled every round
 * ahead of the department's real changes: the drain moves them to dead-letter records (their write
 * and the row's delete in one transaction), logs a line each, and drains the rows behind them.
 */
import { odata } from '@azure/data-tables';
import { drainOutbox } from '../../../../src/indexing/drain/outboxDrain';
import { OUTBOX_DEAD_LETTER_TYPE } from '../../../../src/indexing/drain/outboxDeadLetter';
import { getEmployeeByEmailEventually } from '../../../../src/indexing/employeeIndex/indexQueries';
import { departmentPartitionKey } from '../../../../src/storage/keys/tables/employees';
import {
  outboxDeadLetterRowKey,
  outboxDeadLetterRowKeyRange,
  outboxRowKey,
  outboxRowKeyRange,
} from '../../../../src/storage/keys/tables/outbox';
import { createIndexingFixture, employeeBody as body, type IndexingFixture } from '../fixture';

let fx: IndexingFixture;
beforeEach(async () => {
  fx = createIndexingFixture({ mode: 'entity' });
  await fx.directory.departments.put('Sales', {});
});
afterEach(() => fx.cleanup());

const partitionKey = departmentPartitionKey('Sales');
const rowKeysIn = async (range: { ge: string; lt: string }): Promise<string[]> => {
  const found: string[] = [];
  for await (const entity of fx.stores.employees.listEntities({
    queryOptions: {
      filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
    },
  })) {
    found.push(String(entity.rowKey));
  }
  return found;
};

/** `count` outbox rows ahead of every employee's (id 000000) whose changes nobody can read. */
async function writeUnreadableRows(count: number): Promise<string[]> {
  const rowKeys = Array.from({ length: count }, (_, i) => outboxRowKey('000000', `a${i}`));
  for (let start = 0; start < count; start += 100) {
    await fx.stores.employees.submitTransaction(
      rowKeys.slice(start, start + 100).map((rowKey, i) => [
        'create',
        {
          partitionKey,
          rowKey,
          // Half corrupt JSON, half an entity of a type this code does not read.
          EntityType: i % 2 === 0 ? 'IndexOutbox.v1' : 'IndexOutbox.v9',
          Changes: '{not json',
        },
      ]),
    );
  }
  return rowKeys;
}

it('moves 500 unreadable rows to dead-letter records and drains the change behind them', async () => {
  const unreadable = await writeUnreadableRows(500);
  await fx.directory.employees.create('Sales', body(1));
  const lines: string[] = [];

  const result = await drainOutbox(fx.stores, 'Sales', { log: (line) => lines.push(line) });

  expect(result).toMatchObject({ deadLettered: 500, rows: 1, employees: 1, complete: true });
  expect(await rowKeysIn(outboxRowKeyRange())).toEqual([]);
  const found = await getEmployeeByEmailEventually(fx.stores.index, 'Sales', body(1).email);
  expect(found.value.employeeId).toBe('000001');
  const dead = await rowKeysIn(outboxDeadLetterRowKeyRange());
  expect(dead.sort()).toEqual(unreadable.map(outboxDeadLetterRowKey).sort());
  const record = await fx.stores.employees.getEntity<Record<string, unknown>>(
    partitionKey,
    outboxDeadLetterRowKey(unreadable[1]!),
  );
  expect(record).toMatchObject({
    EntityType: OUTBOX_DEAD_LETTER_TYPE,
    OriginalEntityType: 'IndexOutbox.v9',
    OutboxRowKey: unreadable[1],
    Changes: '{not json',
  });
  expect(lines).toHaveLength(500);
  expect(lines[0]).toContain(unreadable[0]);
});
