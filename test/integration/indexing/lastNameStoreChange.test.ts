/**
 * A conditional change of an org-wide member list (`LastNameStore.change`), as the outbox drain
 * uses it: the list is its own fence. Whatever a change does — even nothing — a change made from
 * an older snapshot fails after it, in both stores; and a list once there never goes back to
 * absent, since a create from a snapshot that found it absent could not tell.
 */
import { blobLastNameStore } from '../../../src/indexing/lastNameBlobStore';
import { entityLastNameStore } from '../../../src/indexing/lastNameEntityStore';
import type { LastNameStore } from '../../../src/indexing/lastNameStore';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

const ann = { department: 'Sales', employeeId: '000001' };
const bob = { department: 'Sales', employeeId: '000002' };

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

describe('the blob store', () => {
  it('keeps a list that `remove` emptied, so that a create from when it was absent fails', async () => {
    const container = testClients().container(uniqueName('lnremove'));
    const store = blobLastNameStore(container);
    try {
      const absent = await store.snapshot('ng');
      await store.add('Ng', ann);
      await store.remove('Ng', ann);
      expect(await store.members('ng')).toEqual([]);
      expect((await store.all()).has('ng')).toBe(false); // an empty list indexes nobody
      // Had `remove` deleted the emptied blob, this change from before it existed would apply.
      expect(await store.change(absent, [bob], [])).toBeUndefined();
      expect(await store.members('ng')).toEqual([]);
    } finally {
      await container.deleteIfExists();
    }
  });
});
