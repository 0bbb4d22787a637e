/**
 * The organisation-wide last-name index (index entities): for each normalised last name, the
 * (department, employee id) pairs of the employees who carry it. Two stores implement it, chosen
 * by `LASTNAME_INDEX_MODE`:
 *
 * - `entity` (guide option 3): entities in `EmployeeIndex`, names grouped into partitions by first
 *   character, a name's list sharded over RowKeys `jones%~part_000`, ... when it outgrows one;
 * - `blob` (guide option 1): one JSON blob per last name in `lastname-index`.
 *
 * Both change a member list only with ETag-conditional writes and retry on a lost race, so
 * concurrent workers never lose each other's additions. `add` and `remove` are idempotent.
 */
import { tookEffect } from '../../storage/storageFaults';
import { isDepartmentName, isEmployeeId } from '../../storage/keys/identifiers';
import { normalizeLastName } from '../../storage/keys/text';
import { memberListContended } from '../indexingErrors';
import { foreignContinuationToken } from '../../storage/keys/keyErrors';
import {
  RETRY,
  retryOptimistically,
  type OptimisticRetryOptions,
  type Retry,
} from '../../storage/optimisticRetry';

/** One member of a last name: an employee of a department. */
export interface EmployeeRef {
  department: string;
  employeeId: string;
}

/**
 * A bounded slice of one last name's members ({@link LastNameStore.membersPage}); `next` is where
 * the following slice starts, `undefined` once the list is read to its end.
 */
export interface MemberSlice {
  members: EmployeeRef[];
  next: string | undefined;
}

/** One (last name, member) pair of the index. */
export interface Membership {
  /** The normalised last name. */
  lastName: string;
  member: EmployeeRef;
}

/**
 * A bounded page of the whole index ({@link LastNameStore.listPage}); `next` is where the
 * following page starts (opaque, this store's), `undefined` once the index is read to its end.
 */
export interface MembershipPage {
  memberships: Membership[];
  next: string | undefined;
}

/**
 * One last name's member list as read, for a conditional {@link LastNameStore.change}. `version`
 * is the store's own record of what it read (shard ETags, the blob's ETag).
 */
export interface MemberListSnapshot {
  /** The normalised last name. */
  lastName: string;
  /** Encoded members ({@link encodeMember}). */
  members: readonly string[];
  version: unknown;
}

/** One list's change in a batch ({@link LastNameStore.changes}). */
export interface ListChange {
  snapshot: MemberListSnapshot;
  add: readonly EmployeeRef[];
  remove: readonly EmployeeRef[];
}

/** The organisation-wide last-name index. */
export interface LastNameStore {
  /**
   * Reads one last name's member list for a conditional change.
   *
   * @throws {DomainError} for storage faults.
   */
  snapshot(lastName: string): Promise<MemberListSnapshot>;
  /**
   * Adds and removes members relative to `snapshot`, only if the list is still exactly as read
   * (every write conditional on the ETags the snapshot holds; the entity store writes its changed
   * shards and its fence in one entity group transaction).
   *
   * The list is written even when nothing changes (the entity store writes the fence entity of
   * the name's partition, the blob store the blob), and it never goes back to "absent" (the entity
   * store keeps the fence, the blob store keeps an emptied blob): so a change made from an older
   * snapshot fails after this one, whatever this one did — a create from a snapshot that found the
   * list absent included. The outbox drain relies on it (src/indexing/drain/outboxDrain.ts).
   *
   * @returns the list as written (a snapshot for the next change), or `undefined` when the list
   *   changed since `snapshot` (nothing was written: read again and decide again).
   * @throws {DomainError} for storage faults.
   */
  change(
    snapshot: MemberListSnapshot,
    add: readonly EmployeeRef[],
    remove: readonly EmployeeRef[],
  ): Promise<MemberListSnapshot | undefined>;
  /**
   * {@link snapshot} of each of `names`, in their order: the entity store reads the names that
   * share a partition in one query (a drain round's names cost a few reads, not one each).
   *
   * @throws {DomainError} for storage faults.
   */
  snapshots(names: readonly string[]): Promise<MemberListSnapshot[]>;
  /**
   * {@link change} of each list, in their order, each conditional on its own snapshot only: the
   * entity store writes the names that share a partition in one transaction (a name that changed
   * since its snapshot never makes the others fail).
   *
   * @returns each list as written, or `undefined` where it changed since its snapshot.
   * @throws {DomainError} for storage faults.
   */
  changes(changes: readonly ListChange[]): Promise<(MemberListSnapshot | undefined)[]>;
  /**
   * Adds the employee to the last name's members (no-op when present). Like `change`, the write
   * is conditional on the whole list as read, and a `change` from an older snapshot fails after it.
   *
   * @returns whether storage changed.
   * @throws {ThrottledError} when the list kept changing under us; {@link DomainError} for storage
   *   faults.
   */
  add(lastName: string, member: EmployeeRef): Promise<boolean>;
  /**
   * Removes the employee from the last name's members (no-op when absent). Conditional on the
   * whole list as read, as `add` is; an emptied list is kept, never deleted (see `change`).
   *
   * @returns whether storage changed.
   * @throws {ThrottledError} when the list kept changing under us; {@link DomainError} for storage
   *   faults.
   */
  remove(lastName: string, member: EmployeeRef): Promise<boolean>;
  /**
   * The members of one last name, in a stable order.
   *
   * @throws {DomainError} for storage faults.
   */
  members(lastName: string): Promise<EmployeeRef[]>;
  /**
   * A bounded slice of one last name's members: at most `limit`, after `after` (a `next` an
   * earlier slice of the same name returned; from the start when `undefined`), in the store's
   * order (encoded `Department/id`, code unit order, within each shard for the entity store),
   * with a bounded number of storage reads whatever the list's size. A slice may hold fewer than
   * `limit` members, even none, before the end of the list. The entity store's list ends with
   * what an upgrade left in the old per-name layout, while any remains (legacyLastNames.ts).
   *
   * @throws {ValidationError} `InvalidContinuationToken` for an `after` this store did not produce.
   * @throws {DomainError} for storage faults.
   */
  membersPage(lastName: string, after: string | undefined, limit: number): Promise<MemberSlice>;
  /**
   * Every last name with its members (tests; reads the whole index at once).
   *
   * @throws {DomainError} for storage faults.
   */
  all(): Promise<Map<string, EmployeeRef[]>>;
  /**
   * A bounded page of the whole index, for audits at any size: the memberships of at most `limit`
   * stored units — member-list shards (entity store, ≤ `LASTNAME_INDEX_SHARD_CHARS` each) or
   * lists (blob store) — after `after` (a `next` of an earlier page; from the start when
   * `undefined`), in one storage listing request plus, for the blob store, one read per list.
   * A name whose shards span two pages has members in both; emptied lists give none.
   *
   * @throws {DomainError} for storage faults.
   */
  listPage(after: string | undefined, limit: number): Promise<MembershipPage>;
}

/**
 * A slice position of a store (`membersPage`'s `after`/`next`): a number (a shard, a byte offset)
 * and the last member passed (`''`: none), as `<number>:<member>`.
 */
export interface MemberPosition {
  number: number;
  member: string;
}

/** The text of a {@link MemberPosition}. */
export function encodeMemberPosition(position: MemberPosition): string {
  return `${position.number}:${position.member}`;
}

/**
 * Reverses {@link encodeMemberPosition}, with `number` of at most `maxDigits` digits.
 *
 * @throws {ValidationError} `InvalidContinuationToken` for anything else.
 */
export function parseMemberPosition(text: string, maxDigits: number): MemberPosition {
  const match = new RegExp(`^(0|[1-9]\\d{0,${maxDigits - 1}}):(.*)$`, 's').exec(text);
  const member = match?.[2] ?? '';
  if (!match || (member !== '' && decodeMember(member) === undefined)) {
    throw foreignContinuationToken();
  }
  return { number: Number(match[1]), member };
}

/** The members among encoded texts (others dropped). */
export function toRefs(members: readonly string[]): EmployeeRef[] {
  return members.map((m) => decodeMember(m)).filter((m): m is EmployeeRef => m !== undefined);
}

/** `Sales/000223`: department names cannot contain `/`, so the pair is unambiguous. */
export function encodeMember(member: EmployeeRef): string {
  return `${member.department}/${member.employeeId}`;
}

/** Reverses {@link encodeMember}; `undefined` for anything else. */
export function decodeMember(text: string): EmployeeRef | undefined {
  const slash = text.lastIndexOf('/');
  const department = text.slice(0, slash);
  const employeeId = text.slice(slash + 1);
  return slash > 0 && isDepartmentName(department) && isEmployeeId(employeeId)
    ? { department, employeeId }
    : undefined;
}

/** Parses a stored member list (a JSON array of encoded members); unreadable items are dropped. */
export function parseMemberList(json: unknown): string[] {
  if (typeof json !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed)
      ? parsed.filter((m): m is string => typeof m === 'string' && decodeMember(m) !== undefined)
      : [];
  } catch {
    return [];
  }
}

/** Most attempts of one conditional read-modify-write before giving up (the message is retried). */
export const MAX_LIST_ATTEMPTS = 30;

/**
 * The retry options of a list's read-modify-write: at most {@link MAX_LIST_ATTEMPTS} attempts, then
 * a `ContentionError` naming `what`.
 */
export function memberListRetry(what: string): OptimisticRetryOptions {
  return {
    maxAttempts: MAX_LIST_ATTEMPTS,
    giveUp: (attempts) => memberListContended(what, attempts),
  };
}

/**
 * One conditional write of a list attempt: true when it took effect, {@link RETRY} when another
 * writer got there first (412, 409, 404).
 *
 * @throws {DomainError} for other storage faults.
 */
export async function writeOrRetry(write: () => Promise<unknown>): Promise<true | Retry> {
  return (await tookEffect(write)) || RETRY;
}

/**
 * Adds or removes one member of a last name's list ({@link LastNameStore.add}, `remove`) on the
 * retry routine: `attempt` gets the normalised name and the encoded member, reads the list and
 * writes it conditionally (false when there is nothing to do, {@link RETRY} on a lost race).
 *
 * @throws {ContentionError} after {@link MAX_LIST_ATTEMPTS} lost races.
 */
export function changeMember(
  what: string,
  lastName: string,
  member: EmployeeRef,
  attempt: (name: string, encoded: string) => Promise<boolean | Retry>,
): Promise<boolean> {
  const name = normalizeLastName(lastName);
  const encoded = encodeMember(member);
  return retryOptimistically(memberListRetry(`${what} "${name}"`), () => attempt(name, encoded));
}
