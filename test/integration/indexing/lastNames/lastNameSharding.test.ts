/**
 * Option 3 index entities past the size limit: a last name whose member list outgrows one entity
 * continues in more shard entities of the same partition (a low limit forces it here: 12 members
 * of about 15 characters over shards of 60, written all at once, so they also contend).
 */
import { odata } from '@azure/data-tables';
import { entityLastNameStore } from '../../../../src/indexing/lastNames/lastNameEntityStore';
import { testClients, uniqueTableName } from '../../../support/storage';

it('shards a long member list over part_000, part_001, ... and shrinks it again', async () => {
  const table = testClients().table(uniqueTableName('Shard'));
  const store = entityLastNameStore(table, { maxShardChars: 60 });
  try {
    const members = Array.from({ length: 12 }, (_, i) => ({
      department: i % 2 ? 'Sales' : 'R and D',
      employeeId: String(i).padStart(6, '0'),
    }));
    await Promise.all(members.map((m) => store.add('Jones', m)));
    expect(await store.add('jones', members[0]!)).toBe(false);
    const shards = [];
    for await (const e of table.listEntities<{ Members: string }>({
      // The names starting with `j` share a partition; jones's rows are `jones%~…`.
      queryOptions: { filter: odata`PartitionKey eq ${'lastnames_j'}` },
    })) {
      // Its fence is written with every change (lastNameStoreChange.test.ts).
      if (e.rowKey === 'jones%~~fence') continue;
      shards.push(e);
      expect(e.Members.length).toBeLessThanOrEqual(60);
    }
    expect(shards.length).toBeGreaterThan(1);
    expect(shards.map((s) => s.rowKey)).toContain('jones%~part_001');
    expect((await store.members('JONES')).length).toBe(12);

    await Promise.all(members.slice(0, 11).map((m) => store.remove('Jones', m)));
    expect(await store.members('jones')).toEqual([members[11]]);
  } finally {
    await table.deleteTable();
  }
});
