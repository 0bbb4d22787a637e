/**
 * A conditional change of an org-wide member list (`LastNameStore.change`), as the outbox drain
 * uses it: the list is its own fence. Whatever a change does — even nothing — a change made from
 * an older snapshot fails after it, in both stores; and a list once there never goes back to
 * absent, since a create from a snapshot that found it absent could not tell. The single-member
 * `add` and `remove` (the v1 reconcile, the audit's repairs) keep both rules too.
 */
import { odata } from '@azure/data-tables';
import { blobLastNameStore } from '../../../../src/indexing/lastNames/lastNameBlobStore';
import { entityLastNameStore } from '../../../../src/indexing/lastNames/lastNameEntityStore';
import { encodeMember, type LastNameStore } from '../../../../src/indexing/lastNames/lastNameStore';
import { orgLastNameGroupKey } from '../../../../src/storage/keys/tables/employeeIndex';
import { testClients, uniqueName, uniqueTableName } from '../../../support/storage';

const ann = { department: 'Sales', employeeId: '000001' };
const bob = { department: 'Sales', employeeId: '000002' };
const cat = { department: 'Sales', employeeId: '000003' };
const dan = { department: 'Sales', employeeId: '000004' };

describe.each(['entity', 'blob'] as const)('member lists in the %s store', (mode) => {
  let store: LastNameStore;
  let cleanup: () => Promise<unknown>;
  beforeEach(() => {
    const clients = testClients();
    if (mode === 'entity') {
      const table = clients.table(uniqueTableName('LnChange'));
      store = entityLastNameStore(table, { maxShardChars: 40 });
      cleanup = () => table.deleteTable();
    } else {
      const container = clients.container(uniqueName('lnchange'));
      store = blobLastNameStore(container);
      cleanup = () => container.deleteIfExists();
    }
  });
  afterEach(() => cleanup());

  it('refuses a change from an older snapshot after a change that changed nothing', async () => {
    await store.add('Jones', ann);
    const older = await store.snapshot('jones');
    const newer = await store.snapshot('jones');
    expect(await store.change(newer, [], [])).toBeDefined();
    expect(await store.change(older, [bob], [])).toBeUndefined();
    expect(await store.members('jones')).toEqual([ann]);
  });

  it('refuses a create from a snapshot of an absent list after a change that left it empty', async () => {
    const older = await store.snapshot('smith');
    expect(older.members).toEqual([]);
    expect(await store.change(await store.snapshot('smith'), [], [])).toBeDefined();
    expect(await store.change(older, [bob], [])).toBeUndefined();
    expect(await store.members('smith')).toEqual([]);
    expect((await store.all()).has('smith')).toBe(false); // an empty list indexes nobody
  });

  it('keeps a list that `remove` emptied, so that a create from when it was absent fails', async () => {
    const absent = await store.snapshot('ng');
    await store.add('Ng', ann);
    await store.remove('Ng', ann);
    expect(await store.members('ng')).toEqual([]);
    expect((await store.all()).has('ng')).toBe(false); // an empty list indexes nobody
    // Had `remove` deleted the emptied list, this change from before it existed would apply.
    expect(await store.change(absent, [bob], [])).toBeUndefined();
    expect(await store.members('ng')).toEqual([]);
  });

  it('refuses a change from a snapshot older than an add or a remove, whatever shard they wrote', async () => {
    // 40 characters a shard: Ann and Bob fill the first, Cat and Dan go to the second.
    for (const member of [ann, bob, cat]) await store.add('Jones', member);
    const beforeAdd = await store.snapshot('jones');
    await store.add('Jones', dan);
    // Removing Ann writes only the first shard: it must still fail, as it was decided without Dan.
    expect(await store.change(beforeAdd, [], [ann])).toBeUndefined();
    const beforeRemove = await store.snapshot('jones');
    await store.remove('Jones', dan);
    expect(await store.change(beforeRemove, [], [ann])).toBeUndefined();
    expect(await store.members('jones')).toEqual([ann, bob, cat]);
  });

  it('keeps an emptied list, so that a create from when it was absent fails', async () => {
    const absent = await store.snapshot('jones');
    expect(await store.change(await store.snapshot('jones'), [ann, bob], [])).toBeDefined();
    expect(await store.change(await store.snapshot('jones'), [], [ann, bob])).toBeDefined();
    expect(await store.members('jones')).toEqual([]);
    // Deleting the emptied list would make it absent again, as `absent` saw it: this would pass.
    expect(await store.change(absent, [ann], [])).toBeUndefined();
    expect(await store.change(await store.snapshot('jones'), [ann], [])).toBeDefined();
    expect(await store.members('jones')).toEqual([ann]);
  });
});

describe('the entity store', () => {
  it('keeps a shard that `remove` emptied, listing nobody', async () => {
    const table = testClients().table(uniqueTableName('LnRemove'));
    const store = entityLastNameStore(table, { maxShardChars: 40 });
    try {
      for (const member of [ann, bob, cat]) await store.add('Ng', member);
      await store.remove('Ng', cat);
      const shards: Record<string, unknown>[] = [];
      for await (const entity of table.listEntities<Record<string, unknown>>({
        queryOptions: { filter: odata`PartitionKey eq ${orgLastNameGroupKey('ng')}` },
      })) {
        shards.push(entity);
      }
      expect(shards.map((e) => [e.rowKey, e.Members ?? null])).toEqual([
        ['ng%~part_000', JSON.stringify([encodeMember(ann), encodeMember(bob)])],
        ['ng%~part_001', '[]'],
        ['ng%~~fence', null],
      ]);
    } finally {
      await table.deleteTable();
    }
  });
});
