/**
 * The outbox walk: the sweep's last resort for rows that neither a stored message nor a
 * pending-work marker stands for (a process that died between its commit and its cover's send, a
 * marker that could not be written either). It finds every department partition holding an
 * outbox row by a query across partitions (`RowKey` in the outbox range: the service scans the
 * table and returns only those rows' partition keys), so its requests follow the pages of that
 * scan, never one per department. It starts once per {@link WALK_INTERVAL_MS} and goes on in
 * bounded steps — at most {@link WALK_PAGES_PER_SWEEP} pages and {@link WALK_BUDGET_MS} per sweep,
 * the resume cursor (each account's continuation) kept in a checkpoint row of `.pending` — so a
 * sweep never nears the host's `functionTimeout` however large the table. Crashes cost time,
 * never rows: the cursor is written after the pages it passes, so a crash reads them again.
 *
 * Why: docs/queues.md "Pending work without walking every department" (and docs/glossary.md).
 */
import { odata } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import { parseDepartmentPartitionKey } from '../../storage/keys/tables/employees';
import {
  OUTBOX_WALK_ROW_KEY,
  outboxRowKeyRange,
  PENDING_WORK_PARTITION_KEY,
} from '../../storage/keys/tables/outbox';
import type { StoredEntity } from '../../storage/tables/entities';
import { withStorageErrors } from '../../storage/storageFaults';

/** `EntityType` of the walk's checkpoint. */
export const OUTBOX_WALK_ENTITY_TYPE = 'IndexOutboxWalk.v1';

/** How often a full walk starts: hourly. */
export const WALK_INTERVAL_MS = 60 * 60_000;

/** Scan pages one sweep reads at most, per account. */
export const WALK_PAGES_PER_SWEEP = 20;

/** Time one sweep gives the walk at most (a page may take the service up to 5 s). */
export const WALK_BUDGET_MS = 60_000;

/** One account's own client of the `Employees` table (the walk's cursor is per account). */
export interface WalkedAccount {
  name: string;
  employees: TableAccess;
}

/** Options of {@link walkStep}. */
export interface WalkOptions {
  /** Clock; default `Date.now`. */
  now?: () => number;
  /** Default {@link WALK_INTERVAL_MS}. */
  intervalMs?: number;
  /** Default {@link WALK_PAGES_PER_SWEEP}. */
  maxPages?: number;
  /** Default {@link WALK_BUDGET_MS}. */
  budgetMs?: number;
}

/** What one step of the walk did. */
export interface WalkStep {
  /** Whether a step ran in this sweep (a walk was due or under way). */
  ran: boolean;
  /** Whether this step reached the end of the walk in every account (it is stamped). */
  finished: boolean;
  /** Departments found holding outbox rows (each once). */
  departments: string[];
  /** Accounts whose pages could not be read: the cursor stays, the next sweep tries again. */
  failedAccounts: { account: string; error: unknown }[];
}

/** The checkpoint: when the last finished walk began, and a walk under way (cursor per account). */
interface Checkpoint {
  walkedAt: number;
  walk?: { startedAt: number; cursors: Record<string, string> };
}

/** The stored checkpoint; an unreadable one reads as "never walked" (the walk starts again). */
function readCheckpoint(entity: StoredEntity | undefined): Checkpoint {
  if (!entity) return { walkedAt: Number.NaN };
  const walkedAt = new Date(entity.WalkedAt as string | Date).getTime();
  if (typeof entity.Walk !== 'string' || entity.Walk === '') return { walkedAt };
  try {
    const walk = JSON.parse(entity.Walk) as Checkpoint['walk'];
    const cursors = walk?.cursors;
    const valid =
      typeof walk?.startedAt === 'number' &&
      typeof cursors === 'object' &&
      cursors !== null &&
      Object.values(cursors).every((cursor) => typeof cursor === 'string');
    return valid ? { walkedAt, walk } : { walkedAt: Number.NaN };
  } catch {
    return { walkedAt: Number.NaN };
  }
}

/**
 * Runs one bounded step of the walk when one is due or under way (see the file comment) and
 * writes the checkpoint (`home`: the `Employees` table holding `.pending`).
 *
 * @throws {DomainError} when the checkpoint cannot be written (the next sweep does the step again).
 */
export async function walkStep(
  home: TableAccess,
  accounts: readonly WalkedAccount[],
  checkpointEntity: StoredEntity | undefined,
  options: WalkOptions = {},
): Promise<WalkStep> {
  const clock = options.now ?? Date.now;
  const now = clock();
  const interval = options.intervalMs ?? WALK_INTERVAL_MS;
  const checkpoint = readCheckpoint(checkpointEntity);
  const idle: WalkStep = { ran: false, finished: false, departments: [], failedAccounts: [] };
  let walk = checkpoint.walk;
  if (!walk) {
    // Due when never walked, an interval ago, or stamped in the future by a clock far ahead.
    const at = checkpoint.walkedAt;
    if (now - at < interval && at - now < interval) return idle;
    walk = { startedAt: now, cursors: Object.fromEntries(accounts.map((a) => [a.name, ''])) };
  }
  const deadline = now + (options.budgetMs ?? WALK_BUDGET_MS);
  const maxPages = options.maxPages ?? WALK_PAGES_PER_SWEEP;
  const found = new Set<string>();
  const failedAccounts: WalkStep['failedAccounts'] = [];
  const cursors: Record<string, string> = {};
  // An account no longer configured is dropped; one added meanwhile waits for the next walk.
  const walked = accounts.filter((account) => walk.cursors[account.name] !== undefined);
  const outcomes = await Promise.allSettled(
    walked.map((account) =>
      scanPages(account.employees, walk.cursors[account.name]!, maxPages, deadline, clock),
    ),
  );
  outcomes.forEach((outcome, i) => {
    const account = walked[i]!;
    if (outcome.status === 'rejected') {
      failedAccounts.push({ account: account.name, error: outcome.reason });
      cursors[account.name] = walk.cursors[account.name]!;
      return;
    }
    for (const department of outcome.value.departments) found.add(department);
    if (outcome.value.next !== null) cursors[account.name] = outcome.value.next;
  });
  const finished = Object.keys(cursors).length === 0;
  await withStorageErrors(() =>
    home.upsertEntity(
      {
        partitionKey: PENDING_WORK_PARTITION_KEY,
        rowKey: OUTBOX_WALK_ROW_KEY,
        EntityType: OUTBOX_WALK_ENTITY_TYPE,
        WalkedAt: new Date(finished ? walk.startedAt : checkpoint.walkedAt || 0),
        Walk: finished ? '' : JSON.stringify({ startedAt: walk.startedAt, cursors }),
      },
      'Replace',
    ),
  );
  return { ran: true, finished, departments: [...found].sort(), failedAccounts };
}

/**
 * Reads scan pages from `cursor` ('' = the start) until the end, `maxPages` or `deadline`.
 *
 * @returns the departments found and where to resume (`null`: the end was reached).
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
async function scanPages(
  table: TableAccess,
  cursor: string,
  maxPages: number,
  deadline: number,
  clock: () => number,
): Promise<{ departments: string[]; next: string | null }> {
  const range = outboxRowKeyRange();
  const departments = new Set<string>();
  return withStorageErrors(async () => {
    const pages = table
      .listEntities({
        queryOptions: {
          filter: odata`RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
          select: ['PartitionKey'],
        },
      })
      .byPage({ maxPageSize: 1000, ...(cursor !== '' && { continuationToken: cursor }) });
    let read = 0;
    for await (const page of pages) {
      read++;
      for (const row of page) {
        const department = parseDepartmentPartitionKey(String(row.partitionKey));
        if (department !== undefined) departments.add(department);
      }
      const next = page.continuationToken;
      if (!next) return { departments: [...departments], next: null };
      if (read >= maxPages || clock() >= deadline) return { departments: [...departments], next };
    }
    return { departments: [...departments], next: null };
  });
}
