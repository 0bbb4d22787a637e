/**
 * The entity store's writes (option 3, `lastNameEntityStore.ts`): the snapshot and the chained
 * change the outbox drain uses ({@link changeList}), and one member at a time ({@link addMember},
 * {@link removeMember}). Every write holds the name's drain fence, conditional on it as read.
 */
import type { TableClient } from '@azure/data-tables';
import { ensureTable } from '../../storage/createOnce';
import type { EntityGroupAction } from '../../storage/tables/entityGroupTransaction';
import {
  orgLastNameGroupKey,
  orgLastNameShardRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import { RETRY, type Retry } from '../../storage/optimisticRetry';
import {
  changeMember,
  encodeMember,
  type EmployeeRef,
  type MemberListSnapshot,
} from './lastNameStore';
import {
  freeShardNumber,
  readList,
  shardEntity,
  submitChained,
  type ListVersion,
  type Shard,
} from './lastNameEntityShards';

/**
 * One last name's shards and fence, for {@link changeList}.
 *
 * @throws {DomainError} for storage faults.
 */
export async function snapshotList(
  table: TableClient,
  lastName: string,
): Promise<MemberListSnapshot> {
  const name = normalizeLastName(lastName);
  const list = await readList(table, name);
  return { lastName: name, members: list.shards.flatMap((s) => s.members), version: list };
}

/**
 * The shards after removing `remove` from `read` (`next`, by index of `read`) and the new shards
 * (`created`) for the additions that fit in no shard of at most `maxChars` characters.
 */
function placeMembers(
  read: readonly Shard[],
  add: readonly EmployeeRef[],
  remove: readonly EmployeeRef[],
  maxChars: number,
): { next: Shard[]; created: Shard[] } {
  const removed = new Set(remove.map(encodeMember));
  const present = new Set(read.flatMap((s) => s.members).filter((m) => !removed.has(m)));
  const next = read.map((s) => ({ ...s, members: s.members.filter((m) => !removed.has(m)) }));
  const created: Shard[] = [];
  for (const member of add.map(encodeMember)) {
    if (present.has(member)) continue;
    present.add(member);
    const all = [...next, ...created];
    const fits = all.find((s) => JSON.stringify([...s.members, member]).length <= maxChars);
    if (fits) fits.members = [...fits.members, member].sort();
    else created.push({ number: freeShardNumber(all), members: [member], etag: '' });
  }
  return { next, created };
}

/** The shard writes of a change, and the shards after it with the action that wrote each. */
export interface ShardWrites {
  /** The shard writes; `after` refers to them by index. */
  actions: EntityGroupAction[];
  /** The shards after the change, with the action that wrote each (none: unchanged). */
  after: { shard: Shard; action?: number }[];
}

/** The writes turning `read` into `next` and `created`: unchanged shards are not written. */
function shardWrites(
  name: string,
  read: readonly Shard[],
  { next, created }: { next: Shard[]; created: Shard[] },
): ShardWrites {
  const writes: ShardWrites = { actions: [], after: [] };
  const { actions, after } = writes;
  next.forEach((shard, i) => {
    const before = read[i]!.members;
    const unchanged =
      shard.members.length === before.length && shard.members.every((m, j) => m === before[j]);
    if (unchanged) {
      after.push({ shard });
      return;
    }
    const key = {
      partitionKey: orgLastNameGroupKey(name),
      rowKey: orgLastNameShardRowKey(name, shard.number),
    };
    if (shard.members.length === 0) {
      actions.push(['delete', key, { etag: shard.etag }]);
      return;
    }
    const entity = shardEntity(name, shard.number, shard.members);
    after.push({
      shard,
      action: actions.push(['update', entity, 'Replace', { etag: shard.etag }]) - 1,
    });
  });
  for (const shard of created) {
    const entity = shardEntity(name, shard.number, shard.members);
    after.push({ shard, action: actions.push(['create', entity]) - 1 });
  }
  return writes;
}

/**
 * The writes of one change of the entity store: the changed shards (the fence is added when they
 * are submitted), and the shards after them.
 */
export function planChange(
  maxChars: number,
  snapshot: MemberListSnapshot,
  add: readonly EmployeeRef[],
  remove: readonly EmployeeRef[],
): ShardWrites {
  const { shards: read } = snapshot.version as ListVersion;
  return shardWrites(snapshot.lastName, read, placeMembers(read, add, remove, maxChars));
}

/**
 * The list as a change left it, from the ETags its writes gave (`etags` by action, `fence` the
 * fence's); read again when the service left one out.
 *
 * @throws {DomainError} for storage faults.
 */
export async function writtenList(
  table: TableClient,
  name: string,
  { after }: ShardWrites,
  etags: readonly (string | undefined)[],
  fence: string | undefined,
): Promise<MemberListSnapshot> {
  const shards: Shard[] = [];
  for (const { shard, action } of after) {
    const etag = action === undefined ? shard.etag : etags[action];
    if (etag === undefined) return snapshotList(table, name);
    shards.push({ ...shard, etag });
  }
  if (fence === undefined) return snapshotList(table, name);
  const version: ListVersion = { shards, fence };
  return { lastName: name, members: version.shards.flatMap((s) => s.members), version };
}

/**
 * {@link LastNameStore.change} of the entity store: the changed shards and the name's fence in
 * chained transactions ({@link submitChained}), conditional on the snapshot.
 *
 * @returns the list as written, or `undefined` when it changed since `snapshot`.
 * @throws {DomainError} for storage faults.
 */
export async function changeList(
  table: TableClient,
  maxChars: number,
  snapshot: MemberListSnapshot,
  add: readonly EmployeeRef[],
  remove: readonly EmployeeRef[],
): Promise<MemberListSnapshot | undefined> {
  const name = snapshot.lastName;
  const { fence } = snapshot.version as ListVersion;
  // The name's fence is written whatever else is (created once, never deleted): so the change
  // is conditional on the whole list as read, and a later change from an older snapshot fails
  // even when this one changed nothing (see LastNameStore.change).
  const writes = planChange(maxChars, snapshot, add, remove);
  await ensureTable(table);
  const written = await submitChained(table, name, fence, writes.actions);
  if (written === undefined) return undefined;
  return writtenList(table, name, writes, written.etags, written.fence);
}

// One member at a time (the v1 reconcile, the audit's repairs): the shard's write and the
// partition's fence in one transaction, conditional on both as read (creating the fence when
// the list has none), as `change` writes them. So the member list is one version, as the blob
// store's blob is: an add or a remove fails when anything in the list changed since its read,
// and a `change` from a snapshot older than it fails too, whichever shard it wrote.

/** One shard write with the fence, as read (true), or `RETRY` when either changed since. */
async function writeFenced(
  table: TableClient,
  name: string,
  fence: string | undefined,
  action: EntityGroupAction,
): Promise<true | Retry> {
  return (await submitChained(table, name, fence, [action])) === undefined ? RETRY : true;
}

/** The list of one name as read, with what a single-member change writes through. */
interface ListRead {
  name: string;
  shards: Shard[];
  fence: string | undefined;
}

/**
 * A single-member change of the entity store: reads the name's list, lets `edit` decide, and
 * runs again on a lost race.
 */
function changeOneMember(
  table: TableClient,
  lastName: string,
  member: EmployeeRef,
  edit: (list: ListRead, encoded: string) => Promise<boolean | Retry>,
): Promise<boolean> {
  return changeMember('Last-name index', lastName, member, async (name, encoded) => {
    return edit({ name, ...(await readList(table, name)) }, encoded);
  });
}

/** A shard's members replaced, with the fence, both as read (see {@link writeFenced}). */
function replaceShard(
  table: TableClient,
  list: ListRead,
  shard: Shard,
  members: string[],
): Promise<true | Retry> {
  const entity = shardEntity(list.name, shard.number, members);
  const action: EntityGroupAction = ['update', entity, 'Replace', { etag: shard.etag }];
  return writeFenced(table, list.name, list.fence, action);
}

/**
 * {@link LastNameStore.add} of the entity store: into the first shard with room, or a new shard.
 *
 * @throws {ThrottledError} when the list kept changing; {@link DomainError} for storage faults.
 */
export function addMember(
  table: TableClient,
  maxChars: number,
  lastName: string,
  member: EmployeeRef,
): Promise<boolean> {
  return changeOneMember(table, lastName, member, async (list, encoded) => {
    if (list.shards.some((s) => s.members.includes(encoded))) return false;
    const fits = list.shards.find(
      (s) => JSON.stringify([...s.members, encoded]).length <= maxChars,
    );
    if (fits) return replaceShard(table, list, fits, [...fits.members, encoded].sort());
    const entity = shardEntity(list.name, freeShardNumber(list.shards), [encoded]);
    return writeFenced(table, list.name, list.fence, ['create', entity]);
  });
}

/**
 * {@link LastNameStore.remove} of the entity store: from the shard holding the member.
 *
 * @throws {ThrottledError} when the list kept changing; {@link DomainError} for storage faults.
 */
export function removeMember(
  table: TableClient,
  lastName: string,
  member: EmployeeRef,
): Promise<boolean> {
  return changeOneMember(table, lastName, member, async (list, encoded) => {
    const holding = list.shards.find((s) => s.members.includes(encoded));
    if (!holding) return false;
    // An emptied shard is kept (listing nobody), never deleted: with the fence, the list never
    // goes back to absent (see LastNameStore.change).
    const members = holding.members.filter((m) => m !== encoded);
    return replaceShard(table, list, holding, members);
  });
}
