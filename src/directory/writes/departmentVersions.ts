/**
 * Reading the shared entities a write depends on (department, last-name index entities), with
 * their ETags, from the version cache or from storage.
 */
import type { TableClient } from '@azure/data-tables';
import { readEntity } from '../../storage/tables/entities';
import { departmentPartitionKey, lastNameRowKey } from '../../storage/keys/tables/employees';
import { normalizeLastName } from '../../storage/keys/text';
import type { DirectoryContext } from '../context';
import {
  DEPARTMENT_COUNT_SHARDS,
  pickShard,
  releaseShard,
  readDepartmentWithCount,
  type DepartmentWithCount,
  type ShardVersion,
} from '../entities/departmentCount';
import type { Department } from '../entities/departmentEntity';
import { readLastNameIndex, type LastNameIndex } from '../entities/partitionLastNameIndex';
import type { Versioned } from '../entities/versionCache';
import { vanishedAfterWrite } from '../directoryErrors';

/** Cache key of a department entity. */
export function departmentKey(department: string): string {
  return department;
}

/** Cache key of a last-name index entity. */
export function lastNameKey(department: string, lastName: string): string {
  return `${department}\u0001${normalizeLastName(lastName)}`;
}

/**
 * The department entity with its ETag and its total employee count (cached on request: a cached
 * count may be stale, only a fresh read sums the shards), or `undefined` if there is none. A fresh
 * read is one range query over the department and its count shards, whose versions it caches.
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
  return (await readAndRemember(context, department))?.department;
}

/** One range read of the department and its shards, remembered in the version cache. */
async function readAndRemember(
  context: DirectoryContext,
  department: string,
): Promise<DepartmentWithCount | undefined> {
  const read = await readDepartmentWithCount(await context.table(), department);
  if (!read) {
    context.departmentVersions.delete(departmentKey(department));
    return undefined;
  }
  rememberDepartment(context, department, read.department);
  if (context.cacheVersions) {
    read.shards.forEach((version, shard) =>
      context.countVersions.set(countShardKey(department, shard), version),
    );
  }
  return read;
}

/** Cache key of a department count shard. */
function countShardKey(department: string, shard: number): string {
  return `${department}\u0001${shard}`;
}

/** A count shard chosen for a write, with the version it had. */
export interface ChosenShard {
  shard: number;
  version: ShardVersion;
}

/**
 * A randomly chosen count shard of the department with its version, from the version cache when
 * known (no storage request), else from one range read of the department and its shards;
 * `undefined` when the department does not exist.
 *
 * @throws {ValidationError} for an invalid department name.
 * @throws {DomainError} for storage faults.
 */
export async function loadCountShard(
  context: DirectoryContext,
  department: string,
  useCache: boolean,
): Promise<ChosenShard | undefined> {
  const shard = pickShard(context.countShardChoice, (s) => countShardKey(department, s));
  if (useCache && context.cacheVersions) {
    const cached = context.countVersions.get(countShardKey(department, shard));
    if (cached) return { shard, version: cached };
  }
  const read = await readAndRemember(context, department);
  return read && { shard, version: read.shards[shard] ?? { value: 0, etag: '' } };
}

/** Forgets the cached version of one count shard (after a write on it failed). */
export function forgetCountShard(
  context: DirectoryContext,
  department: string,
  shard: number,
): void {
  context.countVersions.delete(countShardKey(department, shard));
  releaseShard(context.countShardChoice, countShardKey(department, shard));
}

/** Records the version of a count shard that a write produced or a read returned. */
export function rememberCountShard(
  context: DirectoryContext,
  department: string,
  shard: number,
  version: ShardVersion,
): void {
  releaseShard(context.countShardChoice, countShardKey(department, shard));
  if (context.cacheVersions) context.countVersions.set(countShardKey(department, shard), version);
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

/** Forgets cached versions of a department and some of its last names (after a failed write). */
export function forgetVersions(
  context: DirectoryContext,
  department: string,
  lastNames: Iterable<string> = [],
): void {
  context.departmentVersions.delete(departmentKey(department));
  for (let shard = 0; shard < DEPARTMENT_COUNT_SHARDS; shard++)
    context.countVersions.delete(countShardKey(department, shard));
  for (const name of lastNames) context.lastNameVersions.delete(lastNameKey(department, name));
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
  if (!entity) throw vanishedAfterWrite(rowKey);
  return entity.etag;
}
