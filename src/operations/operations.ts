/**
 * The operations view: whether the eventual parts keep up, read from storage on demand
 * (`GET /api/operations`, the console's Operations page) — the same figures the OpenTelemetry
 * metrics report (docs/telemetry.md), for an admin without Application Insights at hand.
 *
 * Its cost follows the pending work, not the organisation: the outbox part reads the
 * pending-work markers (one query of `.pending`, src/indexing/drain/pendingMarkers.ts: every
 * department whose rows no stored message stands for, wherever it sorts, never truncated) and
 * one page (≤ {@link OUTBOX_PENDING_CAP} rows, RowKey and Timestamp only) of each marked
 * department's outbox; then one `getProperties` per poison queue, one `getProperties` and one
 * one-message peek of the log batch queue, one partition query of the timers' last runs (plus the
 * `Employees` table's creation check, once per process). A department with more pending rows than
 * the cap reports the cap and `pendingCapped: true`, and its oldest row is the oldest of the rows
 * read (a lower bound of the age: outbox rows sort by employee id, not by time).
 */
import type { TableAccess } from '../storage/tables/tableAccess';
import { unknownQueue } from './operationsErrors';
import { earliestLineHour } from '../logs';
import { departmentPartitionKey } from '../storage/keys/tables/employees';
import { outboxRowKeyRange } from '../storage/keys/tables/outbox';
import { poisonQueueName } from '../storage/keys/queues';
import { mapBounded } from '../storage/parallel';
import { ensureTable } from '../storage/createOnce';
import { unlessNotFound } from '../storage/storageFaults';
import { decodeQueueMessage } from '../storage/queue';
import { systemClock, type Clock } from '../time/clock';
import {
  approximateLength,
  peekPoisonMessages,
  replayPoisonMessages,
  type PoisonMessage,
  type QueueSource,
  type ReplayedMessage,
} from './poisonQueues';
import type { TimerRun, TimerRunLog } from './timerRuns';
import { readRangePage } from '../storage/tables/rangePages';
import { readPendingWork } from '../indexing';
import type { ThrottleSnapshot } from '../storage/throttleCounts';

/** Outbox rows counted per department (one query page). */
const OUTBOX_PENDING_CAP = 1_000;
/** Messages one replay request moves at most (two requests each: it stays well within a call). */
export const MAX_REPLAY = 256;
/** Outbox reads in flight at once. */
const PARALLEL_READS = 4;

/** A department with pending outbox rows. */
export interface OutboxBacklog {
  department: string;
  /** Rows pending, up to {@link OUTBOX_PENDING_CAP}. */
  pending: number;
  /** True when there may be more rows than `pending`. */
  pendingCapped: boolean;
  /** Commit time of the oldest row read. */
  oldestAt: Date;
  /** Seconds since `oldestAt`. */
  oldestAgeSeconds: number;
  /**
   * The storage account holding the department (with data spread over several, docs/accounts.md).
   */
  account?: string;
}

/** The outbox backlog of one storage account (with data spread over several). */
export interface AccountBacklog {
  account: string;
  /** Departments of the account with pending rows (among those read). */
  departments: number;
  pending: number;
}

/** A poison queue's length. */
export interface PoisonQueueLength {
  /** The main queue (what replay takes). */
  queue: string;
  poisonQueue: string;
  approximateCount: number;
}

/** What {@link OperationsService.overview} returns. */
export interface OperationsOverview {
  generatedAt: Date;
  outbox: {
    /** Departments whose outbox was read: every department marked pending. */
    departmentsChecked: number;
    /**
     * Always false: every marked department is read (kept for the clients of the earlier view,
     * which read one page of the department list).
     */
    departmentsTruncated: boolean;
    pendingCap: number;
    /** Departments with pending rows, oldest row first. */
    departments: OutboxBacklog[];
    /** The backlog per storage account, when data is spread over several. */
    accounts?: AccountBacklog[];
  };
  poisonQueues: PoisonQueueLength[];
  timers: TimerRun[];
  logBacklog: {
    queue: string;
    approximateCount: number;
    /**
     * When the message at the head of the log batch queue was queued; `null` when none is visible.
     */
    oldestQueuedAt: Date | null;
    /**
     * The UTC hour of the earliest line in that message: the oldest hour known to wait for its
     * flush; `null` when none is visible or its batch is staged in a blob (not read here).
     */
    oldestHour: Date | null;
  };
  /**
   * Storage tries this instance saw answered `ServerBusy` since it started, per account and its
   * busiest partitions, queues and containers (src/storage/throttleCounts.ts); absent when not
   * counted. Apart from lost optimistic races: those are retried, these are storage's refusals.
   */
  throttling?: ThrottleSnapshot;
}

/** What the service reads. */
export interface OperationsDependencies {
  /** The `Employees` table (the pending-work markers in home, and outbox rows). */
  employees: TableAccess;
  queues: QueueSource;
  /** The app's queues (config `queues`): the only ones whose poison queues it reads or replays. */
  queueNames: { archive: string; indexUpdates: string; logBatches: string };
  timerRuns: TimerRunLog;
  clock?: Clock;
  /** With data spread over several accounts: their names, and which holds a department. */
  accounts?: { names: readonly string[]; of(department: string): Promise<string> };
  /** This instance's storage throttle counts (no storage read). */
  throttling?: () => ThrottleSnapshot;
}

/** The operations view and the poison queue tools of the admin routes. */
export class OperationsService {
  private readonly clock: Clock;

  constructor(private readonly deps: OperationsDependencies) {
    this.clock = deps.clock ?? systemClock;
  }

  /** The app's queues, each of which has a poison queue. */
  knownQueues(): string[] {
    const { archive, indexUpdates, logBatches } = this.deps.queueNames;
    return [archive, indexUpdates, logBatches];
  }

  /**
   * Reads the figures (bounded: see the module comment).
   *
   * @throws {DomainError} for storage faults left after the SDK's retries.
   */
  async overview(): Promise<OperationsOverview> {
    const [outbox, poisonQueues, timers, logBacklog] = await Promise.all([
      this.outbox(),
      Promise.all(
        this.knownQueues().map(async (queue) => {
          const poisonQueue = poisonQueueName(queue);
          return {
            queue,
            poisonQueue,
            approximateCount: await approximateLength(this.deps.queues.queue(poisonQueue)),
          };
        }),
      ),
      this.deps.timerRuns.list(),
      this.logBacklog(),
    ]);
    const throttling = this.deps.throttling?.();
    return {
      generatedAt: this.clock(),
      outbox,
      poisonQueues,
      timers,
      logBacklog,
      ...(throttling && { throttling }),
    };
  }

  /**
   * Peeks at up to `max` (≤ 32) messages of a known queue's poison queue.
   *
   * @throws {ValidationError} (`UnknownQueue`) for a queue the app does not use.
   * @throws {DomainError} for storage faults left after the SDK's retries.
   */
  async inspectPoison(queue: string, max: number): Promise<PoisonMessage[]> {
    return peekPoisonMessages(this.deps.queues, this.known(queue), max);
  }

  /**
   * Moves up to `max` (≤ {@link MAX_REPLAY}) messages of a known queue's poison queue back to it
   * (send, then delete: idempotent in effect, see poisonQueues.ts).
   *
   * @throws {ValidationError} (`UnknownQueue`) for a queue the app does not use.
   * @throws {DomainError} for storage faults left after the SDK's retries.
   */
  async replayPoison(queue: string, max: number): Promise<ReplayedMessage[]> {
    return replayPoisonMessages(this.deps.queues, this.known(queue), {
      max: Math.min(max, MAX_REPLAY),
    });
  }

  private known(queue: string): string {
    const known = this.knownQueues();
    if (!known.includes(queue)) {
      throw unknownQueue(queue, known);
    }
    return queue;
  }

  private async outbox(): Promise<OperationsOverview['outbox']> {
    // Once per process (a fresh account has no `Employees` table until the first write).
    await ensureTable(this.deps.employees);
    const { markers } = await readPendingWork(this.deps.employees);
    const departments = markers.map((marker) => marker.department);
    const now = this.clock().getTime();
    const backlogs = await mapBounded(departments, PARALLEL_READS, (department) =>
      this.departmentBacklog(department, now),
    );
    const pending = backlogs
      .filter((backlog): backlog is OutboxBacklog => backlog !== undefined)
      .sort((a, b) => a.oldestAt.getTime() - b.oldestAt.getTime());
    const accounts = this.deps.accounts;
    if (accounts) {
      for (const backlog of pending) backlog.account = await accounts.of(backlog.department);
    }
    return {
      departmentsChecked: departments.length,
      departmentsTruncated: false,
      pendingCap: OUTBOX_PENDING_CAP,
      departments: pending,
      ...(accounts && {
        accounts: accounts.names.map((account) => {
          const own = pending.filter((backlog) => backlog.account === account);
          return {
            account,
            departments: own.length,
            pending: own.reduce((n, backlog) => n + backlog.pending, 0),
          };
        }),
      }),
    };
  }

  private async departmentBacklog(
    department: string,
    now: number,
  ): Promise<OutboxBacklog | undefined> {
    const page = await readRangePage(
      this.deps.employees,
      'operations-outbox',
      { partitionKey: departmentPartitionKey(department), ...outboxRowKeyRange() },
      { pageSize: OUTBOX_PENDING_CAP, select: ['Timestamp'] },
    );
    let oldest = Number.POSITIVE_INFINITY;
    for (const row of page.entities) {
      const committed = row.timestamp === undefined ? NaN : Date.parse(row.timestamp);
      if (committed < oldest) oldest = committed;
    }
    if (page.entities.length === 0 || !Number.isFinite(oldest)) return undefined;
    return {
      department,
      pending: page.entities.length,
      pendingCapped: page.continuationToken !== null,
      oldestAt: new Date(oldest),
      oldestAgeSeconds: Math.max(0, Math.round((now - oldest) / 1000)),
    };
  }

  private async logBacklog(): Promise<OperationsOverview['logBacklog']> {
    const queue = this.deps.queueNames.logBatches;
    const client = this.deps.queues.queue(queue);
    const [approximateCount, head] = await Promise.all([
      approximateLength(client),
      unlessNotFound(() => client.peekMessages({ numberOfMessages: 1 })),
    ]);
    const first = head?.peekedMessageItems[0];
    let payload: unknown;
    try {
      payload = first ? decodeQueueMessage(first.messageText) : undefined;
    } catch {
      payload = undefined; // Not base64 JSON: the flusher poisons it; no hour to show.
    }
    return {
      queue,
      approximateCount,
      oldestQueuedAt: first?.insertedOn ?? null,
      oldestHour: (payload !== undefined && earliestLineHour(payload)) || null,
    };
  }
}
