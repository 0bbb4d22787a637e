/**
 * Conditional deletes inside an entity group transaction, against real Azurite: a delete that
 * carries an ETag which no longer matches fails the whole transaction with 412 and nothing of it
 * is applied; the current ETag deletes.
 */
import { RestError, type TableClient } from '@azure/data-tables';
import { submitEntityGroupTransaction } from '../../../../src/storage/tables/entityGroupTransaction';
import { testClients, uniqueTableName } from '../../../support/storage';

let table: TableClient;
beforeAll(async () => {
  table = testClients().table(uniqueTableName('Egt'));
  await table.createTable();
});
afterAll(() => table.deleteTable());

async function exists(partitionKey: string, rowKey: string): Promise<boolean> {
  try {
    await table.getEntity(partitionKey, rowKey);
    return true;
  } catch (error) {
    if (error instanceof RestError && error.statusCode === 404) return false;
    throw error;
  }
}

it('a stale ETag on a delete fails the whole transaction with 412 and applies nothing', async () => {
  const pk = 'stale';
  const { etag: readEtag } = await table.createEntity({
    partitionKey: pk,
    rowKey: 'employee',
    v: 1,
  });
  await table.createEntity({ partitionKey: pk, rowKey: 'copy', v: 1 });
  // Someone else changes the employee after we read it.
  await table.updateEntity({ partitionKey: pk, rowKey: 'employee', v: 2 }, 'Merge');

  const attempt = submitEntityGroupTransaction(table, [
    ['upsert', { partitionKey: pk, rowKey: 'marker', v: 1 }, 'Replace'],
    ['delete', { partitionKey: pk, rowKey: 'copy' }],
    ['delete', { partitionKey: pk, rowKey: 'employee' }, { etag: readEtag }],
  ]);

  await expect(attempt).rejects.toMatchObject({ statusCode: 412 });
  await expect(attempt).rejects.toThrow(/^2:/);
  expect((await table.getEntity(pk, 'employee')).v).toBe(2);
  expect(await exists(pk, 'copy')).toBe(true);
  expect(await exists(pk, 'marker')).toBe(false);
});

it('the current ETag deletes, together with the rest of the transaction', async () => {
  const pk = 'current';
  await table.createEntity({ partitionKey: pk, rowKey: 'employee', v: 1 });
  await table.createEntity({ partitionKey: pk, rowKey: 'copy', v: 1 });
  const { etag: currentEtag } = await table.updateEntity(
    { partitionKey: pk, rowKey: 'employee', v: 2 },
    'Merge',
  );
  const { etag: copyEtag } = await table.getEntity(pk, 'copy');

  const response = await submitEntityGroupTransaction(table, [
    ['upsert', { partitionKey: pk, rowKey: 'marker', v: 1 }, 'Replace'],
    ['delete', { partitionKey: pk, rowKey: 'copy' }, { etag: copyEtag }],
    ['delete', { partitionKey: pk, rowKey: 'employee' }, { etag: currentEtag! }],
  ]);

  expect(response.subResponses.map((r) => r.status)).toEqual([204, 204, 204]);
  expect(await exists(pk, 'employee')).toBe(false);
  expect(await exists(pk, 'copy')).toBe(false);
  expect(await exists(pk, 'marker')).toBe(true);
});

it('a stale ETag on an update fails the transaction too, and its new ETag comes back when current', async () => {
  const pk = 'update';
  const { etag: first } = await table.createEntity({ partitionKey: pk, rowKey: 'e', v: 1 });
  const { etag: second } = await table.updateEntity(
    { partitionKey: pk, rowKey: 'e', v: 2 },
    'Merge',
  );

  await expect(
    submitEntityGroupTransaction(table, [
      ['update', { partitionKey: pk, rowKey: 'e', v: 3 }, 'Merge', { etag: first }],
    ]),
  ).rejects.toMatchObject({ statusCode: 412 });
  const response = await submitEntityGroupTransaction(table, [
    ['update', { partitionKey: pk, rowKey: 'e', v: 3 }, 'Merge', { etag: second }],
  ]);
  const stored = await table.getEntity(pk, 'e');
  expect(stored.v).toBe(3);
  expect(response.subResponses[0]?.etag).toBe(stored.etag);
});
