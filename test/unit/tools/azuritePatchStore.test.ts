/**
 * The emulator patch's partition-pinned query (patches/azurite+*.patch, docs/emulator-patch.md) on
 * a LokiJS collection whose indices are not adaptive: LokiJS then leaves an index dirty after a
 * write and rebuilds it, as a new object, when a query needs it. The patch must walk the rebuilt
 * index, not the object it saw before asking for the rebuild. (Azurite's own collections are
 * adaptive, so the differential test cannot reach this path; an upstream reviewer would.)
 */
import { createRequire } from 'node:module';

interface Store {
  init(): Promise<void>;
  close(): Promise<void>;
  db: { getCollection(name: string): { adaptiveBinaryIndices: boolean } };
  createTable(context: unknown, table: { account: string; table: string }): Promise<void>;
  insertTableEntity(
    context: unknown,
    table: string,
    account: string,
    entity: Record<string, unknown>,
    batchId: string,
  ): Promise<unknown>;
  queryTableEntities(
    context: unknown,
    account: string,
    table: string,
    queryOptions: { filter?: string },
    nextPartitionKey?: string,
    nextRowKey?: string,
  ): Promise<[{ PartitionKey: string; RowKey: string }[], ...unknown[]]>;
}

const load = createRequire(__filename);
const { default: LokiTableMetadataStore } = load(
  'azurite/dist/src/table/persistence/LokiTableMetadataStore',
) as { default: new (path: string, inMemory: boolean) => Store };

const entity = (partitionKey: string, rowKey: string) => ({
  PartitionKey: partitionKey,
  RowKey: rowKey,
  properties: { PartitionKey: partitionKey, RowKey: rowKey },
  lastModifiedTime: new Date(0).toISOString(),
  eTag: `W/"${partitionKey}${rowKey}"`,
});

it('walks the rebuilt PartitionKey index of a collection whose indices are not adaptive', async () => {
  const store = new LokiTableMetadataStore('unused', true);
  await store.init();
  const context = {};
  await store.createTable(context, { account: 'acc', table: 'patched' });
  store.db.getCollection('acc$patched').adaptiveBinaryIndices = false;
  for (const [p, r] of [
    ['b', '1'],
    ['a', '1'],
  ]) {
    await store.insertTableEntity(context, 'patched', 'acc', entity(p!, r!), '');
  }
  // A first pinned query builds the index; the inserts after it leave it dirty.
  await store.queryTableEntities(context, 'acc', 'patched', { filter: "PartitionKey eq 'a'" });
  for (const [p, r] of [
    ['c', '1'],
    ['a', '2'],
    ['a', '0'],
  ]) {
    await store.insertTableEntity(context, 'patched', 'acc', entity(p!, r!), '');
  }

  const [found] = await store.queryTableEntities(context, 'acc', 'patched', {
    filter: "PartitionKey eq 'a'",
  });

  expect(found.map((e) => `${e.PartitionKey}/${e.RowKey}`)).toEqual(['a/0', 'a/1', 'a/2']);
  await store.close();
});
