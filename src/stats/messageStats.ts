/**
 * Message counts per employee, in two shapes read by different charts: a data series (one entity
 * per employee per UTC day, `day_YYYYMMDD`, 24 hourly counters `H00`..`H23`: a 24-hour chart is
 * one point read) and a wide entity (one logical entity per employee per year, 366 daily counters
 * over two physical entities, since an entity holds at most 252 custom properties).
 *
 * Both live in the employee's partition: one increment is ONE entity group transaction, each
 * operation conditional on the ETag just read, retried whole on a lost race (412, 409, 404) by
 * the one retry routine. Counted once: the increment's id is recorded in the day entity by the
 * same Merge (incrementMarkers.ts), and a later round that finds it there stops.
 *
 * Counts do not require the employee to exist in the directory (ids are format-checked only).
 * Why: docs/time-and-volume.md "Data series and wide entities: message statistics".
 */
import type { EmployeeCheck } from '../directory';
import type { TableAccess } from '../storage/tables/tableAccess';
import { randomBytes } from 'node:crypto';
import { NotFoundError, UnavailableError } from '../domainErrors';
import { countersContended, invalidMessageCount, tooManyIncrements } from './statsErrors';
import {
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../storage/tables/entityGroupTransaction';
import { storageStatus, toDomainError } from '../storage/storageFaults';
import { retryOptimistically, RETRY } from '../storage/optimisticRetry';
import { employeePartitionKey } from '../storage/keys/tables/employeePartitions';
import { hourlyStatsRowKey, yearlyStatsRowKeys } from '../storage/keys/tables/messageStats';
import { systemClock, type Clock } from '../time/clock';
import { assertStorableInstant, daysInYear, utcDayOfYear } from '../time/instants';
import { ensureTable } from '../storage/createOnce';
import {
  liveIncrements,
  MAX_REMEMBERED_INCREMENTS,
  INCREMENT_MEMORY_MS,
  INCREMENT_RETRY_WINDOW_MS,
  rememberIncrement,
  remembersIncrement,
} from './incrementMarkers';
import {
  counterValue,
  dayProperty,
  daysOfPart,
  hourProperty,
  yearPartOf,
} from './counterProperties';

/** Largest count one call may add. */
export const MAX_MESSAGE_COUNT = 1_000_000;
/** Read-modify-write rounds before an increment gives up under extreme contention. */
export const DEFAULT_MAX_INCREMENT_ATTEMPTS = 200;

/** Rounds whose outcome a lost connection hid, before the failure is reported. */
const MAX_UNKNOWN_OUTCOMES = 3;

const DAY_ENTITY_TYPE = 'MessageStatsDay.v1';
const YEAR_ENTITY_TYPE = 'MessageStatsYear.v1';
const HOUR_PROPERTIES = Array.from({ length: 24 }, (_, hour) => hourProperty(hour));
/** Property of the day entity holding the ids of its recent increments. */
const RECENT_OPERATIONS = 'RecentOperations';

type StoredEntity = Record<string, unknown> & { etag: string };

/** What one increment adds. */
export interface MessageCountInput {
  /** When the messages were sent; defaults to now. */
  at?: Date;
  /** Messages to add, 1–{@link MAX_MESSAGE_COUNT}; defaults to 1. */
  count?: number;
}

/** Hourly and daily message counters of every employee. */
export class MessageStats {
  /**
   * @param table - the `MessageStats` table (created on first use).
   * @param clock - supplies "now" for increments without a time, and the time by which operation
   * markers age and an increment's retries are bounded.
   * @param maxAttempts - read-modify-write rounds before giving up.
   * @param requireEmployee - tells an unknown employee (404) when a read finds no counters;
   *   without it there are zeros.
   */
  constructor(
    private readonly table: TableAccess,
    private readonly clock: Clock = systemClock,
    private readonly maxAttempts = DEFAULT_MAX_INCREMENT_ATTEMPTS,
    private readonly requireEmployee?: EmployeeCheck,
  ) {}

  /**
   * Adds `count` to the hour's counter of the day entity and to the day's counter of the year
   * entity, in one entity group transaction.
   *
   * @returns how many read-modify-write rounds it took (1 without contention).
   * @throws {ValidationError} for an invalid department, employee id, count or time.
   * @throws {ThrottledError} when other writers won every round for
   *   {@link DEFAULT_MAX_INCREMENT_ATTEMPTS} rounds, or for longer than
   *   {@link INCREMENT_RETRY_WINDOW_MS} (beyond it the operation marker could be forgotten, so a
   *   further round might count twice).
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async record(
    department: string,
    employeeId: string,
    input: MessageCountInput = {},
  ): Promise<{ rounds: number }> {
    const partitionKey = employeePartitionKey(department, employeeId);
    const count = input.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > MAX_MESSAGE_COUNT) {
      throw invalidMessageCount(MAX_MESSAGE_COUNT);
    }
    const at = input.at ?? this.clock();
    assertStorableInstant(at, 'body.at');

    const dayOfYear = utcDayOfYear(at);
    const part = yearPartOf(dayOfYear);
    const day = {
      rowKey: hourlyStatsRowKey(at),
      property: hourProperty(at.getUTCHours()),
      all: HOUR_PROPERTIES,
      entityType: DAY_ENTITY_TYPE,
    };
    const year = {
      rowKey: yearlyStatsRowKeys(at.getUTCFullYear())[part - 1]!,
      property: dayProperty(dayOfYear),
      all: daysOfPart(part).map(dayProperty),
      entityType: YEAR_ENTITY_TYPE,
    };
    // The operation marker: one id per call, reused by every round (see incrementMarkers.ts).
    const operationId = randomBytes(8).toString('hex');

    await ensureTable(this.table);
    let unknownOutcomes = 0;
    let firstSent: number | undefined;
    const giveUp = (attempts: number) => countersContended(`${department}/${employeeId}`, attempts);
    const options = { maxAttempts: this.maxAttempts, capMs: 1_000, giveUp };
    return retryOptimistically(options, async (round) => {
      // Only the counter to change and the markers are needed, not all 24 or 183 counters.
      const [dayEntity, yearEntity] = await Promise.all([
        this.read(partitionKey, day.rowKey, [day.property, RECENT_OPERATIONS]),
        this.read(partitionKey, year.rowKey, [year.property]),
      ]);
      // Any earlier round may have been applied: a lost answer, or an SDK retry answered 412.
      if (round > 1 && remembersIncrement(dayEntity?.[RECENT_OPERATIONS], operationId)) {
        return { rounds: round - 1 };
      }
      const now = this.clock();
      firstSent ??= now.getTime();
      if (now.getTime() - firstSent > INCREMENT_RETRY_WINDOW_MS) throw giveUp(this.maxAttempts);
      const marker = rememberIncrement(dayEntity?.[RECENT_OPERATIONS], operationId, now);
      if (marker === undefined)
        throw tooManyIncrements(
          department,
          employeeId,
          MAX_REMEMBERED_INCREMENTS,
          INCREMENT_MEMORY_MS / 60_000,
        );
      const actions = [
        incrementAction(partitionKey, day, dayEntity, count, { [RECENT_OPERATIONS]: marker }),
        incrementAction(partitionKey, year, yearEntity, count, {}),
      ];
      // The day's first increment prunes the day before's markers, which no write of theirs would
      // ever prune again (conditional: a late increment of that day meanwhile sends a new round).
      if (dayEntity === undefined) {
        const prune = await this.pruneAction(partitionKey, previousDayRowKey(at), now);
        if (prune) actions.push(prune);
      }
      try {
        await submitEntityGroupTransaction(this.table, actions);
        return { rounds: round };
      } catch (error) {
        const status = storageStatus(error);
        // 412: an ETag moved; 409: another writer created the entity first; 404: it was deleted.
        if (status === 412 || status === 409 || status === 404) return RETRY;
        // A connection lost mid-answer leaves the outcome unknown: the next round's read tells
        // (RecentOperations), so only a few such rounds are allowed before giving up.
        const failure = toDomainError(error);
        if (!(failure instanceof UnavailableError) || ++unknownOutcomes > MAX_UNKNOWN_OUTCOMES)
          throw failure;
        return RETRY;
      }
    });
  }

  /**
   * The 24 hourly counts of one UTC day: one point read; a day without messages is 24 zeros.
   *
   * @throws {ValidationError} for an invalid department, employee id or day.
   * @throws {NotFoundError} `EmployeeNotFound` when there are no counters and no such employee.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async hourly(department: string, employeeId: string, day: Date): Promise<number[]> {
    const partitionKey = employeePartitionKey(department, employeeId);
    assertStorableInstant(day, 'query.day');
    await ensureTable(this.table);
    const entity = await this.read(partitionKey, hourlyStatsRowKey(day));
    // No counters that day: one point read tells an unknown employee from a quiet day.
    if (!entity) await this.requireEmployee?.(department, employeeId);
    return HOUR_PROPERTIES.map((name) => counterValue(entity?.[name]));
  }

  /**
   * The daily counts of one year, 365 or 366 numbers: two point reads (one per physical part).
   *
   * @throws {ValidationError} for an invalid department, employee id or year (1601–9999).
   * @throws {NotFoundError} `EmployeeNotFound` when there are no counters and no such employee.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async daily(department: string, employeeId: string, year: number): Promise<number[]> {
    const partitionKey = employeePartitionKey(department, employeeId);
    const [part1Key, part2Key] = yearlyStatsRowKeys(year);
    await ensureTable(this.table);
    const [part1, part2] = await Promise.all([
      this.read(partitionKey, part1Key),
      this.read(partitionKey, part2Key),
    ]);
    if (!part1 && !part2) await this.requireEmployee?.(department, employeeId);
    return Array.from({ length: daysInYear(year) }, (_, i) => {
      const dayOfYear = i + 1;
      return counterValue((yearPartOf(dayOfYear) === 1 ? part1 : part2)?.[dayProperty(dayOfYear)]);
    });
  }

  /** The Merge that drops aged-out markers from a day entity, if it has any. */
  private async pruneAction(
    partitionKey: string,
    rowKey: string,
    now: Date,
  ): Promise<EntityGroupAction | undefined> {
    const entity = await this.read(partitionKey, rowKey, [RECENT_OPERATIONS]);
    const kept = entity && liveIncrements(entity[RECENT_OPERATIONS], now);
    if (!entity || kept === undefined) return undefined;
    return [
      'update',
      { partitionKey, rowKey, [RECENT_OPERATIONS]: kept },
      'Merge',
      { etag: entity.etag },
    ];
  }

  /** Point read; `select` limits the properties returned (the ETag always comes back). */
  private async read(
    partitionKey: string,
    rowKey: string,
    select?: string[],
  ): Promise<StoredEntity | undefined> {
    try {
      return await this.table.getEntity<Record<string, unknown>>(
        partitionKey,
        rowKey,
        select ? { queryOptions: { select } } : {},
      );
    } catch (error) {
      const failure = toDomainError(error);
      if (failure instanceof NotFoundError) return undefined;
      throw failure;
    }
  }
}

interface CounterTarget {
  rowKey: string;
  /** The counter this increment changes. */
  property: string;
  /** Every counter of the entity, written as zeros when it is created. */
  all: string[];
  entityType: string;
}

/**
 * Create the entity with the counter set, or merge the new counter value if the ETag still matches;
 * `extra` (the operation marker) is written with it.
 */
function incrementAction(
  partitionKey: string,
  target: CounterTarget,
  existing: StoredEntity | undefined,
  count: number,
  extra: Record<string, string>,
): EntityGroupAction {
  if (existing === undefined) {
    const counters = Object.fromEntries(target.all.map((name) => [name, 0n]));
    return [
      'create',
      {
        partitionKey,
        rowKey: target.rowKey,
        EntityType: target.entityType,
        ...counters,
        [target.property]: BigInt(count),
        ...extra,
      },
    ];
  }
  return [
    'update',
    {
      partitionKey,
      rowKey: target.rowKey,
      [target.property]: BigInt(counterValue(existing[target.property]) + count),
      ...extra,
    },
    'Merge',
    { etag: existing.etag },
  ];
}

/** The day entity of the UTC day before `at`'s. */
function previousDayRowKey(at: Date): string {
  return hourlyStatsRowKey(new Date(at.getTime() - 24 * 3_600_000));
}
