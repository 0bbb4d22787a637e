/**
 * What every directory operation shares: the `Employees` table client (created on first use),
 * the change sink, and the caches of shared entity versions.
 */
import type { TableAccess } from '../storage/tables/tableAccess';
import { discardChanges, type EmployeeChangeSink } from './changes';
import { newCountShardChoice, type CountShardChoice } from './entities/departmentCount';
import type { Department } from './entities/departmentEntity';
import type { LastNameIndex } from './entities/partitionLastNameIndex';
import { contendedError } from './directoryErrors';
import { ensureTable } from '../storage/createOnce';
import type { OptimisticRetryOptions } from '../storage/optimisticRetry';
import { departmentOfLastNameKey, VersionCache } from './entities/versionCache';
import { LruMap } from '../storage/lruMap';

/** Attempts before giving up on a contended entity (20 concurrent writers finish well within). */
export const DEFAULT_MAX_CONFLICT_ATTEMPTS = 50;

/** How to build a directory. */
export interface DirectoryOptions {
  /** Client of the `Employees` table (tests pass one for a unique table). */
  employees: TableAccess;
  /** Receives every committed employee change (default: {@link discardChanges}). */
  changes?: EmployeeChangeSink;
  /**
   * Record every employee change as an index outbox row in the write's own transaction (default:
   * what `changes` asks for, see {@link EmployeeChangeSink.outbox}).
   */
  outbox?: boolean;
  /** How long `GET /departments` pages stay cached in this process (0 = no caching). */
  departmentCacheTtlMs?: number;
  /** Attempts on optimistic-concurrency conflicts before answering 503 (default 50). */
  maxConflictAttempts?: number;
  /**
   * Remember department and last-name index versions between writes (default true). Writes stay
   * conditional on ETags either way; the cache only saves reads.
   */
  cacheVersions?: boolean;
  /** Clock for the department list cache (tests). */
  now?: () => number;
}

/** Shared state of one directory instance. */
export interface DirectoryContext {
  /** The `Employees` table, created on first use. */
  table(): Promise<TableAccess>;
  readonly changes: EmployeeChangeSink;
  /** Writes add an index outbox row to their transaction (src/directory/entities/outbox.ts). */
  readonly outbox: boolean;
  readonly departmentVersions: VersionCache<Department>;
  readonly lastNameVersions: VersionCache<LastNameIndex>;
  /**
   * Departments whose last-name index entities this process has kept in `lastNameVersions`
   * since the department was small (an import then took unknown names to be absent): a name it
   * does not know there is most likely new. A department leaves it when one of its entries is
   * evicted (docs/directory.md "Import").
   */
  readonly lastNamesKept: LruMap<string, true>;
  /** Versions of department count shards (`''` ETag: absent at the last read). */
  readonly countVersions: VersionCache<number>;
  /**
   * This process's count-shard choices: where the next starts, and until when each chosen shard
   * (cache key) counts as busy, so concurrent writes of one process take different shards.
   */
  readonly countShardChoice: CountShardChoice;
  readonly cacheVersions: boolean;
  readonly maxConflictAttempts: number;
}

/** Builds the shared state from options. */
export function createContext(options: DirectoryOptions): DirectoryContext {
  const lastNamesKept = new LruMap<string, true>(1_000);
  return {
    table: async () => {
      await ensureTable(options.employees);
      return options.employees;
    },
    changes: options.changes ?? discardChanges,
    outbox: options.outbox ?? options.changes?.outbox === true,
    departmentVersions: new VersionCache<Department>(1_000),
    lastNameVersions: new VersionCache<LastNameIndex>(10_000, (key) =>
      lastNamesKept.delete(departmentOfLastNameKey(key)),
    ),
    lastNamesKept,
    countVersions: new VersionCache<number>(16_000),
    countShardChoice: newCountShardChoice(),
    cacheVersions: options.cacheVersions ?? true,
    maxConflictAttempts: options.maxConflictAttempts ?? DEFAULT_MAX_CONFLICT_ATTEMPTS,
  };
}

/**
 * The options of a directory write's optimistic retry (storage/optimisticRetry.ts): at most the
 * context's `maxConflictAttempts`, then a `ContentionError` naming `subject`.
 */
export function directoryRetry(
  context: Pick<DirectoryContext, 'maxConflictAttempts'>,
  subject: string,
): OptimisticRetryOptions {
  return {
    maxAttempts: context.maxConflictAttempts,
    giveUp: (attempts) => contendedError(subject, attempts),
  };
}

/** One call on one employee: the directory's state, the table, and the employee's keys. */
export interface EmployeeCall {
  context: DirectoryContext;
  table: TableAccess;
  department: string;
  employeeId: string;
  partitionKey: string;
}
