/**
 * The outbox sweep: drains the departments whose outbox rows no stored queue message stands for.
 * Every run reads the pending-work markers (pendingMarkers.ts: one query of `.pending` in home,
 * which holds the walk's checkpoint too) and drains the marked departments, removing each marker
 * once its drain found the outbox empty; idle, that is one request whatever the number of
 * departments. Rows that nothing marked (a process that died between its commit and its cover)
 * are found by the outbox walk (outboxWalk.ts): hourly, a scan across partitions in bounded steps
 * with a resume cursor. With data spread over several accounts, an account that cannot be reached
 * costs only its own departments: the others are still found and drained, and the report names it.
 *
 * Why: docs/queues.md "Transactional outbox" ("Lost messages: the sweep", "Pending work without
 * walking every department").
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { mapBounded } from '../../storage/parallel';
import { ensureTable } from '../../storage/createOnce';
import type { SharedDrains } from './sharedDrains';
import {
  clearPendingMarker,
  markPending,
  readPendingWork,
  type PendingMarker,
} from './pendingMarkers';
import { walkStep, WALK_INTERVAL_MS, type WalkOptions } from './outboxWalk';

/** How often the sweep starts a full walk of the table (kept under its earlier name). */
export const DISCOVERY_INTERVAL_MS = WALK_INTERVAL_MS;

/** What a sweep did. */
export interface SweepReport {
  /** Departments drained: the marked ones and those the walk found. */
  departments: number;
  /** Pending-work markers read, and those removed after a clean drain. */
  marked: number;
  cleared: number;
  /** Outbox rows drained over all departments. */
  rows: number;
  /** Whether a step of the outbox walk (the scan across partitions) ran in this sweep. */
  discovered: boolean;
  /** Whether that step finished the walk (every account scanned to its end). */
  walkFinished: boolean;
  /** Departments whose drain failed (marked: the next sweep tries again). */
  failed: { department: string; error: unknown }[];
  /**
   * Accounts whose table could not be created or scanned (with {@link SweepOptions.accounts}):
   * the walk keeps their cursor, and the next sweep tries them again.
   */
  failedAccounts: { account: string; error: unknown }[];
}

/** One storage account's own client of the `Employees` table (data spread over several). */
export interface SweptAccount {
  name: string;
  employees: TableAccess;
}

/** Options of {@link sweepOutboxes}. */
export interface SweepOptions extends Pick<WalkOptions, 'maxPages' | 'budgetMs'> {
  /** Clock (tests); default `Date.now`. */
  now?: () => number;
  /** How often a full walk starts; default {@link DISCOVERY_INTERVAL_MS}. */
  discoveryIntervalMs?: number;
  /**
   * With data spread over several accounts: every account (home too), each with its own client,
   * so that the table is created and walked account by account and one that fails is reported
   * rather than failing the sweep. Without it, through the drains' table.
   */
  accounts?: readonly SweptAccount[];
}

/**
 * Drains the marked departments and those the walk's step found (4 at a time), through the
 * process's shared drains (gone employees go to their handler) so a sweep and the nudges of the
 * same process never drain one department twice at once, each under the department's drain lease
 * and within an invocation's budget (leasedDrain.ts): a department drained elsewhere is left to
 * its holder (its marker stays), one with a long backlog continues through a nudge, so the sweep
 * ends well within the host's `functionTimeout`. A department whose drain fails is reported in
 * `failed` and marked; with `options.accounts`, an account whose table cannot be created or
 * scanned is reported in `failedAccounts` and the sweep goes on.
 *
 * @throws {DomainError} when the markers (home) cannot be read, or the walk's checkpoint cannot
 *   be written; without `options.accounts`, also when the walk's scan fails.
 */
export async function sweepOutboxes(
  drains: SharedDrains,
  options: SweepOptions = {},
): Promise<SweepReport> {
  const { stores } = drains;
  const now = options.now ?? Date.now;
  const failedAccounts: SweepReport['failedAccounts'] = [];
  if (options.accounts) {
    // Each account's own: one that cannot be reached fails its part of the walk only.
    await eachAccount(options.accounts, failedAccounts, (account) =>
      ensureTable(account.employees),
    );
  }
  await ensureTable(stores.employees);
  const pending = await readPendingWork(stores.employees);
  const walk = await walkStep(
    stores.employees,
    options.accounts ?? [{ name: '', employees: stores.employees }],
    pending.checkpoint,
    {
      now,
      intervalMs: options.discoveryIntervalMs,
      maxPages: options.maxPages,
      budgetMs: options.budgetMs,
    },
  );
  if (!options.accounts && walk.failedAccounts.length > 0) throw walk.failedAccounts[0]!.error;
  for (const failure of walk.failedAccounts) {
    if (!failedAccounts.some(({ account }) => account === failure.account))
      failedAccounts.push(failure);
  }
  const markers = new Map<string, PendingMarker>(
    pending.markers.map((marker) => [marker.department, marker]),
  );
  const departments = [...new Set([...markers.keys(), ...walk.departments])];
  const report: SweepReport = {
    departments: departments.length,
    marked: markers.size,
    cleared: 0,
    rows: 0,
    discovered: walk.ran,
    walkFinished: walk.finished,
    failed: [],
    failedAccounts,
  };
  await mapBounded(departments, 4, async (department) => {
    try {
      const result = await drains.request(department);
      report.rows += result.rows;
      const marker = markers.get(department);
      // Only a drain that started after the marker was read and ended on an empty outbox
      // answers for it; a department left to another holder keeps its marker for the next run.
      if (marker && result.outcome === 'drained' && result.complete) {
        if (await clearPendingMarker(stores.employees, marker)) report.cleared++;
      }
    } catch (error) {
      report.failed.push({ department, error });
      if (!markers.has(department)) {
        await markPending(stores.employees, department, 'sweep-failed', now).catch(() => undefined);
      }
    }
  });
  return report;
}

/**
 * Runs `step` in every account at once; an account whose step fails is added to `failed` and left
 * out of the answer.
 */
async function eachAccount<T>(
  accounts: readonly SweptAccount[],
  failed: SweepReport['failedAccounts'],
  step: (account: SweptAccount) => Promise<T>,
): Promise<(SweptAccount & { result: T })[]> {
  const outcomes = await Promise.allSettled(accounts.map(step));
  const done: (SweptAccount & { result: T })[] = [];
  outcomes.forEach((outcome, i) => {
    const account = accounts[i]!;
    if (outcome.status === 'fulfilled') done.push({ ...account, result: outcome.value });
    else failed.push({ account: account.name, error: outcome.reason });
  });
  return done;
}
