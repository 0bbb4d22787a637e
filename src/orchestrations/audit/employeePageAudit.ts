/**
 * The forward pass of the paged department audit: one page of a department's employees (in id
 * order) against the index entries they imply — email copies, the last-name index entities that
 * must list them, `EmployeeIndex` by-id and by-email entries — and the reviews of the page's id
 * range.
 *
 * Race safety: primaries, then the entries they imply, then the primaries again; only employees
 * whose ETag did not change in between are judged. A repair in the partition is one transaction
 * with a Merge of the employee conditional on the ETag just read. The pages tile the id space, so
 * by-id entries and reviews of ids with no employee are found here too.
 * Why: docs/orchestrations.md "Index audit and repair".
 */
import type { TableClient } from '@azure/data-tables';
import { listEmployeeEntities, type DirectoryContext } from '../../directory';
import type { IndexStores } from '../../indexing';
import {
  MAX_TRANSACTION_OPERATIONS,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { tookEffect } from '../../storage/storageFaults';
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKeyRange,
  lastNameRowKey,
  nextEmployeeId,
  parseReviewRowKey,
  reviewsRowKeyRange,
} from '../../storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  emailIndexRowKey,
  idIndexPartitionKey,
  idIndexRowKeyRange,
  isIndexFenceRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import { mapBounded } from '../../storage/parallel';
import { noCounts, type AuditCounts, type CountsByIndex } from './auditCounts';
import { auditEmployeeIndex } from './employeeIndexAudit';
import { dataFingerprint } from './indexDiff';
import { auditOrphanReviews } from './orphanReviewAudit';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';
import { readWholeRange } from '../../storage/tables/rangePages';
import {
  emailCopyEntity,
  isPrimaryEmployee,
  lastNameIndexEntity,
  readEmployeeData,
  readLastNameIndex,
  withIds,
} from '../../directory/entities';

/** Point reads in flight at once within one page. */
const READ_CONCURRENCY = 16;

/** Where the forward pass resumes: the listing's token and the last id of the previous page. */
export interface EmployeePagePosition {
  token: string | null;
  afterId: string | null;
}

/** One page's counts, and where the next page starts (`undefined` after the last page). */
export interface EmployeePageResult {
  counts: CountsByIndex;
  next: EmployeePagePosition | undefined;
}

/** What the forward pass uses. */
export interface EmployeePageAuditDeps {
  directory: DirectoryContext;
  table: TableClient;
  stores: IndexStores;
  /** Test hook: runs after the audit's reads of a page, before its repairs. */
  beforeRepair?: () => Promise<void>;
}

/**
 * Audits (and with `repair`, fixes) one page of a department's employees.
 *
 * @throws {ValidationError} for an invalid department name or continuation.
 * @throws {DomainError} for storage faults; {@link ThrottledError} when an employee kept changing.
 */
export async function auditEmployeePage(
  deps: EmployeePageAuditDeps,
  department: string,
  position: EmployeePagePosition,
  options: { repair: boolean; pageSize: number },
): Promise<EmployeePageResult> {
  const { table, stores } = deps;
  const partitionKey = departmentPartitionKey(department);
  const page = await listEmployeeEntities(deps.directory, department, {
    pageSize: options.pageSize,
    continuationToken: position.token ?? undefined,
  });
  const first = page.entities.filter(isPrimaryEmployee);
  const lastId = page.continuationToken ? lastEmployeeId(first) : undefined;
  // The tile: ids after the previous page's last one, up to this page's last (the last page: all).
  const fromId = position.afterId === null ? undefined : nextEmployeeId(position.afterId);
  const toId = page.continuationToken ? lastId : undefined;
  const next: EmployeePagePosition | undefined = page.continuationToken
    ? { token: page.continuationToken, afterId: lastId ?? position.afterId }
    : undefined;
  // A page the service ended before any employee has no tile of its own: the next one covers it.
  if (next && lastId === undefined) return { counts: {}, next };

  // The entries the page implies, read after the first read of the primaries...
  const dataOf = new Map(first.map((p) => [p.rowKey, readEmployeeData(p)!]));
  const names = [...new Set([...dataOf.values()].map((d) => normalizeLastName(d.lastName)))];
  const [byIdInTile, reviewsInTile, copies, byEmail, lastNameEntities] = await Promise.all([
    readWholeRange(stores.index, {
      partitionKey: idIndexPartitionKey(department),
      ...idIndexRowKeyRange(fromId, toId),
    }),
    readWholeRange(table, { partitionKey, ...reviewsRowKeyRange(fromId, toId) }, [
      'PartitionKey',
      'RowKey',
    ]),
    mapBounded(first, READ_CONCURRENCY, (p) =>
      readEntity(table, partitionKey, emailRowKey(dataOf.get(p.rowKey)!.email)),
    ),
    mapBounded(first, READ_CONCURRENCY, (p) =>
      readEntity(
        stores.index,
        emailIndexPartitionKey(department),
        emailIndexRowKey(dataOf.get(p.rowKey)!.email),
      ),
    ),
    mapBounded(names, READ_CONCURRENCY, (name) =>
      readEntity(table, partitionKey, lastNameRowKey(name)),
    ),
  ]);
  // ...then the primaries again: only those unchanged in between are judged.
  const second = (
    await readWholeRange(table, { partitionKey, ...employeeRowKeyRange(fromId, toId) })
  ).filter(isPrimaryEmployee);
  const secondEtag = new Map(second.map((p) => [p.rowKey, p.etag]));
  const judged = first.filter((p) => secondEtag.get(p.rowKey) === p.etag);
  const settled = new Set(judged.map((p) => p.rowKey));
  // Changed, vanished or new since the first read: their entries are left to the next audit.
  const unsettledIds = new Set(
    [...first, ...second].filter((p) => !settled.has(p.rowKey)).map((p) => String(p.EmployeeId)),
  );
  await deps.beforeRepair?.();

  const emailCopies = await auditEmailCopies(
    table,
    judged,
    first.map((p, i) => [p, copies[i]] as const),
    options.repair,
  );
  const lastNames = await auditLastNameMembership(
    table,
    judged,
    new Map(names.map((name, i) => [name, lastNameEntities[i]])),
    options.repair,
  );
  const byEmailOf = new Map(first.map((p, i) => [p, byEmail[i]]));
  const inter = await auditEmployeeIndex(
    stores,
    department,
    {
      byId: byIdInTile.filter((e) => !isIndexFenceRowKey(e.rowKey) && !unsettledIds.has(e.rowKey)),
      byEmail: judged.map((p) => byEmailOf.get(p)).filter((e): e is StoredEntity => !!e),
    },
    judged,
    options.repair,
  );
  const orphanReviews = await auditOrphanReviews(
    table,
    reviewsInTile.filter((r) => !unsettledIds.has(parseReviewRowKey(r.rowKey)?.employeeId ?? '')),
    judged,
    options.repair,
  );
  return {
    counts: { emailCopies, lastNameEntities: lastNames, ...inter, orphanReviews },
    next,
  };
}

function lastEmployeeId(primaries: readonly StoredEntity[]): string | undefined {
  const last = primaries[primaries.length - 1];
  return last === undefined ? undefined : String(last.EmployeeId);
}

/** The employee's own entity, unchanged since `etag`: a no-op Merge that fails otherwise. */
function unchanged(primary: StoredEntity): EntityGroupAction {
  return [
    'update',
    { partitionKey: primary.partitionKey, rowKey: primary.rowKey },
    'Merge',
    { etag: primary.etag },
  ];
}

/** Email copies of the judged employees: missing ones created, differing ones replaced. */
async function auditEmailCopies(
  table: TableClient,
  judged: readonly StoredEntity[],
  stored: readonly (readonly [StoredEntity, StoredEntity | undefined])[],
  repair: boolean,
): Promise<AuditCounts> {
  const copyOf = new Map(stored);
  const counts = noCounts();
  for (const primary of judged) {
    counts.checked++;
    const want = emailCopyEntity(primary);
    const have = copyOf.get(primary);
    if (have && dataFingerprint(want) === dataFingerprint(have)) continue;
    if (have) counts.stale++;
    else counts.missing++;
    if (!repair) continue;
    const write = have
      ? () => table.updateEntity(want, 'Replace', { etag: have.etag })
      : // Created only while the employee is still as read: never a copy of a deleted employee.
        () => submitEntityGroupTransaction(table, [['create', want], unchanged(primary)]);
    if (await tookEffect(write)) counts.repaired++;
  }
  return counts;
}

/**
 * The same-partition last-name index entities must list every judged employee under its
 * normalised last name (one count per employee; ids listed by no employee are the reverse pass's).
 * A missing id is added in one transaction with no-op Merges of the employees added, conditional
 * on their ETags, so an employee deleted since is never listed again.
 */
async function auditLastNameMembership(
  table: TableClient,
  judged: readonly StoredEntity[],
  entities: ReadonlyMap<string, StoredEntity | undefined>,
  repair: boolean,
): Promise<AuditCounts> {
  const counts = noCounts();
  const missingByName = new Map<string, StoredEntity[]>();
  for (const primary of judged) {
    counts.checked++;
    const name = normalizeLastName(String(primary.LastName));
    const entity = entities.get(name);
    const ids = entity ? (readLastNameIndex(entity)?.ids ?? []) : [];
    if (ids.includes(String(primary.EmployeeId))) continue;
    counts.missing++;
    missingByName.set(name, [...(missingByName.get(name) ?? []), primary]);
  }
  if (!repair) return counts;
  for (const [name, missing] of missingByName) {
    let entity = entities.get(name);
    for (let i = 0; i < missing.length; i += MAX_TRANSACTION_OPERATIONS - 1) {
      const group = missing.slice(i, i + MAX_TRANSACTION_OPERATIONS - 1);
      const index = entity ? readLastNameIndex(entity) : undefined;
      const ids = withIds(
        index?.ids ?? [],
        group.map((p) => String(p.EmployeeId)),
      );
      const write = lastNameIndexEntity(group[0]!.partitionKey, { lastName: name, ids });
      const actions: EntityGroupAction[] = [
        entity ? ['update', write, 'Replace', { etag: entity.etag }] : ['create', write],
        ...group.map(unchanged),
      ];
      if (!(await tookEffect(() => submitEntityGroupTransaction(table, actions)))) break;
      counts.repaired += group.length;
      // The entity just written (the next group's condition); the Merges proved its employees.
      entity = await readEntity(table, write.partitionKey, write.rowKey);
    }
  }
  return counts;
}
