/**
 * The forward pass of the paged department audit: one page of a department's employees (in id
 * order) against the index entries they imply — email copies, the last-name index entities that
 * must list them, `EmployeeIndex` by-id and by-email entries — and the reviews of the page's id
 * range.
 *
 * Race safety: primaries, then the entries they imply, then the primaries again; only employees
 * whose ETag did not change in between are judged. A repair in the partition is one transaction
 * with a Merge of the employee conditional on the ETag just read. The pages tile the id space, so
 * by-id entries and reviews of ids with no employee are found here too. The audits of each copy
 * are samePartitionAudit.ts, employeeIndexAudit.ts and orphanReviewAudit.ts.
 * Why: docs/orchestrations.md "Index audit and repair".
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { listEmployeeEntities, type DirectoryContext } from '../../directory';
import type { IndexStores } from '../../indexing';
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
import type { CountsByIndex } from './auditCounts';
import { auditEmployeeIndex } from './employeeIndexAudit';
import { auditOrphanReviews } from './orphanReviewAudit';
import { auditEmailCopies, auditLastNameMembership } from './samePartitionAudit';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';
import { readWholeRange } from '../../storage/tables/rangePages';
import { isPrimaryEmployee, readEmployeeData } from '../../directory/entities';

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
  table: TableAccess;
  stores: IndexStores;
  /** Test hook: runs after the audit's reads of a page, before its repairs. */
  beforeRepair?: () => Promise<void>;
}

/** The page's primaries as first read, and the id range (tile) the page covers. */
interface Tile {
  partitionKey: string;
  first: StoredEntity[];
  fromId: string | undefined;
  toId: string | undefined;
  lastId: string | undefined;
  next: EmployeePagePosition | undefined;
}

/** The entries the page's primaries imply, as stored (read after the primaries). */
interface Implied {
  byIdInTile: StoredEntity[];
  reviewsInTile: StoredEntity[];
  copyOf: (readonly [StoredEntity, StoredEntity | undefined])[];
  byEmailOf: Map<StoredEntity, StoredEntity | undefined>;
  lastNameOf: Map<string, StoredEntity | undefined>;
}

/** The primaries unchanged between the two reads, and the ids of those that changed. */
interface Settled {
  judged: StoredEntity[];
  unsettledIds: Set<string>;
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
  const tile = await readTile(deps.directory, department, position, options.pageSize);
  // A page the service ended before any employee has no tile of its own: the next one covers it.
  if (tile.next && tile.lastId === undefined) return { counts: {}, next: tile.next };
  const implied = await readImpliedEntries(deps, department, tile);
  const settled = await settledPrimaries(deps.table, tile);
  await deps.beforeRepair?.();
  const counts = await auditSettled(deps, department, implied, settled, options.repair);
  return { counts, next: tile.next };
}

/** Lists the page's primaries and works out the tile: where it starts, ends and the next begins. */
async function readTile(
  directory: DirectoryContext,
  department: string,
  position: EmployeePagePosition,
  pageSize: number,
): Promise<Tile> {
  const partitionKey = departmentPartitionKey(department);
  const page = await listEmployeeEntities(directory, department, {
    pageSize,
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
  return { partitionKey, first, fromId, toId, lastId, next };
}

/** The entries the page implies, read after the first read of the primaries. */
async function readImpliedEntries(
  { table, stores }: EmployeePageAuditDeps,
  department: string,
  { partitionKey, first, fromId, toId }: Tile,
): Promise<Implied> {
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
  return {
    byIdInTile,
    reviewsInTile,
    copyOf: first.map((p, i) => [p, copies[i]] as const),
    byEmailOf: new Map(first.map((p, i) => [p, byEmail[i]])),
    lastNameOf: new Map(names.map((name, i) => [name, lastNameEntities[i]])),
  };
}

/** Reads the tile's primaries again: only those unchanged since the first read are judged. */
async function settledPrimaries(
  table: TableAccess,
  { partitionKey, first, fromId, toId }: Tile,
): Promise<Settled> {
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
  return { judged, unsettledIds };
}

/** Judges the settled employees' entries, one audit per stored copy, in turn. */
async function auditSettled(
  { table, stores }: EmployeePageAuditDeps,
  department: string,
  implied: Implied,
  { judged, unsettledIds }: Settled,
  repair: boolean,
): Promise<CountsByIndex> {
  const emailCopies = await auditEmailCopies(table, judged, implied.copyOf, repair);
  const lastNames = await auditLastNameMembership(table, judged, implied.lastNameOf, repair);
  const inter = await auditEmployeeIndex(
    stores,
    department,
    {
      byId: implied.byIdInTile.filter(
        (e) => !isIndexFenceRowKey(e.rowKey) && !unsettledIds.has(e.rowKey),
      ),
      byEmail: judged.map((p) => implied.byEmailOf.get(p)).filter((e): e is StoredEntity => !!e),
    },
    judged,
    repair,
  );
  const orphanReviews = await auditOrphanReviews(
    table,
    implied.reviewsInTile.filter(
      (r) => !unsettledIds.has(parseReviewRowKey(r.rowKey)?.employeeId ?? ''),
    ),
    judged,
    repair,
  );
  return { emailCopies, lastNameEntities: lastNames, ...inter, orphanReviews };
}

function lastEmployeeId(primaries: readonly StoredEntity[]): string | undefined {
  const last = primaries[primaries.length - 1];
  return last === undefined ? undefined : String(last.EmployeeId);
}
