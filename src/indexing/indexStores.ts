/**
 * What every index worker shares: where the indexes live ({@link IndexStores}) and who hears of
 * employees a drain or a reconcile found gone ({@link EmployeeGoneHandler}). The composition root
 * (functions/shared/services.ts) builds both once per process; src/indexing only receives them.
 */
import type { TableAccess } from '../storage/tables/tableAccess';
import type { DirectoryMetrics } from '../telemetry/metrics';
import type { DrainCache } from './drain/drainCache';
import type { LastNameStore } from './lastNames/lastNameStore';

/** Where the indexes live. */
export interface IndexStores {
  /** The `Employees` table (primary entities, read only here). */
  employees: TableAccess;
  /** The `EmployeeIndex` table. */
  index: TableAccess;
  /** The organisation-wide last-name index (option 1 or 3). */
  lastNames: LastNameStore;
  /** Versions this process's drains wrote, to read less (drain/drainCache.ts); optional. */
  drainCache?: DrainCache;
  /** The process's metrics the drains report to (outbox gauges, lag, rounds); optional. */
  metrics?: DirectoryMetrics;
  /**
   * Sends an outbox nudge for `department`, invisible for `delaySeconds` (0: at once): how a
   * drain whose invocation's budget ran out continues in a new invocation, and how an absorbed
   * nudge outlives a lease holder that dies (src/indexing/drain/leasedDrain.ts; `holder` names that
   * holder in the message). Without it a drain runs to the end in one invocation.
   *
   * @throws {DomainError} when the nudge cannot be stored (the invocation fails and is retried).
   */
  nudge?: (department: string, delaySeconds: number, holder?: string) => Promise<void>;
  /**
   * With data spread over accounts: which account (and placement version) holds `department`,
   * from the process's cache or read afresh (`fresh`). A reconcile compares the two before and
   * after its unfenced last-name list writes: a cache older than a relocation read the source.
   *
   * @throws {DomainError} for storage faults of the placement table.
   */
  holderOf?: (department: string, fresh: boolean) => Promise<string>;
}

/**
 * Told of each employee a drain (or a v1 reconcile) found gone from the directory, before its
 * outbox rows are deleted — the root wires it to the photo clean-up.
 *
 * @throws whatever the clean-up throws; the drain then fails and its rows are drained again.
 */
export type EmployeeGoneHandler = (department: string, employeeId: string) => Promise<void>;
