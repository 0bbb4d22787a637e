/**
 * Draining one department's index outbox (src/directory/outbox.ts) into the asynchronous indexes:
 * the inter-partition index (`EmployeeIndex`: `empid_<dept>`, `email_<dept>`) and the
 * organisation-wide last-name index. One drain round:
 *
 * 1. `read`: one range query for the partition's outbox rows (up to {@link MAX_ROWS_PER_ROUND}
 *    rows or {@link MAX_CHANGES_PER_ROUND} changes);
 *    they name the employees, emails and last names to look at.
 * 2. `snapshot`: side by side, the index entries of those employees and emails (targets: ETags
 *    and what they hold), the member lists of those last names, and the *sources* in the
 *    department's partition — the email copies of those addresses (who holds each address now),
 *    and for an employee no copy speaks for, the employee entity. Several keys of one partition
 *    go in one query (`RowKey eq … or …`, 14 to a query).
 * 3. `emails`, `ids`, `lastNames`: write what differs from the sources, grouped per index
 *    partition — by-email entries in entity group transactions of up to 100 on `email_<dept>`,
 *    by-id entries likewise on `empid_<dept>`, one conditional change per last name (the entity
 *    store changes all shards of a name in one transaction). Every write is conditional on the
 *    ETag the snapshot read (or is a create where nothing was), so a concurrent writer makes it
 *    fail instead of being overwritten; the round then starts again.
 * 4. `verified`: read the sources again. If any changed since step 2, what we wrote may already
 *    be stale: start again. Otherwise every entry we wrote matches a source that was still current
 *    after our last write. Skipped when the round only updated or deleted entries under their
 *    ETags (see {@link RoundWrites}): only creates and member-list changes need it.
 * 5. `deleted`: delete the drained rows in one transaction of the partition, each conditional on
 *    the ETag it was read with (rows are written once; a row a concurrent drainer already
 *    deleted is simply left out on the next try).
 *
 * A lost round (a conditional write failed, or a source changed) runs again and keeps the lost
 * round's keys even if a concurrent drainer deleted their rows meanwhile: what this drainer wrote
 * from its stale read must be looked at again.
 *
 * Why this is safe without a lease: the rows stay until step 5, so a crash anywhere leaves them
 * for the next drain (nudge retry or sweep), and every step is idempotent. Rows written after
 * step 1 are not deleted, so their changes are drained later. Two drainers of one partition may
 * run at once (two hosts, a sweep and a nudge): the last of them to write an entry verifies after
 * that write that its source is unchanged — a drainer holding a stale read writes, sees the source
 * moved on in step 4 and rewrites from the new source. A lease would not help: a holder paused
 * past its expiry still writes to another table, which no lease in `Employees` can fence.
 * Residual: a drainer that writes from a stale read and then crashes before step 4, while another
 * drainer has already deleted the rows, leaves that entry stale until the index audit
 * (src/orchestrations/audit/) repairs it — a pause and a crash together.
 */
import { odata, type TableClient } from '@azure/data-tables';
import {
  readEmployeeData,
  type EmployeeData,
  type StoredEntity,
} from '../directory/employeeEntity';
import { EntityTypes, isEntityOfType } from '../directory/entityTypes';
import { readOutboxRow, type OutboxRow } from '../directory/outbox';
import { ensureTable } from '../storage/createOnce';
import { ThrottledError } from '../errors';
import { mapBounded } from '../storage/parallel';
import {
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../storage/entityGroupTransaction';
import { tookEffect, withStorageErrors } from '../storage/errors';
import {
  departmentPartitionKey,
  emailIndexPartitionKey,
  emailIndexRowKey,
  emailRowKey,
  employeeRowKey,
  idIndexPartitionKey,
  idIndexRowKey,
  normalizeEmail,
  normalizeLastName,
  outboxRowKeyRange,
} from '../storage/keys';
import { emailIndexEntity, idIndexEntity, keysOf, readTracked } from './indexEntities';
import type { IndexStores } from './indexMaintenance';
import { encodeMember, type MemberListSnapshot } from './lastNameStore';

/** A step of a drain round, reported to {@link DrainOptions.afterStep}. */
export type DrainStep =
  'read' | 'snapshot' | 'emails' | 'ids' | 'lastNames' | 'verified' | 'deleted';

/** Called for each employee the drain found gone from the directory (e.g. to remove its photos). */
export type GoneHandler = (department: string, employeeId: string) => Promise<void>;

/** Options of {@link drainOutbox}. */
export interface DrainOptions {
  /** Called after each step (observability; tests inject crashes and pauses here). */
  afterStep?: (step: DrainStep, round: number) => Promise<void> | void;
  /** Called for each drained employee that is gone, before its rows are deleted. */
  onGone?: GoneHandler;
}

/** What a drain did. */
export interface DrainResult {
  /** Outbox rows deleted. */
  rows: number;
  /** Employees whose indexes were brought up to date. */
  employees: number;
  /** Of those, employees that are gone from the directory. */
  gone: number;
  /** Rounds run (1 without races). */
  rounds: number;
}

/** Rows read per round; a larger outbox is drained in several rounds. */
export const MAX_ROWS_PER_ROUND = 500;
/** Changes taken per round (an import's rows hold many): bounds the reads and writes of a round. */
export const MAX_CHANGES_PER_ROUND = 1_000;
/** Rounds lost to concurrent changes before giving up (the nudge is then retried). */
const MAX_LOST_ROUNDS = 8;
/** Row keys per `RowKey eq … or …` query: Azure allows 15 comparisons, one is the PartitionKey. */
const KEYS_PER_QUERY = 14;
const MAX_OPERATIONS = 100;

/** The state of one employee as the sources say: its data, or gone (`undefined`). */
interface EmployeeSource {
  data: EmployeeData;
  /** ETag of the entity it was read from (an email copy, or the employee): the `SourceETag`. */
  etag: string;
}

/** What one round read in step 2. */
interface Snapshot {
  idEntries: Map<string, StoredEntity>;
  emailEntries: Map<string, StoredEntity>;
  lists: Map<string, MemberListSnapshot>;
  sources: Sources;
}

interface Sources {
  /** Normalised email → the copy holding it now (absent: nobody). */
  copies: Map<string, StoredEntity & { data: EmployeeData }>;
  /** Employee id → its state (`undefined`: gone). */
  employees: Map<string, EmployeeSource | undefined>;
  /** RowKey → ETag ('' when absent) of every source entity read, for step 4. */
  fingerprint: Map<string, string>;
}

/** The keys one round works on. */
interface Work {
  rows: OutboxRow[];
  employeeIds: string[];
  emails: string[];
  lastNames: string[];
  /** Employees some change removed from the partition: read the employee entity directly. */
  maybeGone: Set<string>;
  /**
   * Employees and emails that only new employees bring (creates and imports, not carried over
   * from a lost round): their index entries are expected absent, so they are written as creates
   * without reading them first — a create fails where an entry exists, and the round is lost and
   * run again with reads.
   */
  fresh: Set<string>;
}

/**
 * Drains a department's outbox until it is empty (or only holds rows written meanwhile that a
 * next drain will take), bringing the indexes of every employee it names up to date.
 *
 * @throws {ThrottledError} when the department kept changing for {@link MAX_LOST_ROUNDS} rounds.
 * @throws {DomainError} for storage faults (the nudge is retried; the rows stay).
 */
export async function drainOutbox(
  stores: IndexStores,
  department: string,
  options: DrainOptions = {},
): Promise<DrainResult> {
  const partitionKey = departmentPartitionKey(department);
  await Promise.all([ensureTable(stores.employees), ensureTable(stores.index)]);
  const result: DrainResult = { rows: 0, employees: 0, gone: 0, rounds: 0 };
  let lost = 0;
  let carried: Work | undefined;
  while (lost < MAX_LOST_ROUNDS) {
    result.rounds++;
    const round = result.rounds;
    const step = async (name: DrainStep): Promise<void> => {
      await options.afterStep?.(name, round);
    };

    const { rows, more } = await readOutbox(stores.employees, partitionKey);
    await step('read');
    // A lost round's keys are worked on again even when a concurrent drainer deleted their rows
    // meanwhile: this drainer may have written one of them from a read that is stale by now.
    const work = workOf(rows, carried);
    if (work.employeeIds.length === 0 && work.emails.length === 0) return result;

    const snapshot = await takeSnapshot(stores, department, work);
    await step('snapshot');
    // One index partition after the other, so a crash test can stop between any two.
    const writes: RoundWrites = { unprovable: false };
    let written = await writeEmails(stores.index, department, work, snapshot, writes);
    if (written) {
      await step('emails');
      written = await writeIds(stores.index, department, work, snapshot, writes);
    }
    if (written) {
      await step('ids');
      written = await writeLastNames(stores, department, work, snapshot, writes);
    }
    if (!written) {
      lost++;
      carried = work;
      continue;
    }
    await step('lastNames');

    const again = writes.unprovable
      ? await readSources(stores.employees, partitionKey, work)
      : snapshot.sources;
    if (!sameSources(snapshot.sources, again)) {
      lost++;
      carried = work;
      continue;
    }
    await step('verified');

    const gone = work.employeeIds.filter((id) => snapshot.sources.employees.get(id) === undefined);
    for (const employeeId of gone) await options.onGone?.(department, employeeId);
    await deleteRows(stores.employees, partitionKey, rows);
    await step('deleted');
    result.rows += rows.length;
    result.employees += work.employeeIds.length;
    result.gone += gone.length;
    lost = 0;
    carried = undefined;
    if (!more) return result;
  }
  throw new ThrottledError(
    `The index outbox of "${department}" kept changing while it was drained.`,
    5,
  );
}

/**
 * The partition's outbox rows, up to {@link MAX_ROWS_PER_ROUND} rows or
 * {@link MAX_CHANGES_PER_ROUND} changes (an import chunk's row holds ~47); unreadable entities in
 * the range are skipped.
 */
async function readOutbox(
  table: TableClient,
  partitionKey: string,
): Promise<{ rows: OutboxRow[]; more: boolean }> {
  const range = outboxRowKeyRange();
  return withStorageErrors(async () => {
    const rows: OutboxRow[] = [];
    let changes = 0;
    const entities = table.listEntities<Record<string, unknown>>({
      queryOptions: {
        filter: odata`PartitionKey eq ${partitionKey} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
      },
    });
    for await (const entity of entities) {
      // Full: the rest waits for the next round (the query stops here, fetching no more pages).
      if (rows.length >= MAX_ROWS_PER_ROUND || changes >= MAX_CHANGES_PER_ROUND) {
        return { rows, more: true };
      }
      const row = readOutboxRow(entity);
      if (!row) continue;
      rows.push(row);
      changes += row.changes.length;
    }
    return { rows, more: false };
  });
}

function workOf(rows: OutboxRow[], carried?: Work): Work {
  const employeeIds = new Set<string>(carried?.employeeIds);
  const emails = new Set<string>(carried?.emails);
  const lastNames = new Set<string>(carried?.lastNames);
  const maybeGone = new Set<string>(carried?.maybeGone);
  const fresh = new Set<string>();
  // A key seen before (in a carried-over round, or in another change) is never fresh.
  const seen = new Set<string>([
    ...[...employeeIds].map((id) => `id:${id}`),
    ...[...emails].map((email) => `email:${email}`),
  ]);
  const see = (key: string, isFresh: boolean): void => {
    if (isFresh && !seen.has(key)) fresh.add(key);
    else fresh.delete(key);
    seen.add(key);
  };
  for (const change of rows.flatMap((row) => row.changes)) {
    const isNew = change.reason === 'created' || change.reason === 'imported';
    see(`id:${change.employeeId}`, isNew);
    if (change.current) see(`email:${normalizeEmail(change.current.email)}`, isNew);
    if (change.previous?.email !== undefined) {
      see(`email:${normalizeEmail(change.previous.email)}`, false);
    }
    employeeIds.add(change.employeeId);
    if (!change.current) maybeGone.add(change.employeeId);
    for (const email of [change.current?.email, change.previous?.email]) {
      if (email !== undefined) emails.add(normalizeEmail(email));
    }
    // An update that kept the last name leaves the membership as the earlier change made it
    // (that change's row, if not drained yet, names the last name itself).
    const keptName = change.reason === 'updated' && change.previous?.lastName === undefined;
    for (const name of [
      keptName ? undefined : change.current?.lastName,
      change.previous?.lastName,
    ]) {
      if (name !== undefined) lastNames.add(normalizeLastName(name));
    }
  }
  return {
    rows,
    employeeIds: [...employeeIds].sort(),
    emails: [...emails].sort(),
    lastNames: [...lastNames].sort(),
    maybeGone,
    fresh,
  };
}

/**
 * Entities of one partition by RowKey: a point read for one, `RowKey eq … or …` queries of
 * {@link KEYS_PER_QUERY} for more. Absent keys are absent from the map.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readRowKeys(
  table: TableClient,
  partitionKey: string,
  rowKeys: readonly string[],
): Promise<Map<string, StoredEntity>> {
  const found = new Map<string, StoredEntity>();
  const unique = [...new Set(rowKeys)];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += KEYS_PER_QUERY) {
    chunks.push(unique.slice(i, i + KEYS_PER_QUERY));
  }
  await mapBounded(chunks, 8, (chunk) =>
    withStorageErrors(async () => {
      const keys = chunk.map((rowKey) => odata`RowKey eq ${rowKey}`).join(' or ');
      const filter = `${odata`PartitionKey eq ${partitionKey}`} and (${keys})`;
      for await (const entity of table.listEntities<Record<string, unknown>>({
        queryOptions: { filter },
      })) {
        const stored = { ...entity, partitionKey, rowKey: entity.rowKey ?? '' } as StoredEntity;
        found.set(stored.rowKey, stored);
      }
    }),
  );
  return found;
}

async function takeSnapshot(
  stores: IndexStores,
  department: string,
  work: Work,
): Promise<Snapshot> {
  // The targets and the sources are independent reads: step 4 checks the sources again after
  // the writes, so their order does not matter.
  const ids = work.employeeIds.filter((id) => !work.fresh.has(`id:${id}`));
  const emails = work.emails.filter((email) => !work.fresh.has(`email:${email}`));
  const [idEntries, emailEntries, lists, sources] = await Promise.all([
    readRowKeys(stores.index, idIndexPartitionKey(department), ids.map(idIndexRowKey)),
    readRowKeys(stores.index, emailIndexPartitionKey(department), emails.map(emailIndexRowKey)),
    mapBounded(work.lastNames, 8, (name) => stores.lastNames.snapshot(name)),
    readSources(stores.employees, departmentPartitionKey(department), work),
  ]);
  return {
    idEntries,
    emailEntries,
    lists: new Map(lists.map((list) => [list.lastName, list])),
    sources,
  };
}

/**
 * The department's own say on each email and employee of the round: the email copies (one
 * query per 14 addresses, with the employee entities of employees that may be gone), then the
 * employee entity of any employee no single copy speaks for.
 */
async function readSources(table: TableClient, partitionKey: string, work: Work): Promise<Sources> {
  const fingerprint = new Map<string, string>();
  const copyKeys = work.emails.map(emailRowKey);
  const goneKeys = [...work.maybeGone].map(employeeRowKey);
  const first = await readRowKeys(table, partitionKey, [...copyKeys, ...goneKeys]);

  const copies: Sources['copies'] = new Map();
  const claims = new Map<string, (StoredEntity & { data: EmployeeData })[]>();
  work.emails.forEach((email, i) => {
    const entity = first.get(copyKeys[i]!);
    fingerprint.set(copyKeys[i]!, entity?.etag ?? '');
    const data =
      entity && isEntityOfType(entity, EntityTypes.employeeEmail)
        ? readEmployeeData(entity)
        : undefined;
    if (!entity || !data) return;
    const copy = { ...entity, data };
    copies.set(email, copy);
    claims.set(data.employeeId, [...(claims.get(data.employeeId) ?? []), copy]);
  });

  const employees: Sources['employees'] = new Map();
  const unresolved: string[] = [];
  for (const employeeId of work.employeeIds) {
    const primary = first.get(employeeRowKey(employeeId));
    const claimed = claims.get(employeeId) ?? [];
    if (work.maybeGone.has(employeeId)) {
      const data =
        primary && isEntityOfType(primary, EntityTypes.employee)
          ? readEmployeeData(primary)
          : undefined;
      fingerprint.set(employeeRowKey(employeeId), primary?.etag ?? '');
      employees.set(employeeId, primary && data ? { data, etag: primary.etag } : undefined);
    } else if (claimed.length === 1) {
      employees.set(employeeId, { data: claimed[0]!.data, etag: claimed[0]!.etag });
    } else {
      // No copy among these addresses holds the employee (it changed its email since the row was
      // written) or, with damaged data, several do: the employee entity decides.
      unresolved.push(employeeId);
    }
  }
  const primaries = await readRowKeys(table, partitionKey, unresolved.map(employeeRowKey));
  for (const employeeId of unresolved) {
    const rowKey = employeeRowKey(employeeId);
    const primary = primaries.get(rowKey);
    const data =
      primary && isEntityOfType(primary, EntityTypes.employee)
        ? readEmployeeData(primary)
        : undefined;
    fingerprint.set(rowKey, primary?.etag ?? '');
    employees.set(employeeId, primary && data ? { data, etag: primary.etag } : undefined);
  }
  return { copies, employees, fingerprint };
}

function sameSources(before: Sources, after: Sources): boolean {
  if (before.fingerprint.size !== after.fingerprint.size) return false;
  for (const [rowKey, etag] of before.fingerprint) {
    if (after.fingerprint.get(rowKey) !== etag) return false;
  }
  return true;
}

/**
 * Whether a round wrote something whose condition cannot prove it current: a create (the entry
 * was absent, and absence repeats) or a member-list change (membership repeats within a list
 * another drainer left unchanged). An update or delete is conditional on an ETag, which never
 * repeats: if it took effect, nobody wrote the entry since our read, and a drainer that found it
 * current then had read the same source version we did or a newer one, which wrote its own row.
 */
interface RoundWrites {
  unprovable: boolean;
}

/** Submits actions of one partition in transactions of up to 100: false when one lost a race. */
async function submitAll(
  table: TableClient,
  actions: EntityGroupAction[],
  writes: RoundWrites,
): Promise<boolean> {
  if (actions.some((action) => action[0] === 'create')) writes.unprovable = true;
  for (let start = 0; start < actions.length; start += MAX_OPERATIONS) {
    const chunk = actions.slice(start, start + MAX_OPERATIONS);
    const applied = await tookEffect(() => submitEntityGroupTransaction(table, chunk));
    if (!applied) return false;
  }
  return true;
}

/** By-email entries: a copy of whoever holds each address now, none where nobody does. */
function writeEmails(
  index: TableClient,
  department: string,
  work: Work,
  snapshot: Snapshot,
  writes: RoundWrites,
): Promise<boolean> {
  const actions: EntityGroupAction[] = [];
  for (const email of work.emails) {
    const target = snapshot.emailEntries.get(emailIndexRowKey(email));
    const copy = snapshot.sources.copies.get(email);
    if (copy) {
      if (target?.SourceETag === copy.etag) continue;
      const entry = emailIndexEntity(department, copy.data, copy.etag);
      actions.push(
        target ? ['update', entry, 'Replace', { etag: target.etag }] : ['create', entry],
      );
    } else if (target) {
      actions.push([
        'delete',
        { partitionKey: target.partitionKey, rowKey: target.rowKey },
        { etag: target.etag },
      ]);
    }
  }
  return submitAll(index, actions, writes);
}

/** By-id entries: a copy of each present employee tracking its keys, none for a gone one. */
function writeIds(
  index: TableClient,
  department: string,
  work: Work,
  snapshot: Snapshot,
  writes: RoundWrites,
): Promise<boolean> {
  const actions: EntityGroupAction[] = [];
  for (const employeeId of work.employeeIds) {
    const target = snapshot.idEntries.get(idIndexRowKey(employeeId));
    const source = snapshot.sources.employees.get(employeeId);
    if (source) {
      const keys = keysOf(source.data);
      const tracked = readTracked(target);
      const current =
        target?.SourceETag === source.etag && JSON.stringify(tracked) === JSON.stringify(keys);
      if (current) continue;
      const entry = idIndexEntity(department, source.data, source.etag, keys);
      actions.push(
        target ? ['update', entry, 'Replace', { etag: target.etag }] : ['create', entry],
      );
    } else if (target) {
      actions.push([
        'delete',
        { partitionKey: target.partitionKey, rowKey: target.rowKey },
        { etag: target.etag },
      ]);
    }
  }
  return submitAll(index, actions, writes);
}

/** Each employee a member of exactly its current last name, among the names of the round. */
async function writeLastNames(
  stores: IndexStores,
  department: string,
  work: Work,
  snapshot: Snapshot,
  writes: RoundWrites,
): Promise<boolean> {
  const outcomes = await mapBounded(work.lastNames, 8, async (name) => {
    const list = snapshot.lists.get(name);
    if (!list) return true;
    const members = new Set(list.members);
    const add = [];
    const remove = [];
    for (const employeeId of work.employeeIds) {
      const source = snapshot.sources.employees.get(employeeId);
      const wanted = source !== undefined && normalizeLastName(source.data.lastName) === name;
      const member = { department, employeeId };
      const held = members.has(encodeMember(member));
      if (wanted && !held) add.push(member);
      if (!wanted && held) remove.push(member);
    }
    if (add.length === 0 && remove.length === 0) return true;
    writes.unprovable = true;
    return stores.lastNames.change(list, add, remove);
  });
  return outcomes.every(Boolean);
}

/**
 * Deletes drained rows, each conditional on the ETag it was read with, in transactions of up to
 * 100. A row already deleted by a concurrent drainer fails its transaction (404): the rows still
 * there are read again and the rest deleted.
 */
async function deleteRows(
  table: TableClient,
  partitionKey: string,
  rows: OutboxRow[],
): Promise<void> {
  let pending = rows;
  for (let attempt = 1; attempt <= 3 && pending.length > 0; attempt++) {
    const failed: OutboxRow[] = [];
    for (let start = 0; start < pending.length; start += MAX_OPERATIONS) {
      const chunk = pending.slice(start, start + MAX_OPERATIONS);
      const deleted = await tookEffect(() =>
        submitEntityGroupTransaction(
          table,
          chunk.map((row) => ['delete', { partitionKey, rowKey: row.rowKey }, { etag: row.etag }]),
        ),
      );
      if (!deleted) failed.push(...chunk);
    }
    if (failed.length === 0) return;
    const still = await readRowKeys(
      table,
      partitionKey,
      failed.map((row) => row.rowKey),
    );
    pending = failed.filter((row) => still.get(row.rowKey)?.etag === row.etag);
  }
  // Left-overs are drained again by the next nudge or sweep: harmless.
}
