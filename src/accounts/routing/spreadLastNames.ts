/**
 * The organisation-wide last-name index over several accounts: each last name's list is written
 * in the account rendezvous hashing of the name picks (placement.ts `forKey`), so the drains'
 * conditional read-modify-writes of a list stay in one account and cost what they cost with one.
 * Readers ask every account: a name whose account changed when an account was added keeps its
 * older members where they were written (each member is checked against the directory before it
 * is answered, so a left-over member is never shown wrongly; the org-wide audit tidies them).
 */
import { foreignContinuationToken } from '../../storage/keys/keyErrors';
import { normalizeLastName } from '../../storage/keys/text';
import {
  encodeMember,
  type EmployeeRef,
  type LastNameStore,
  type MemberSlice,
  type MembershipPage,
} from '../../indexing';

/** One account's store. */
export interface AccountLastNames {
  account: string;
  store: LastNameStore;
}

/** A position across accounts: the account's index and its store's own position. */
function encodePosition(index: number, inner: string | undefined): string {
  return `${index}|${inner ?? ''}`;
}

function decodePosition(
  position: string | undefined,
  accounts: number,
): { index: number; inner: string | undefined } {
  if (position === undefined) return { index: 0, inner: undefined };
  const match = /^(\d{1,3})\|(.*)$/s.exec(position);
  const index = match ? Number(match[1]) : NaN;
  if (!match || index >= accounts) throw foreignContinuationToken();
  return { index, inner: match[2] === '' ? undefined : match[2] };
}

const key = encodeMember;

/**
 * A batch over the accounts: each account's store gets its own items in one call (the stores run
 * at once); the results come back in the items' order.
 */
async function byStore<T, R>(
  items: readonly T[],
  storeOf: (item: T) => LastNameStore,
  call: (store: LastNameStore, items: T[]) => Promise<R[]>,
): Promise<R[]> {
  const groups = new Map<LastNameStore, number[]>();
  items.forEach((item, i) => {
    const store = storeOf(item);
    groups.set(store, [...(groups.get(store) ?? []), i]);
  });
  const results = new Array<R>(items.length);
  await Promise.all(
    [...groups].map(async ([store, indexes]) => {
      const answers = await call(
        store,
        indexes.map((i) => items[i]!),
      );
      indexes.forEach((at, j) => (results[at] = answers[j]!));
    }),
  );
  return results;
}

/**
 * The spread store (see the file comment).
 *
 * @param stores - every account's store, in the accounts' order.
 * @param primary - the account that holds new writes of a (normalised) last name.
 */
export function spreadLastNameStore(
  stores: readonly AccountLastNames[],
  primary: (lastName: string) => string,
): LastNameStore {
  const storeOf = (lastName: string): LastNameStore => {
    const name = primary(normalizeLastName(lastName));
    return (stores.find((s) => s.account === name) ?? stores[0]!).store;
  };
  return {
    snapshot: (lastName) => storeOf(lastName).snapshot(lastName),
    change: (snapshot, add, remove) => storeOf(snapshot.lastName).change(snapshot, add, remove),
    snapshots: (names) => byStore(names, storeOf, (store, some) => store.snapshots(some)),
    changes: (changes) =>
      byStore(
        changes,
        (c) => storeOf(c.snapshot.lastName),
        (store, some) => store.changes(some),
      ),
    add: (lastName, member) => storeOf(lastName).add(lastName, member),
    remove: (lastName, member) => storeOf(lastName).remove(lastName, member),
    async members(lastName) {
      const lists = await Promise.all(stores.map((s) => s.store.members(lastName)));
      const seen = new Set<string>();
      return lists.flat().filter((member) => !seen.has(key(member)) && !!seen.add(key(member)));
    },
    async membersPage(lastName, after, limit): Promise<MemberSlice> {
      let { index, inner } = decodePosition(after, stores.length);
      // Accounts whose list is empty are passed within one call, so a slice is never only that.
      for (; index < stores.length; index++, inner = undefined) {
        const slice = await stores[index]!.store.membersPage(lastName, inner, limit);
        if (slice.next !== undefined) {
          return { members: slice.members, next: encodePosition(index, slice.next) };
        }
        if (slice.members.length > 0 || index === stores.length - 1) {
          const last = index + 1 >= stores.length;
          return { members: slice.members, next: last ? undefined : encodePosition(index + 1, '') };
        }
      }
      return { members: [], next: undefined };
    },
    async all() {
      const merged = new Map<string, EmployeeRef[]>();
      for (const { store } of stores) {
        for (const [name, members] of await store.all()) {
          const list = merged.get(name) ?? [];
          const seen = new Set(list.map(key));
          list.push(...members.filter((m) => !seen.has(key(m))));
          merged.set(name, list);
        }
      }
      return merged;
    },
    async listPage(after, limit): Promise<MembershipPage> {
      let { index, inner } = decodePosition(after, stores.length);
      for (; index < stores.length; index++, inner = undefined) {
        const page = await stores[index]!.store.listPage(inner, limit);
        if (page.next !== undefined || page.memberships.length > 0) {
          const next =
            page.next !== undefined
              ? encodePosition(index, page.next)
              : index + 1 < stores.length
                ? encodePosition(index + 1, '')
                : undefined;
          return { memberships: page.memberships, next };
        }
      }
      return { memberships: [], next: undefined };
    },
  };
}
