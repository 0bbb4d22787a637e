/**
 * The outbox sweep: drains the index outbox of every listed department, and of every department
 * partition that holds outbox rows, for rows nobody was asked to drain (a cover whose send failed
 * after the SDK's retries, or a poisoned message). Idle, it costs one query (the listing, with the
 * sweep's checkpoint) and one request per department (the outbox check of leasedDrain.ts).
 * Departments missing from the listing are found from the data
 * (directory/departments/departmentDiscovery.ts, a scan on the service's side) once per
 * {@link DISCOVERY_INTERVAL_MS}; the checkpoint records when, and the unlisted departments found,
 * which every sweep drains until the next discovery. Crashes cost time, never rows. With data
 * spread over several accounts, an account that cannot be reached costs only its own departments:
 * the others are still found and drained, and the report names it.
 *
 * Why: docs/queues.md "Transactional outbox" ("Lost messages: the sweep").
 */
import type { TableClient } from '@azure/data-tables';
import { mapBounded } from '../../storage/parallel';
import { departmentsHoldingRows } from '../../directory';
import { ensureTable } from '../../storage/createOnce';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  parseDepartmentListRowKey,
} from '../../storage/keys/tables/employees';
import {
  departmentListingAndSweepRange,
  OUTBOX_SWEEP_ROW_KEY,
  outboxRowKeyRange,
} from '../../storage/keys/tables/outbox';
import type { StoredEntity } from '../../storage/tables/entities';
import { withStorageErrors } from '../../storage/storageFaults';
import type { SharedDrains } from './sharedDrains';
import { readWholeRange } from '../../storage/tables/rangePages';

/** `EntityType` of the sweep's checkpoint. */
export const OUTBOX_SWEEP_ENTITY_TYPE = 'IndexOutboxSweep.v1';

/** How often the sweep looks for departments missing from the listing (a table scan): hourly. */
export const DISCOVERY_INTERVAL_MS = 60 * 60_000;

/**
 * Characters of the checkpoint's list of unlisted departments (a string property holds 32 K); a
 * list that does not fit is not kept, and the next sweep discovers again.
 */
const MAX_UNLISTED_CHARS = 30_000;

/** What a sweep did. */
export interface SweepReport {
  departments: number;
  /** Outbox rows drained over all departments. */
  rows: number;
  /** Whether this sweep looked for departments missing from the listing (the table scan). */
  discovered: boolean;
  /** Departments whose drain failed (the next sweep or nudge tries again). */
  failed: { department: string; error: unknown }[];
  /**
   * Accounts whose table could not be created or scanned (with {@link SweepOptions.accounts}):
   * departments they hold were not discovered this time, and the next sweep discovers again.
   */
  failedAccounts: { account: string; error: unknown }[];
}

/** One storage account's own client of the `Employees` table (data spread over several). */
export interface SweptAccount {
  name: string;
  employees: TableClient;
}

/** Options of {@link sweepOutboxes}. */
export interface SweepOptions {
  /** Clock (tests); default `Date.now`. */
  now?: () => number;
  /** Default {@link DISCOVERY_INTERVAL_MS}. */
  discoveryIntervalMs?: number;
  /**
   * With data spread over several accounts: every account (home too), each with its own client,
   * so that the table is created and departments are discovered account by account and one that
   * fails is reported rather than failing the sweep. Without it, through the drains' table.
   */
  accounts?: readonly SweptAccount[];
}

/** The checkpoint as stored: when discovery last ran, and the unlisted departments it found. */
function readCheckpoint(entity: StoredEntity | undefined): { at: number; unlisted: string[] } {
  if (!entity) return { at: Number.NaN, unlisted: [] };
  const at = new Date(entity.DiscoveredAt as string | Date).getTime();
  let unlisted: unknown;
  try {
    unlisted = JSON.parse(typeof entity.Unlisted === 'string' ? entity.Unlisted : '[]');
  } catch {
    // Unreadable: discover again.
    return { at: Number.NaN, unlisted: [] };
  }
  const names = Array.isArray(unlisted) ? unlisted : [];
  return {
    at,
    unlisted: names.filter(
      (name): name is string =>
        typeof name === 'string' && parseDepartmentListRowKey(name) !== undefined,
    ),
  };
}

/**
 * Drains the outbox of every listed department and of every department with outbox rows (4 at a
 * time), through the process's shared drains (gone employees go to their handler) so
 * a sweep and the nudges of the same process never drain one department twice at once, each
 * under the department's drain lease and within an invocation's budget (leasedDrain.ts): a
 * department drained elsewhere is left to its holder, one with a long backlog continues through
 * a nudge, so the sweep ends well within the host's `functionTimeout`. A department whose drain
 * fails (its account unreachable, say) is reported in `failed`; with `options.accounts`, an account
 * whose table cannot be created or scanned is reported in `failedAccounts` and the sweep goes on.
 *
 * @throws {DomainError} when the department list (home) cannot be read, or the checkpoint cannot
 *   be written; without `options.accounts`, also when the discovery's scan fails in any account
 *   (the next sweep tries again).
 */
export async function sweepOutboxes(
  drains: SharedDrains,
  options: SweepOptions = {},
): Promise<SweepReport> {
  const { stores } = drains;
  const now = (options.now ?? Date.now)();
  const interval = options.discoveryIntervalMs ?? DISCOVERY_INTERVAL_MS;
  const failedAccounts: SweepReport['failedAccounts'] = [];
  // Each account's own: one that cannot be reached is left out of this sweep's discovery.
  const reachable = options.accounts
    ? await eachAccount(options.accounts, failedAccounts, (account) =>
        ensureTable(account.employees),
      )
    : undefined;
  if (!reachable) await ensureTable(stores.employees);
  const rows = await readWholeRange(
    stores.employees,
    { partitionKey: DEPARTMENT_LIST_PARTITION_KEY, ...departmentListingAndSweepRange() },
    ['RowKey', 'DiscoveredAt', 'Unlisted'],
  );
  const listed = new Set(
    rows
      .map((entity) => parseDepartmentListRowKey(entity.rowKey))
      .filter((name): name is string => name !== undefined),
  );
  const checkpoint = readCheckpoint(rows.find((entity) => entity.rowKey === OUTBOX_SWEEP_ROW_KEY));
  // Due when never run, an interval ago, or stamped in the future by a clock far ahead of ours.
  const discover = !(now - checkpoint.at < interval && checkpoint.at - now < interval);
  let unlisted = checkpoint.unlisted.filter((name) => !listed.has(name));
  if (discover) {
    const withRows = reachable
      ? (
          await eachAccount(reachable, failedAccounts, (account) =>
            departmentsHoldingRows(account.employees, outboxRowKeyRange()),
          )
        ).flatMap(({ result }) => result)
      : await departmentsHoldingRows(stores.employees, outboxRowKeyRange());
    unlisted = [...new Set(withRows)].filter((name) => !listed.has(name)).sort();
    const list = JSON.stringify(unlisted);
    // Stamped only when every account was scanned: otherwise the next sweep discovers again.
    const complete = list.length <= MAX_UNLISTED_CHARS && failedAccounts.length === 0;
    await withStorageErrors(() =>
      stores.employees.upsertEntity(
        {
          partitionKey: DEPARTMENT_LIST_PARTITION_KEY,
          rowKey: OUTBOX_SWEEP_ROW_KEY,
          EntityType: OUTBOX_SWEEP_ENTITY_TYPE,
          // A list too long to keep: no date either, so the next sweep discovers again.
          DiscoveredAt: new Date(complete ? now : 0),
          Unlisted: list.length <= MAX_UNLISTED_CHARS ? list : '[]',
        },
        'Replace',
      ),
    );
  }
  const departments = [...listed, ...unlisted];
  const report: SweepReport = {
    departments: departments.length,
    rows: 0,
    discovered: discover,
    failed: [],
    failedAccounts,
  };
  await mapBounded(departments, 4, async (department) => {
    try {
      report.rows += (await drains.request(department)).rows;
    } catch (error) {
      report.failed.push({ department, error });
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
