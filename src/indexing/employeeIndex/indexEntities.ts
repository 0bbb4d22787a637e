/**
 * Entities of the inter-partition secondary index in `EmployeeIndex` (guide pattern 2):
 *
 * - `empid_<dept>` / `<id>`: a copy of the employee plus the email and last name this index
 *   currently holds entries for (`Tracked*`), the worker's write-ahead record (see
 *   indexMaintenance.ts);
 * - `email_<dept>` / `<normalised email>`: a copy of the employee, so an eventually consistent
 *   lookup by email is one point read.
 *
 * Both carry `SourceETag`, the ETag of the primary entity (id entry) or of the same-partition
 * email copy (email entry) they were copied from; the directory accepts either as `If-Match`.
 */
import type { TableEntity } from '@azure/data-tables';
import type { Employee, EmployeeData } from '../../directory';
import {
  emailIndexPartitionKey,
  emailIndexRowKey,
  idIndexPartitionKey,
  INDEX_FENCE_ROW_KEY,
  idIndexRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { normalizeEmail, normalizeLastName } from '../../storage/keys/text';
import { employeeDataProperties, readEmployeeFields, toEmployee } from '../../directory/entities';
import type { StoredProperties } from '../../storage/tables/entities';

/** Entity types of `EmployeeIndex` entries. */
export const IndexEntityTypes = {
  byId: 'EmployeeIdIndex.v1',
  byEmail: 'EmployeeEmailIndex.v1',
  fence: 'EmployeeIndexFence.v1',
} as const;

/** Normalised emails and last names an id entry says the indexes may hold for the employee. */
export interface TrackedKeys {
  emails: string[];
  lastNames: string[];
}

/**
 * The by-id index entry of an employee, tracking `tracked`. `sourceEtag` is `undefined` for the
 * worker's write-ahead record: an entry without `SourceETag` has not been verified against the
 * primary yet, so no worker may take it as proof that the indexes are current.
 */
export function idIndexEntity(
  department: string,
  data: EmployeeData,
  sourceEtag: string | undefined,
  tracked: TrackedKeys,
): TableEntity<StoredProperties> {
  return {
    partitionKey: idIndexPartitionKey(department),
    rowKey: idIndexRowKey(data.employeeId),
    EntityType: IndexEntityTypes.byId,
    ...employeeDataProperties(data),
    ...(sourceEtag === undefined ? {} : { SourceETag: sourceEtag }),
    TrackedEmails: JSON.stringify([...new Set(tracked.emails)].sort()),
    TrackedLastNames: JSON.stringify([...new Set(tracked.lastNames)].sort()),
  };
}

/** The by-email index entry copied from a same-partition email copy. */
export function emailIndexEntity(
  department: string,
  data: EmployeeData,
  sourceEtag: string,
): TableEntity<StoredProperties> {
  return {
    partitionKey: emailIndexPartitionKey(department),
    rowKey: emailIndexRowKey(data.email),
    EntityType: IndexEntityTypes.byEmail,
    ...employeeDataProperties(data),
    SourceETag: sourceEtag,
  };
}

/**
 * The drain fence of a by-id or by-email index partition: written (created once, then replaced
 * under its ETag) by every drain round's transactions in that partition, and never deleted, so
 * two rounds that read the partition at the same time cannot both write it (src/indexing/
 * outboxDrain.ts). It holds nothing else.
 */
export function indexFenceEntity(partitionKey: string): TableEntity<StoredProperties> {
  return { partitionKey, rowKey: INDEX_FENCE_ROW_KEY, EntityType: IndexEntityTypes.fence };
}

function stringList(json: unknown): string[] {
  if (typeof json !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** What a stored id entry tracks (nothing for `undefined`). */
export function readTracked(entity: StoredProperties | undefined): TrackedKeys {
  return {
    emails: stringList(entity?.TrackedEmails),
    lastNames: stringList(entity?.TrackedLastNames),
  };
}

/** The keys an employee's data should have entries under. */
export function keysOf(data: EmployeeData): TrackedKeys {
  return { emails: [normalizeEmail(data.email)], lastNames: [normalizeLastName(data.lastName)] };
}

/** True when `tracked` covers every key of `keys`. */
export function tracks(tracked: TrackedKeys, keys: TrackedKeys): boolean {
  return (
    keys.emails.every((e) => tracked.emails.includes(e)) &&
    keys.lastNames.every((l) => tracked.lastNames.includes(l))
  );
}

/** Union of tracked key sets. */
export function unionKeys(...sets: TrackedKeys[]): TrackedKeys {
  return {
    emails: [...new Set(sets.flatMap((s) => s.emails))].sort(),
    lastNames: [...new Set(sets.flatMap((s) => s.lastNames))].sort(),
  };
}

/** An index entry (either kind) as API JSON; `undefined` when malformed. */
export function indexEntryToEmployee(
  department: string,
  entity: StoredProperties,
): Employee | undefined {
  const data = readEmployeeFields(entity);
  if (!data) return undefined;
  return toEmployee(department, data);
}
