/**
 * The reverse passes of the paged department audit: pages of stored index entries whose key is
 * not the employee id — email copies, `EmployeeIndex` by-email entries, the ids listed by
 * same-partition last-name index entities — each checked against the primaries it names, to find
 * orphans (the forward pass finds missing and differing entries).
 *
 * Race safety: a page of entries is read BEFORE the primaries it names. A directory change that
 * commits in between changes the entry too (same transaction for same-partition entries), so the
 * repair, conditional on the entry's ETag, fails harmlessly; `EmployeeIndex` orphans are repaired
 * through `reconcileEmail`, which re-reads the primaries itself.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { type IndexStores, reconcileEmail } from '../../indexing';
import { submitEntityGroupTransaction } from '../../storage/tables/entityGroupTransaction';
import { tookEffect } from '../../storage/storageFaults';
import {
  departmentPartitionKey,
  emailRowKey,
  emailRowKeyRange,
  employeeRowKey,
  lastNameRowKeyRange,
} from '../../storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  emailIndexRowKey,
  isIndexFenceRowKey,
  parseEmailIndexRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { isEmployeeId } from '../../storage/keys/identifiers';
import { normalizeLastName } from '../../storage/keys/text';
import { mapBounded } from '../../storage/parallel';
import type { AuditCounts } from './auditCounts';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';
import { readRangePage, type KeyRange } from '../../storage/tables/rangePages';
import {
  lastNameIndexWrite,
  readEmployeeData,
  readLastNameIndex,
  withoutIds,
} from '../../directory/entities';

const READ_CONCURRENCY = 16;

/** Properties needed to decode a primary employee. */
const PRIMARY_SELECT = ['EntityType', 'EmployeeId', 'FirstName', 'LastName', 'Email'];

/** Where a reverse pass resumes (`undefined` once the pass is done), and its counts. */
export interface StoredPageResult {
  counts: AuditCounts;
  next: StoredPosition | undefined;
}

/** A range page's token; for last-name entities also the entity in progress and its last id. */
export interface StoredPosition {
  token: string | null;
  rowKey?: string;
  afterId?: string;
}

/** Which page of which department a reverse pass audits, and how. */
export interface StoredPageAt {
  department: string;
  position: StoredPosition;
  repair: boolean;
  pageSize: number;
}

/** The primary employee of `employeeId` (decoded), or `undefined`. */
async function primaryOf(
  table: TableAccess,
  partitionKey: string,
  employeeId: unknown,
): Promise<ReturnType<typeof readEmployeeData>> {
  if (typeof employeeId !== 'string' || !isEmployeeId(employeeId)) return undefined;
  const entity = await readEntity(table, partitionKey, employeeRowKey(employeeId), PRIMARY_SELECT);
  return entity && readEmployeeData(entity);
}

/** The decoded primaries of `employeeIds` (in order), read in parallel. */
function primariesOf(
  table: TableAccess,
  partitionKey: string,
  employeeIds: readonly unknown[],
): Promise<ReturnType<typeof readEmployeeData>[]> {
  return mapBounded(employeeIds, READ_CONCURRENCY, (id) => primaryOf(table, partitionKey, id));
}

/** One page of a range, from a position (`null` token: the start). */
function rangePage(
  table: TableAccess,
  kind: string,
  range: KeyRange,
  position: StoredPosition,
  pageSize: number,
): ReturnType<typeof readRangePage> {
  const continuationToken = position.token ?? undefined;
  return readRangePage(table, kind, range, { pageSize, continuationToken });
}

/**
 * One page of entries of a department keyed by email (its email copies, or its by-email entries):
 * an entry whose employee is gone, or whose employee's address keys another entry, is an orphan.
 */
async function emailKeyedOrphans(
  entries: {
    source: TableAccess;
    employees: TableAccess;
    kind: string;
    range: KeyRange;
    rowKeyOf: (email: string) => string;
  },
  { department, position, pageSize }: StoredPageAt,
): Promise<{ orphans: StoredEntity[]; next: StoredPosition | undefined }> {
  const { source, employees, kind, range, rowKeyOf } = entries;
  const page = await rangePage(source, kind, range, position, pageSize);
  const stored = page.entities.filter((e) => !isIndexFenceRowKey(e.rowKey));
  const owners = await primariesOf(
    employees,
    departmentPartitionKey(department),
    stored.map((e) => e.EmployeeId),
  );
  const orphans = stored.filter((e, i) => !owners[i] || rowKeyOf(owners[i].email) !== e.rowKey);
  return { orphans, next: nextOf(page.continuationToken) };
}

/**
 * One page of a department's email copies: a copy whose employee is gone, or whose employee's
 * address is another, is an orphan (removed conditionally on the ETag read).
 *
 * @throws {DomainError} for storage faults.
 */
export async function auditEmailCopyPage(
  table: TableAccess,
  at: StoredPageAt,
): Promise<StoredPageResult> {
  const range = { partitionKey: departmentPartitionKey(at.department), ...emailRowKeyRange() };
  const kind = 'audit-email-copies';
  const spec = { source: table, employees: table, kind, range, rowKeyOf: emailRowKey };
  const { orphans, next } = await emailKeyedOrphans(spec, at);
  const counts = orphanCounts(orphans.length);
  if (at.repair) {
    for (const orphan of orphans) {
      const remove = () =>
        table.deleteEntity(orphan.partitionKey, orphan.rowKey, { etag: orphan.etag });
      if (await tookEffect(remove)) counts.repaired++;
    }
  }
  return { counts, next };
}

/**
 * One page of a department's by-email entries (`email_<dept>`): an entry whose employee is gone
 * or has another address is an orphan, repaired by the indexing code's reconcile.
 *
 * @throws {DomainError} for storage faults.
 */
export async function auditByEmailPage(
  stores: IndexStores,
  at: StoredPageAt,
): Promise<StoredPageResult> {
  const range = { partitionKey: emailIndexPartitionKey(at.department), ge: '', lt: '\uffff' };
  const { orphans, next } = await emailKeyedOrphans(
    {
      source: stores.index,
      employees: stores.employees,
      kind: 'audit-by-email',
      range,
      rowKeyOf: emailIndexRowKey,
    },
    at,
  );
  const counts = orphanCounts(orphans.length);
  if (at.repair) {
    for (const orphan of orphans) {
      const email = parseEmailIndexRowKey(orphan.rowKey);
      if (email === undefined) continue;
      await reconcileEmail(stores, at.department, email);
      counts.repaired++;
    }
  }
  return { counts, next };
}

/**
 * Up to `pageSize` ids of the department's same-partition last-name index entities, across as many
 * entities as hold them (a department of thousands of distinct last names costs a page per
 * `pageSize` ids, not one per name): an id whose employee is gone or carries another last name is
 * stale; the repair rewrites its entity without them (or deletes it when none is left),
 * conditional on the ETag read.
 *
 * @throws {DomainError} for storage faults.
 */
export async function auditLastNameEntityPage(
  table: TableAccess,
  { department, position, ...options }: StoredPageAt,
): Promise<StoredPageResult> {
  const partitionKey = departmentPartitionKey(department);
  const range = { partitionKey, ...lastNameRowKeyRange() };
  const page = await rangePage(table, 'audit-last-names', range, position, options.pageSize);
  const { picked, unfinished } = pickIds(page.entities, position, options.pageSize);
  const owners = await primariesOf(
    table,
    partitionKey,
    picked.flatMap((p) => p.ids),
  );
  const counts = orphanCounts(0);
  let offset = 0;
  for (const { entity, index, ids } of picked) {
    const mine = owners.slice(offset, (offset += ids.length));
    const stale = ids.filter(
      (_, i) => !mine[i] || normalizeLastName(mine[i].lastName) !== index.lastName,
    );
    counts.checked += stale.length;
    counts.stale += stale.length;
    if (!options.repair || stale.length === 0) continue;
    const write = lastNameIndexWrite(
      partitionKey,
      index.lastName,
      withoutIds(index.ids, stale),
      entity.etag,
    );
    if (await tookEffect(() => submitEntityGroupTransaction(table, [write]))) {
      counts.repaired += stale.length;
    }
  }
  const last = picked.at(-1);
  const next: StoredPosition | undefined =
    unfinished && last
      ? { token: position.token, rowKey: last.entity.rowKey, afterId: last.ids.at(-1) }
      : nextOf(page.continuationToken);
  return { counts, next };
}

/** The ids of one index entity a page audits. */
interface PickedIds {
  entity: StoredEntity;
  index: NonNullable<ReturnType<typeof readLastNameIndex>>;
  ids: string[];
}

/**
 * Up to `budget` ids from a page of index entities, in key order, resuming after the position's
 * entity and id; `unfinished` when ids of the page are left for the next call.
 */
function pickIds(
  entities: readonly StoredEntity[],
  position: StoredPosition,
  budget: number,
): { picked: PickedIds[]; unfinished: boolean } {
  const picked: PickedIds[] = [];
  for (const entity of entities) {
    if (position.rowKey !== undefined && entity.rowKey < position.rowKey) continue;
    const index = readLastNameIndex(entity);
    if (!index) continue;
    const resume = entity.rowKey === position.rowKey ? position.afterId : undefined;
    const remaining = index.ids.filter((id) => resume === undefined || id > resume);
    if (remaining.length === 0) continue;
    if (budget === 0) return { picked, unfinished: true };
    const ids = remaining.slice(0, budget);
    budget -= ids.length;
    picked.push({ entity, index, ids });
    if (ids.length < remaining.length) return { picked, unfinished: true };
  }
  return { picked, unfinished: false };
}

function orphanCounts(orphans: number): AuditCounts {
  return { checked: orphans, missing: 0, stale: orphans, repaired: 0 };
}

function nextOf(token: string | null): StoredPosition | undefined {
  return token ? { token } : undefined;
}
