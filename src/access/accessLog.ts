/**
 * Resource-access events, written so that inserts spread over many partitions (the prepend/append
 * anti-pattern avoided): the PartitionKey is department + employee id, not the date or hour. With
 * a time-based PartitionKey every event of the current hour would land in one partition — a hot
 * spot capped by Azure's ~2,000 entities/s per-partition target while the rest of the account
 * idles. The RowKey is ticks + a random suffix, so one employee's events read oldest first and a
 * time window is one partition range query.
 *
 * Events do not require the employee to exist in the directory (ids are format-checked only).
 */
import type { EmployeeCheck } from '../directory';
import type { TableAccess } from '../storage/tables/tableAccess';
import { wholeNumberOutOfRange } from '../domainErrors';
import { withStorageErrors } from '../storage/storageFaults';
import { emptyWindow, invalidAction, invalidResource, windowTooLong } from './accessErrors';
import { rowKeyRangeFilter } from '../storage/tables/filters';
import {
  decodeContinuationToken,
  encodeContinuationToken,
  fromSdkContinuationToken,
  toSdkContinuationToken,
} from '../storage/keys/continuation';
import {
  employeePartitionKey,
  parseEmployeePartitionKey,
} from '../storage/keys/tables/employeePartitions';
import { parseTicksRowKey, ticksRowKey, ticksRowKeyRange } from '../storage/keys/time';
import { systemClock, type Clock } from '../time/clock';
import { assertStorableInstant, MS_PER_DAY } from '../time/instants';
import { ensureTable } from '../storage/createOnce';
import { insertTimeKeyed, keysOfType } from '../storage/tables/timeKeyedInsert';

/** Widest window one query may ask for. */
const MAX_ACCESS_WINDOW_DAYS = 31;
/** Longest resource text. */
export const MAX_RESOURCE_LENGTH = 1_024;
/** Longest action text. */
export const MAX_ACTION_LENGTH = 64;
/** Page size when the caller does not say. */
const DEFAULT_ACCESS_PAGE_SIZE = 100;
/** Largest page (the service's own page limit). */
export const MAX_ACCESS_PAGE_SIZE = 1_000;

const ENTITY_TYPE = 'AccessEvent.v1';

/** What a caller records. */
export interface AccessEventInput {
  department: string;
  employeeId: string;
  resource: string;
  action: string;
  /** Defaults to now. */
  at?: Date;
}

/** A stored event. */
export interface AccessEvent {
  /** The RowKey: unique within the employee's events, oldest sorting first. */
  eventId: string;
  department: string;
  employeeId: string;
  resource: string;
  action: string;
  at: Date;
}

/** One page of a window query. */
export interface AccessEventPage {
  items: AccessEvent[];
  /** Pass back to get the next page; `null` on the last page. */
  continuationToken: string | null;
}

type AccessEventEntity = {
  partitionKey: string;
  rowKey: string;
  EntityType: string;
  Resource: string;
  Action: string;
};

/** The `AccessLog` table. */
export class AccessLog {
  /**
   * @param table - the `AccessLog` table (created on first use).
   * @param clock - supplies "now" for events without a time.
   * @param requireEmployee - asked only when a window's first page finds no event: it throws
   *   `EmployeeNotFound` for an unknown employee (404). Without it such a page is just empty.
   */
  constructor(
    private readonly table: TableAccess,
    private readonly clock: Clock = systemClock,
    private readonly requireEmployee: EmployeeCheck | undefined = undefined,
  ) {}

  /**
   * Stores one event in its employee's partition.
   *
   * @throws {ValidationError} for an invalid department, employee id, resource, action or time.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async record(input: AccessEventInput): Promise<{ event: AccessEvent; etag: string }> {
    const partitionKey = employeePartitionKey(input.department, input.employeeId);
    if (input.resource.length === 0 || input.resource.length > MAX_RESOURCE_LENGTH) {
      throw invalidResource(MAX_RESOURCE_LENGTH);
    }
    if (
      !/^[A-Za-z][A-Za-z0-9._-]*$/.test(input.action) ||
      input.action.length > MAX_ACTION_LENGTH
    ) {
      throw invalidAction(MAX_ACTION_LENGTH);
    }
    const at = input.at ?? this.clock();
    assertStorableInstant(at, 'body.at');
    await ensureTable(this.table);
    const { entity, etag } = await insertTimeKeyed<AccessEventEntity>(this.table, (suffix) => ({
      partitionKey,
      rowKey: ticksRowKey(at, suffix),
      EntityType: ENTITY_TYPE,
      Resource: input.resource,
      Action: input.action,
    }));
    return { event: toEvent(entity)!, etag };
  }

  /**
   * One page of an employee's events with `from <= at < to`, oldest first: one partition range
   * query (`PartitionKey eq … and RowKey ge … and RowKey lt …`) per page.
   *
   * @throws {ValidationError} for invalid ids, a window that is empty, reversed or wider than
   *   {@link MAX_ACCESS_WINDOW_DAYS} days, a bad page size, or a continuation token from another
   *   query.
   * @throws {NotFoundError} `EmployeeNotFound` when a first page is empty and there is no such
   *   employee.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async window(
    department: string,
    employeeId: string,
    from: Date,
    to: Date,
    options: { pageSize?: number; continuationToken?: string } = {},
  ): Promise<AccessEventPage> {
    const partitionKey = employeePartitionKey(department, employeeId);
    assertStorableInstant(from, 'query.from');
    assertStorableInstant(to, 'query.to');
    if (to.getTime() <= from.getTime()) {
      throw emptyWindow();
    }
    if (to.getTime() - from.getTime() > MAX_ACCESS_WINDOW_DAYS * MS_PER_DAY) {
      throw windowTooLong(MAX_ACCESS_WINDOW_DAYS);
    }
    const pageSize = options.pageSize ?? DEFAULT_ACCESS_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_ACCESS_PAGE_SIZE) {
      throw wholeNumberOutOfRange('query.pageSize', MAX_ACCESS_PAGE_SIZE);
    }
    const scope = `access|${partitionKey}|${from.toISOString()}|${to.toISOString()}`;
    const position =
      options.continuationToken === undefined
        ? undefined
        : decodeContinuationToken(scope, options.continuationToken);
    const range = ticksRowKeyRange(from, to);

    await ensureTable(this.table);
    const page = await withStorageErrors(async () => {
      const result = await this.table
        .listEntities<Record<string, unknown>>({
          queryOptions: { filter: rowKeyRangeFilter(partitionKey, range) },
        })
        .byPage({
          maxPageSize: pageSize,
          ...(position ? { continuationToken: toSdkContinuationToken(position) } : {}),
        })
        .next();
      return result.done ? undefined : result.value;
    });
    const items = (page ?? [])
      .map(toEvent)
      .filter((event): event is AccessEvent => event !== undefined);
    const next = page?.continuationToken;
    // Nothing to show: one point read tells an unknown employee (a former one's events stay
    // readable).
    if (items.length === 0 && position === undefined) {
      await this.requireEmployee?.(department, employeeId);
    }
    return {
      items,
      continuationToken: next
        ? encodeContinuationToken(scope, fromSdkContinuationToken(next))
        : null,
    };
  }
}

function toEvent(entity: Record<string, unknown>): AccessEvent | undefined {
  const keys = keysOfType(entity, ENTITY_TYPE);
  if (!keys) return undefined;
  const { partitionKey, rowKey } = keys;
  const { Resource, Action } = entity;
  const owner = parseEmployeePartitionKey(partitionKey);
  const key = parseTicksRowKey(rowKey);
  if (!owner || !key || typeof Resource !== 'string' || typeof Action !== 'string')
    return undefined;
  return { eventId: rowKey, ...owner, resource: Resource, action: Action, at: key.at };
}
