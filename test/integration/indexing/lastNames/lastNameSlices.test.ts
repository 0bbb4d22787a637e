/**
 * The read path of the organisation-wide last-name search reads a bounded slice of a member list
 * per call, never the whole list: a long list in both index stores, read slice by slice (every
 * member once, in the store's order), counted request by request, and resumed after the list
 * changed under the reader.
 */
import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { blobLastNameStore } from '../../../../src/indexing/lastNames/lastNameBlobStore';
import { entityLastNameStore } from '../../../../src/indexing/lastNames/lastNameEntityStore';
import {
  encodeMember,
  type EmployeeRef,
  type LastNameStore,
} from '../../../../src/indexing/lastNames/lastNameStore';
import { ValidationError } from '../../../../src/domainErrors';
import { testClients, uniqueName, uniqueTableName } from '../../../support/storage';

const ref = (department: string, n: number): EmployeeRef => ({
  department,
  employeeId: String(n).padStart(6, '0'),
});

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
});
afterAll(() => proxy.stop());

/** Reads every slice; returns the members in order and the requests each slice made. */
async function readSlices(store: LastNameStore, limit: number) {
  const members: string[] = [];
  const requests: number[] = [];
  let after: string | undefined;
  do {
    proxy.resetCounts();
    const slice = await store.membersPage('Jones', after, limit);
    requests.push(proxy.counts().requests);
    members.push(...slice.members.map(encodeMember));
    after = slice.next;
  } while (after !== undefined);
  return { members, requests };
}

describe.each([
  [
    'entity',
    (connection: string) =>
      entityLastNameStore(testClients(connection).table(uniqueTableName('Slice')), {
        maxShardChars: 2_000,
      }),
  ],
  [
    'blob',
    (connection: string) => blobLastNameStore(testClients(connection).container(uniqueName('ln'))),
  ],
] as const)('last-name member slices, %s store', (mode, makeStore) => {
  // 12,000 members: 8 departments of 1,500 (a blob of ~200 KB; about 100 shards of 2,000 chars).
  const everyone = ['Ops', 'R and D', 'Sales', 'Support', 'Zeta', 'Alpha', 'Beta', 'Gamma'].flatMap(
    (department) => Array.from({ length: 1_500 }, (_, i) => ref(department, i + 1)),
  );
  let store: LastNameStore;

  beforeAll(async () => {
    store = makeStore(proxy.connectionString);
    // The index as the drain writes it: one conditional change per batch of members.
    for (let i = 0; i < everyone.length; i += 3_000) {
      const snapshot = await store.snapshot('Jones');
      expect(await store.change(snapshot, everyone.slice(i, i + 3_000), [])).toBeDefined();
    }
  });

  it('returns every member once, a bounded number of requests per slice', async () => {
    const { members, requests } = await readSlices(store, 997);
    expect(members).toHaveLength(everyone.length);
    expect(new Set(members).size).toBe(everyone.length);
    if (mode === 'blob') expect(members).toEqual(everyone.map(encodeMember).sort());
    // Entity: one shard per request, at most 4 per slice. Blob: the head, at most 4 reads forward
    // and, when resuming, at most one hint read or a binary search of ~log2(size / 64 KiB) probes.
    expect(Math.max(...requests)).toBeLessThanOrEqual(mode === 'entity' ? 4 : 8);
    console.log(`${mode}: ${requests.length} slices of 997, requests per slice ${requests}`);
  });

  it('resumes after the list changed before and after its position, each member once', async () => {
    const first = await store.membersPage('Jones', undefined, 500);
    const seen = first.members.map(encodeMember);
    // Members added before and after the position, one removed after it.
    const snapshot = await store.snapshot('Jones');
    const added = [ref('AAA', 1), ref('Ops', 999_999), ref('Zzz', 7)];
    const removed = everyone.find((m) => !seen.includes(encodeMember(m)))!;
    expect(await store.change(snapshot, added, [removed])).toBeDefined();
    let after = first.next;
    while (after !== undefined) {
      const slice = await store.membersPage('Jones', after, 997);
      seen.push(...slice.members.map(encodeMember));
      after = slice.next;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(encodeMember(removed));
    expect(seen).toContain('Zzz/000007');
    const expected = new Set([...everyone, ...added].map(encodeMember));
    expected.delete(encodeMember(removed));
    // Everything but what was added behind the reader's position.
    for (const member of seen) expect(expected.has(member)).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(everyone.length - 1);
    // Undo, for the other tests.
    expect(await store.change(await store.snapshot('Jones'), [removed], added)).toBeDefined();
  });

  it('refuses a position it did not produce, and finds nothing for an unknown name', async () => {
    await expect(store.membersPage('Jones', 'nonsense', 10)).rejects.toThrow(ValidationError);
    await expect(store.membersPage('Jones', '12:not a member', 10)).rejects.toThrow(
      ValidationError,
    );
    expect(await store.membersPage('Nobody', undefined, 10)).toEqual({
      members: [],
      next: undefined,
    });
  });
});
