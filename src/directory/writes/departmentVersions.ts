/**
 * The versions of a department's shared entities a write depends on (the department and its
 * count shards), with their ETags, from the process's version cache or from storage. The
 * last-name index entities' are in lastNameVersions.ts.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
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
import type { Versioned } from '../entities/versionCache';
import { lastNameKey } from '../entities/versionCache';

/** Cache key of a department entity. */
export function departmentKey(department: string): string {
  return department;
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
  table: TableAccess,
  department: string,
  useCache: boolean,
): Promise<Versioned<Department> | undefined> {
  const key = departmentKey(department);
  if (useCache && context.cacheVersions) {
    const cached = context.departmentVersions.get(key);
    if (cached) return cached;
  }
  const read = await readDepartmentWithCount(table, department);
  rememberRead(context, department, read);
  return read?.department;
}

/** Remembers a range read of the department and its shards (or forgets an absent department). */
function rememberRead(
  context: DirectoryContext,
  department: string,
  read: DepartmentWithCount | undefined,
): void {
  if (!read) {
    context.departmentVersions.delete(departmentKey(department));
    return;
  }
  rememberDepartment(context, department, read.department);
  if (context.cacheVersions) {
    read.shards.forEach((version, shard) =>
      context.countVersions.set(countShardKey(department, shard), version),
    );
  }
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
  table: TableAccess,
  department: string,
  useCache: boolean,
): Promise<ChosenShard | undefined> {
  const shard = pickShard(context.countShardChoice, (s) => countShardKey(department, s));
  if (useCache && context.cacheVersions) {
    const cached = context.countVersions.get(countShardKey(department, shard));
    if (cached) return { shard, version: cached };
  }
  const read = await readDepartmentWithCount(table, department);
  rememberRead(context, department, read);
  return read && { shard, version: read.shards[shard] ?? { value: 0, etag: '' } };
}

/**
 * The department's count shards and its employee count as one range read finds them (the
 * department and every shard, remembered in the version cache), for a writer that hands out
 * several shards at once (an import's concurrent chunks, {@link takeCountShard}); `undefined`
 * when the department does not exist.
 *
 * @throws {ValidationError} for an invalid department name.
 * @throws {DomainError} for storage faults.
 */
export async function loadCountShards(
  context: DirectoryContext,
  table: TableAccess,
  department: string,
): Promise<{ shards: ShardVersion[]; employeeCount: number } | undefined> {
  const read = await readDepartmentWithCount(table, department);
  rememberRead(context, department, read);
  return read && { shards: read.shards, employeeCount: read.department.value.employeeCount };
}

/**
 * Chooses a count shard for one more concurrent write of this process ({@link pickShard}: one no
 * other write of the process is using), with its version from `shards` (kept by the caller).
 */
export function takeCountShard(
  context: DirectoryContext,
  department: string,
  shards: readonly ShardVersion[],
): ChosenShard {
  const shard = pickShard(context.countShardChoice, (s) => countShardKey(department, s));
  return { shard, version: shards[shard] ?? { value: 0, etag: '' } };
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
