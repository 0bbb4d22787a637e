/**
 * The time-keyed insert against real Azurite: a suffix collision draws a new suffix, a lost answer
 * returns our own stored entity, a connection lost before storage saw the insert re-sends it, and
 * one attempt budget ends in a ContentionError (503). Faults come from a policy on the client's
 * pipeline, outside the SDK's retry policy, so each happens exactly once where the test says.
 */
import { RestError, type PipelineRequest } from '@azure/core-rest-pipeline';
import type { TableClient, TableEntity, TableEntityResult } from '@azure/data-tables';
import { ContentionError, NotFoundError } from '../../../../src/domainErrors';
import { insertTimeKeyed } from '../../../../src/storage/tables/timeKeyedInsert';
import { testClients, uniqueTableName } from '../../../support/storage';

type Row = TableEntity<{ EntityType: string; Writer: string }>;
type StoredRow = TableEntityResult<{ EntityType: string; Writer: string }>;

const clients = testClients();
const created: string[] = [];
afterAll(async () => {
  for (const name of created) await clients.tableService().deleteTable(name);
});

async function newTable(prefix: string): Promise<TableClient> {
  const name = uniqueTableName(prefix);
  await clients.tableService().createTable(name);
  created.push(name);
  // A client of its own, so the policies a test adds stay on that test's client.
  return testClients().table(name);
}

const isInsert = (request: PipelineRequest): boolean => request.method === 'POST';

/** A lost connection as the SDK reports it: a `RestError` with a code and no status. */
const connectionReset = (request: PipelineRequest): RestError =>
  new RestError('socket hang up', { code: 'ECONNRESET', request });

/**
 * On the first insert, `when: 'after'` lets storage apply it and then loses the answer;
 * `'before'` loses the connection before storage sees it. Counts the inserts sent.
 */
function loseFirstInsert(table: TableClient, when: 'before' | 'after'): { inserts(): number } {
  let inserts = 0;
  table.pipeline.addPolicy({
    name: `loseFirstInsert-${Math.random().toString(36).slice(2)}`,
    async sendRequest(request, next) {
      if (!isInsert(request)) return next(request);
      inserts++;
      if (inserts > 1) return next(request);
      if (when === 'after') await next(request);
      throw connectionReset(request);
    },
  });
  return { inserts: () => inserts };
}

async function partition(table: TableClient, partitionKey: string): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  const query = { queryOptions: { filter: `PartitionKey eq '${partitionKey}'` } };
  for await (const row of table.listEntities<{ EntityType: string; Writer: string }>(query))
    rows.push(row);
  return rows;
}

const row = (rowKey: string, writer: string): Row => ({
  partitionKey: 'P',
  rowKey,
  EntityType: 'Event',
  Writer: writer,
});

it("draws a new suffix when the first key holds another writer's entity, leaving it untouched", async () => {
  const table = await newTable('TkiCollide');
  const theirs = await table.createEntity(row('tick-taken', 'them'));
  const keysTried: string[] = [];

  const { entity, etag } = await insertTimeKeyed(table, (suffix) => {
    const next = row(keysTried.length === 0 ? 'tick-taken' : `tick-${suffix}`, 'us');
    keysTried.push(next.rowKey);
    return next;
  });

  expect(keysTried).toHaveLength(2);
  expect(entity.rowKey).toBe(keysTried[1]);
  expect(entity.rowKey).not.toBe('tick-taken');
  const stored = await partition(table, 'P');
  expect(stored.map((r) => [r.rowKey, r.Writer, r.etag]).sort()).toEqual(
    [
      ['tick-taken', 'them', theirs.etag],
      [entity.rowKey, 'us', etag],
    ].sort(),
  );
});

it('returns the stored ETag of its own insert when the answer was lost after storage applied it', async () => {
  const table = await newTable('TkiLostAnswer');
  const lost = loseFirstInsert(table, 'after');

  const { entity, etag } = await insertTimeKeyed(table, (suffix) => row(`tick-${suffix}`, 'us'));

  const stored = await partition(table, 'P');
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ rowKey: entity.rowKey, Writer: 'us', etag });
  // Read back, not sent again.
  expect(lost.inserts()).toBe(1);
});

it('sends the same insert again when the connection was lost before storage saw it', async () => {
  const table = await newTable('TkiLostRequest');
  const lost = loseFirstInsert(table, 'before');
  const keysDrawn: string[] = [];

  const { entity, etag } = await insertTimeKeyed(table, (suffix) => {
    keysDrawn.push(`tick-${suffix}`);
    return row(`tick-${suffix}`, 'us');
  });

  expect(lost.inserts()).toBe(2);
  expect(keysDrawn).toEqual([entity.rowKey]);
  const stored = await partition(table, 'P');
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ rowKey: entity.rowKey, Writer: 'us', etag });
});

it('gives up with a ContentionError (503) naming its attempts when every key it draws is taken', async () => {
  const table = await newTable('TkiGiveUp');
  const theirs = await table.createEntity(row('tick-taken', 'them'));
  let drawn = 0;

  const insert = insertTimeKeyed(table, () => {
    drawn++;
    return row('tick-taken', 'us');
  });

  const error: unknown = await insert.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ContentionError);
  const contention = error as ContentionError;
  expect(contention.attempts).toBe(4);
  expect(contention.retryAfterSeconds).toBe(1);
  expect(contention.message).toBe(
    'Could not insert a time-keyed entity after 4 attempts ' +
      '(RowKey suffixes taken or the connection kept dropping).',
  );
  expect(drawn).toBe(4);
  const stored = await partition(table, 'P');
  expect(stored.map((r) => [r.rowKey, r.Writer, r.etag])).toEqual([
    ['tick-taken', 'them', theirs.etag],
  ]);
});

it('surfaces a missing table as TableNotFound, also when it is found missing while reading back', async () => {
  const table = await newTable('TkiNoTable');
  await clients.tableService().deleteTable(table.tableName);
  await expect(
    insertTimeKeyed(table, (suffix) => row(`tick-${suffix}`, 'us')),
  ).rejects.toMatchObject({ code: 'TableNotFound' });

  // The table is dropped while the insert's connection is lost: the read-back says so and the
  // insert is not sent again into a table that is gone.
  const dropped = await newTable('TkiDropped');
  let inserts = 0;
  dropped.pipeline.addPolicy({
    name: 'dropTableThenLoseInsert',
    async sendRequest(request, next) {
      if (!isInsert(request)) return next(request);
      inserts++;
      await clients.tableService().deleteTable(dropped.tableName);
      throw connectionReset(request);
    },
  });
  const error: unknown = await insertTimeKeyed(dropped, (suffix) => row(`tick-${suffix}`, 'us'))
    .then(() => undefined)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotFoundError);
  expect(error).toMatchObject({ code: 'TableNotFound' });
  expect(inserts).toBe(1);
  created.splice(created.indexOf(dropped.tableName), 1);
  created.splice(created.indexOf(table.tableName), 1);
});
