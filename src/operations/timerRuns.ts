/**
 * Each timer function's last run, one small entity per timer in the operations status table
 * (PK `timer`, RK the function's name): written once per run, after it ends, with an upsert, so
 * it costs one storage request per run and never grows. Reading them all is one partition query.
 */
import { odata } from '@azure/data-tables';
import type { TableAccess } from '../storage/tables/tableAccess';
import { ensureTable } from '../storage/createOnce';
import { withStorageErrors } from '../storage/storageFaults';
import {
  TIMER_RUN_PARTITION_KEY,
  parseTimerRunRowKey,
  timerRunRowKey,
} from '../storage/keys/tables/timerRuns';

/**
 * How a timer run ended: `deferred` when busy storage (Azure's targets, past the retries) left
 * work undone and nothing else failed — the next scheduled run picks it up (docs/targets.md).
 */
export type TimerOutcome = 'succeeded' | 'failed' | 'deferred';

/** One timer's last run. */
export interface TimerRun {
  timer: string;
  startedAt: Date;
  finishedAt: Date;
  outcome: TimerOutcome;
  /** The failure's message (first 1,000 characters), for a failed or deferred run. */
  error?: string;
}

/**
 * Characters of a failure message kept: enough to say what broke, far below a property's 64 KiB.
 */
const MAX_ERROR_CHARS = 1_000;
/** Timers a process registers are a handful; a page of this many holds them all. */
const MAX_TIMERS = 100;

interface StoredTimerRun {
  EntityType: string;
  StartedAt: Date;
  FinishedAt: Date;
  Outcome: string;
  Error?: string;
}

const ENTITY_TYPE = 'TimerRun.v1';
const OUTCOMES: readonly TimerOutcome[] = ['succeeded', 'failed', 'deferred'];

/** The last-run entities of the timers, in the operations status table. */
export class TimerRunLog {
  constructor(private readonly table: TableAccess) {}

  /**
   * Records a run (replaces the timer's previous one).
   *
   * @throws {ValidationError} for a timer name that is not a Functions name.
   * @throws {DomainError} for storage faults left after the SDK's retries.
   */
  async record(run: TimerRun): Promise<void> {
    const rowKey = timerRunRowKey(run.timer);
    await ensureTable(this.table);
    const entity: StoredTimerRun = {
      EntityType: ENTITY_TYPE,
      StartedAt: run.startedAt,
      FinishedAt: run.finishedAt,
      Outcome: run.outcome,
      ...(run.error !== undefined ? { Error: run.error.slice(0, MAX_ERROR_CHARS) } : {}),
    };
    await withStorageErrors(() =>
      this.table.upsertEntity(
        { partitionKey: TIMER_RUN_PARTITION_KEY, rowKey, ...entity },
        'Replace',
      ),
    );
  }

  /**
   * Every timer's last run, by name (one partition query, one page).
   *
   * @throws {DomainError} for storage faults left after the SDK's retries.
   */
  async list(): Promise<TimerRun[]> {
    await ensureTable(this.table);
    return withStorageErrors(async () => {
      const pages = this.table
        .listEntities<StoredTimerRun>({
          queryOptions: { filter: odata`PartitionKey eq ${TIMER_RUN_PARTITION_KEY}` },
        })
        .byPage({ maxPageSize: MAX_TIMERS });
      const runs: TimerRun[] = [];
      for await (const page of pages) {
        for (const entity of page) {
          const timer = parseTimerRunRowKey(entity.rowKey ?? '');
          if (timer === undefined || entity.EntityType !== ENTITY_TYPE) continue;
          runs.push({
            timer,
            startedAt: new Date(entity.StartedAt),
            finishedAt: new Date(entity.FinishedAt),
            outcome: OUTCOMES.find((o) => o === entity.Outcome) ?? 'succeeded',
            ...(entity.Error !== undefined ? { error: entity.Error } : {}),
          });
        }
        break; // One page: the bound the operations view promises.
      }
      return runs.sort((a, b) => (a.timer < b.timer ? -1 : 1));
    });
  }
}
