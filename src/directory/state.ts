/**
 * Reading the shared entities a write depends on (department, last-name index entities), with
 * their ETags, from the version cache or from storage.
 */
import type { TableClient } from '@azure/data-tables';
import { ThrottledError } from '../errors';
import { isNotFound, toDomainError } from '../storage/errors';
import {
  DEPARTMENT_ROW_KEY,
  departmentPartitionKey,
  lastNameRowKey,
  normalizeLastName,
} from '../storage/keys';
import type { DirectoryContext } from './context';
import { readDepartment, type Department } from './departmentEntity';
import type { StoredEntity, StoredProperties } from './employeeEntity';
import { readLastNameIndex, type LastNameIndex } from './lastNameIndex';
import type { Versioned } from './versionCache';

/**
 * One entity by its keys, or `undefined` when it does not exist.
 *
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function readEntity(
  table: TableClient,
  partitionKey: string,
  rowKey: string,
  select?: string[],
): Promise<StoredEntity | undefined> {
  try {
    const entity = await table.getEntity<StoredProperties>(
      partitionKey,
      rowKey,
      select ? { queryOptions: { select: withKeys(select) } } : {},
    );
    return { ...entity, partitionKey, rowKey };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw toDomainError(error);
  }
}

/** `select` plus the keys, which every reader needs. */
export function withKeys(select: readonly string[]): string[] {
  return [...new Set(['PartitionKey', 'RowKey', ...select])];
}

/** Cache key of a department entity. */
export function departmentKey(department: string): string {
  return department;
}

/** Cache key of a last-name index entity. */
export function lastNameKey(department: string, lastName: string): string {
  return `${department}\u0001${normalizeLastName(lastName)}`;
}

/**
 * The department entity with its ETag (cached on request), or `undefined` if there is none.
 *
 * @throws {ValidationError} for an invalid department name.
 * @throws {DomainError} for storage faults.
 */
export async function loadDepartment(
  context: DirectoryContext,
  department: string,
  useCache: boolean,
): Promise<Versioned<Department> | undefined> {
  const key = departmentKey(department);
  if (useCache && context.cacheVersions) {
    const cached = context.departmentVersions.get(key);
    if (cached) return cached;
  }
  const entity = await readEntity(
    await context.table(),
    departmentPartitionKey(department),
    DEPARTMENT_ROW_KEY,
  );
  const value = entity && readDepartment(entity);
  if (!entity || !value) {
    context.departmentVersions.delete(key);
    return undefined;
  }
  const versioned = { value, etag: entity.etag };
  rememberDepartment(context, department, versioned);
  return versioned;
}

/** Records a department version a write produced (or read). */
export function rememberDepartment(
  context: DirectoryContext,
  department: string,
  version: Versioned<Department>,
): void {
  if (context.cacheVersions) context.departmentVersions.set(departmentKey(department), version);
}

/**
 * The last-name index entity with its ETag (cached on request), or `undefined` if there is none.
 *
 * @throws {DomainError} for storage faults.
 */
export async function loadLastNameIndex(
  context: DirectoryContext,
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
    await context.table(),
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

/** Forgets cached versions of a department and some of its last names (after a failed write). */
export function forgetVersions(
  context: DirectoryContext,
  department: string,
  lastNames: Iterable<string> = [],
): void {
  context.departmentVersions.delete(departmentKey(department));
  for (const name of lastNames) context.lastNameVersions.delete(lastNameKey(department, name));
}

/** The error for a write that kept losing races on a shared entity. */
export function contendedError(what: string): ThrottledError {
  return new ThrottledError(`${what} kept changing concurrently; try again shortly.`, 1);
}

/**
 * The current ETag of an entity, for the rare transaction answer that lacks one.
 *
 * @throws {DomainError} for storage faults; a plain Error if the entity vanished meanwhile.
 */
export async function currentEtag(
  table: TableClient,
  partitionKey: string,
  rowKey: string,
): Promise<string> {
  const entity = await readEntity(table, partitionKey, rowKey, ['RowKey']);
  if (!entity) throw new Error(`Entity ${rowKey} vanished right after it was written.`);
  return entity.etag;
}
