/**
 * The department's employee count, spread so that concurrent creates do not collide (no hot
 * entity): the count is the department entity's own `EmployeeCount` (what departments written
 * before shards hold; frozen once shards exist) plus the `Count` of up to
 * {@link DEPARTMENT_COUNT_SHARDS} shard entities in the department's partition
 * (`department_count_00`…). Each create, delete or import chunk changes ONE shard (each process
 * takes them in turn from a random start) inside its own transaction, conditional on that shard's
 * ETag (or creating it), so two writers collide only when they pick the same shard. The
 * department and its shards are read together with one range query, so `GET /departments/{dept}`
 * stays one storage request.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import type { EntityGroupAction } from '../../storage/tables/entityGroupTransaction';
import { toDomainError } from '../../storage/storageFaults';
import { rowKeyRangeFilter } from '../../storage/tables/filters';
import {
  DEPARTMENT_ROW_KEY,
  departmentCountShardRowKey,
  departmentPartitionKey,
  departmentWithCountRowKeyRange,
  parseDepartmentCountShardRowKey,
} from '../../storage/keys/tables/employees';
import { readDepartment, type Department } from './departmentEntity';
import { ENTITY_TYPE_PROPERTY, EntityTypes, isEntityOfType } from './entityTypes';
import type { Versioned } from './versionCache';
import type { StoredProperties } from '../../storage/tables/entities';

/** Shards a department's count is spread over (readers sum whatever shards exist). */
export const DEPARTMENT_COUNT_SHARDS = 16;

/** A shard's count and ETag; `etag` is `''` when the shard did not exist at the last read. */
export type ShardVersion = Versioned<number>;

/** The department with its total count, and each shard's version (index = shard number). */
export interface DepartmentWithCount {
  department: Versioned<Department>;
  /** The stored department entity itself. */
  entity: StoredProperties;
  shards: ShardVersion[];
}

/** A shard entity holding `count` (negative counts are fine: only the sum means anything). */
export function countShardEntity(
  partitionKey: string,
  shard: number,
  count: number,
): { partitionKey: string; rowKey: string } & StoredProperties {
  return {
    partitionKey,
    rowKey: departmentCountShardRowKey(shard),
    [ENTITY_TYPE_PROPERTY]: EntityTypes.departmentCountShard,
    Count: count,
  };
}

/** The shard number and count of a stored shard entity; `undefined` for anything else. */
export function readCountShard(
  entity: { rowKey?: string } & StoredProperties,
): { shard: number; count: number } | undefined {
  const shard =
    entity.rowKey === undefined ? undefined : parseDepartmentCountShardRowKey(entity.rowKey);
  if (shard === undefined || !isEntityOfType(entity, EntityTypes.departmentCountShard))
    return undefined;
  const count = entity.Count;
  return { shard, count: typeof count === 'number' && Number.isSafeInteger(count) ? count : 0 };
}

/** How long a chosen shard stays busy unless its write finishes (or fails) first. */
const BUSY_MS = 2_000;

/** One process's shard choices (see {@link pickShard}). */
export interface CountShardChoice {
  /** Where the next choice starts (a random start per process spreads processes). */
  next: number;
  /** Busy shards (by key) and until when, in ms since the epoch. */
  busy: Map<string, number>;
}

/** A fresh {@link CountShardChoice} with a random start. */
export function newCountShardChoice(): CountShardChoice {
  return { next: Math.floor(Math.random() * DEPARTMENT_COUNT_SHARDS), busy: new Map() };
}

/**
 * Chooses a count shard: the first from the cursor on that no write of this process is using
 * (`keyOf` names a shard of the department), marked busy until {@link releaseShard} or for
 * {@link BUSY_MS}; the cursor's own shard when every shard is busy. So concurrent writers of one
 * process never collide while there are free shards, and processes start at random places.
 */
export function pickShard(
  choice: CountShardChoice,
  keyOf: (shard: number) => string,
  now: number = Date.now(),
): number {
  let shard = choice.next % DEPARTMENT_COUNT_SHARDS;
  for (let i = 0; i < DEPARTMENT_COUNT_SHARDS; i++) {
    const candidate = (choice.next + i) % DEPARTMENT_COUNT_SHARDS;
    if ((choice.busy.get(keyOf(candidate)) ?? 0) <= now) {
      shard = candidate;
      break;
    }
  }
  choice.next = (shard + 1) % DEPARTMENT_COUNT_SHARDS;
  if (choice.busy.size > 10_000) choice.busy.clear();
  choice.busy.set(keyOf(shard), now + BUSY_MS);
  return shard;
}

/** Marks a shard free again (its write finished or failed). */
export function releaseShard(choice: CountShardChoice, key: string): void {
  choice.busy.delete(key);
}

/**
 * The transaction action that adds `delta` to `shard`: a Replace under the shard's ETag, or the
 * shard's creation when it did not exist (a concurrent creation fails it with 409).
 */
export function countShardChange(
  partitionKey: string,
  shard: number,
  version: ShardVersion,
  delta: number,
): EntityGroupAction {
  const entity = countShardEntity(partitionKey, shard, version.value + delta);
  return version.etag === ''
    ? ['create', entity]
    : ['update', entity, 'Replace', { etag: version.etag }];
}

/**
 * The department entity and its count shards in ONE range query; `undefined` when the department
 * does not exist.
 *
 * @throws {ValidationError} for an invalid department name.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function readDepartmentWithCount(
  table: TableAccess,
  name: string,
): Promise<DepartmentWithCount | undefined> {
  const partitionKey = departmentPartitionKey(name);
  const range = departmentWithCountRowKeyRange();
  const filter = rowKeyRangeFilter(partitionKey, range);
  const shards: ShardVersion[] = Array.from({ length: DEPARTMENT_COUNT_SHARDS }, () => ({
    value: 0,
    etag: '',
  }));
  let department: Versioned<Department> | undefined;
  let stored: StoredProperties = {};
  let shardTotal = 0;
  try {
    for await (const entity of table.listEntities<StoredProperties>({ queryOptions: { filter } })) {
      if (entity.rowKey === DEPARTMENT_ROW_KEY) {
        const value = readDepartment(entity);
        if (value && entity.etag) {
          department = { value, etag: entity.etag };
          stored = entity;
        }
        continue;
      }
      const shard = readCountShard(entity);
      if (!shard) continue;
      shardTotal += shard.count;
      if (shard.shard < DEPARTMENT_COUNT_SHARDS && entity.etag)
        shards[shard.shard] = { value: shard.count, etag: entity.etag };
    }
  } catch (error) {
    throw toDomainError(error);
  }
  if (!department) return undefined;
  const employeeCount = Math.max(0, department.value.employeeCount + shardTotal);
  return {
    department: { ...department, value: { ...department.value, employeeCount } },
    entity: stored,
    shards,
  };
}
