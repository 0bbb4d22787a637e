/**
 * A drain round's lists at once (`LastNameStore.snapshots`, `changes`): the entity store reads the
 * names that share a partition (same first character) in one query and writes them in one entity
 * group transaction, each name conditional on its own rows only. A name another writer changed
 * since its snapshot is refused alone (its neighbours in the batch are still written); writers of
 * different names in one partition never refuse each other. The blob store gives the same answers
 * one list at a time.
 */
import type { TableClient } from '@azure/data-tables';
import { blobLastNameStore } from '../../../../src/indexing/lastNames/lastNameBlobStore';
import { entityLastNameStore } from '../../../../src/indexing/lastNames/lastNameEntityStore';
import {
  encodeMember,
  type EmployeeRef,
  type LastNameStore,
} from '../../../../src/indexing/lastNames/lastNameStore';
import { testClients, uniqueName, uniqueTableName } from '../../../support/storage';

const ref = (n: number, department = 'Sales'): EmployeeRef => ({
  department,
  employeeId: String(n).padStart(6, '0'),
});
const members = async (store: LastNameStore, name: string) =>
  (await store.members(name)).map(encodeMember);

/** Counts the table requests by method (a `$batch` is one POST). */
function countRequests(table: TableClient): Map<string, number> {
  const counts = new Map<string, number>();
  table.pipeline.addPolicy({
    name: 'h44Counts',
    sendRequest: (request, next) => {
      const kind = request.url.includes('$batch') ? 'batch' : request.method;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      return next(request);
    },
  });
  return counts;
}

describe('the entity store', () => {
  let table: TableClient;
  let store: LastNameStore;
  beforeEach(() => {
    table = testClients().table(uniqueTableName('LnBatch'));
    store = entityLastNameStore(table, { maxShardChars: 200 });
  });
  afterEach(() => table.deleteTable());

  it('reads the names of one partition in few queries and writes them in one transaction', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `j${i}`);
    await store.add('jzero', ref(999)); // the table exists, one name is there already
    const counts = countRequests(table);
    const lists = await store.snapshots(['jzero', ...names]);
    expect(lists.map((l) => l.lastName)).toEqual(['jzero', ...names]);
    expect(lists[0]!.members).toEqual([encodeMember(ref(999))]);
    // 31 names of one partition: five queries of at most 7 names (15 comparisons a filter).
    expect(counts.get('GET')).toBe(5);
    counts.clear();
    const written = await store.changes(
      lists.map((snapshot, i) => ({ snapshot, add: [ref(i)], remove: [] })),
    );
    // 31 names × (fence + one shard) = 62 operations: one transaction.
    expect([...counts]).toEqual([['batch', 1]]);
    expect(written.every((list) => list !== undefined)).toBe(true);
    expect(await members(store, 'jzero')).toEqual([ref(999), ref(0)].map(encodeMember).sort());
    expect(await members(store, 'j29')).toEqual([encodeMember(ref(30))]);
    // What `changes` answers is a snapshot for the next change, as `change`'s is.
    const again = await store.changes(
      written.map((snapshot) => ({ snapshot: snapshot!, add: [], remove: [ref(999)] })),
    );
    expect(again.every((list) => list !== undefined)).toBe(true);
    expect(await members(store, 'jzero')).toEqual([encodeMember(ref(0))]);
  });

  it('refuses only the name another writer changed since the snapshot', async () => {
    const [ann, jo, jules] = await store.snapshots(['jann', 'jo', 'jules']);
    // Another department's drain writes `jo` meanwhile (same partition as the others).
    await store.add('jo', ref(7, 'Marketing'));
    const written = await store.changes([
      { snapshot: ann!, add: [ref(1)], remove: [] },
      { snapshot: jo!, add: [ref(2)], remove: [] },
      { snapshot: jules!, add: [ref(3)], remove: [] },
    ]);
    expect(written.map((list) => list?.lastName)).toEqual(['jann', undefined, 'jules']);
    expect(await members(store, 'jann')).toEqual([encodeMember(ref(1))]);
    expect(await members(store, 'jo')).toEqual([encodeMember(ref(7, 'Marketing'))]);
    expect(await members(store, 'jules')).toEqual([encodeMember(ref(3))]);
  });

  it('lets two writers of different names in one partition both win, at once', async () => {
    const sales = await store.snapshots(['jones', 'jay']);
    const marketing = await store.snapshots(['johnson', 'jim']);
    const [a, b] = await Promise.all([
      store.changes(sales.map((snapshot, i) => ({ snapshot, add: [ref(i)], remove: [] }))),
      store.changes(
        marketing.map((snapshot, i) => ({ snapshot, add: [ref(i, 'Marketing')], remove: [] })),
      ),
    ]);
    expect([...a, ...b].every((list) => list !== undefined)).toBe(true);
    expect(await members(store, 'jones')).toEqual([encodeMember(ref(0))]);
    expect(await members(store, 'jim')).toEqual([encodeMember(ref(1, 'Marketing'))]);
  });

  it('refuses a batch change from an older snapshot after a change that changed nothing', async () => {
    const [older] = await store.snapshots(['jones']);
    const [newer] = await store.snapshots(['jones']);
    expect((await store.changes([{ snapshot: newer!, add: [], remove: [] }]))[0]).toBeDefined();
    expect((await store.changes([{ snapshot: older!, add: [ref(1)], remove: [] }]))[0]).toBe(
      undefined,
    );
    expect(await members(store, 'jones')).toEqual([]);
  });
});

it('gives the same answers from the blob store, one list at a time', async () => {
  const container = testClients().container(uniqueName('lnbatch'));
  const store = blobLastNameStore(container);
  try {
    const [ann, jo] = await store.snapshots(['jann', 'jo']);
    await store.add('jo', ref(7, 'Marketing'));
    const written = await store.changes([
      { snapshot: ann!, add: [ref(1)], remove: [] },
      { snapshot: jo!, add: [ref(2)], remove: [] },
    ]);
    expect(written.map((list) => list?.lastName)).toEqual(['jann', undefined]);
    expect(await members(store, 'jann')).toEqual([encodeMember(ref(1))]);
  } finally {
    await container.deleteIfExists();
  }
});
