/**
 * The versions of a department's last-name index entities a write depends on, with their ETags,
 * from the process's version cache or from storage.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { readEntity } from '../../storage/tables/entities';
import { departmentPartitionKey, lastNameRowKey } from '../../storage/keys/tables/employees';
import type { DirectoryContext } from '../context';
import { readLastNameIndex, type LastNameIndex } from '../entities/partitionLastNameIndex';
import { lastNameKey, type Versioned } from '../entities/versionCache';

/**
 * The last-name index entity with its ETag (cached on request), or `undefined` if there is none.
 *
 * @throws {DomainError} for storage faults.
 */
export async function loadLastNameIndex(
  context: DirectoryContext,
  table: TableAccess,
  department: string,
  lastName: string,
  useCache: boolean,
): Promise<Versioned<LastNameIndex> | undefined> {
  const key = lastNameKey(department, lastName);
  if (useCache && context.cacheVersions) {
    const cached = context.lastNameVersions.get(key);
    if (cached) return cached;
  }
  const entity = await readEntity(
    table,
    departmentPartitionKey(department),
    lastNameRowKey(lastName),
  );
  const value = entity && readLastNameIndex(entity);
  if (!entity || !value) {
    context.lastNameVersions.delete(key);
    return undefined;
  }
  const versioned = { value, etag: entity.etag };
  rememberLastNameIndex(context, department, versioned);
  return versioned;
}

/** Largest id list kept in the version cache (bigger index entities are read each time). */
const MAX_CACHED_IDS = 5_000;

/** Records (or, for `undefined`, forgets) an index version a write produced. */
export function rememberLastNameIndex(
  context: DirectoryContext,
  department: string,
  version: Versioned<LastNameIndex> | undefined,
  lastName = version?.value.lastName,
): void {
  if (lastName === undefined) return;
  const key = lastNameKey(department, lastName);
  if (context.cacheVersions && version && version.value.ids.length <= MAX_CACHED_IDS) {
    context.lastNameVersions.set(key, version);
  } else {
    context.lastNameVersions.delete(key);
  }
}

/**
 * Records the index entity of `lastName` a transaction wrote: `ids` under the ETag it returned,
 * or forgets it when there is none (the next write of that name reads it again).
 */
export function rememberIndexWrite(
  context: DirectoryContext,
  department: string,
  lastName: string,
  ids: string[] | undefined,
  etag: string | undefined,
): void {
  const version = ids && etag ? { value: { lastName, ids }, etag } : undefined;
  rememberLastNameIndex(context, department, version, lastName);
}
