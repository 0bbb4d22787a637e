/**
 * Login attempts, stored in one table per UTC day (see {@link LoginDayTables}). Inside a day table
 * the PartitionKey is the user id, so one user's attempts are one partition, and the RowKey is
 * inverted ticks, so they read newest first.
 *
 * Attempts are accepted only inside the window the tables keep: not older than the retention (a
 * table that old is about to be dropped) and not more than one day in the future (clock skew).
 */
import { odata, type TableClient } from '@azure/data-tables';
import { NotFoundError, wholeNumberOutOfRange } from '../domainErrors';
import { withStorageErrors } from '../storage/storageFaults';
import { decodeContinuationToken, encodeContinuationToken } from '../storage/keys/continuation';
import { foreignContinuationToken } from '../storage/keys/keyErrors';
import {
  invertedTicksRowKey,
  parseInvertedTicksRowKey,
  parseUtcDayStamp,
  utcDayStamp,
} from '../storage/keys/time';
import {
  loginAttemptPartitionKey,
  parseLoginAttemptPartitionKey,
} from '../storage/keys/tables/logins';
import { attemptBeforeRetention, attemptInFuture, invalidIp } from './loginErrors';
import { systemClock, type Clock } from '../time/clock';
import { addUtcDays, assertStorableInstant, MS_PER_DAY, startOfUtcDay } from '../time/instants';
import { insertTimeKeyed, keysOfType } from '../storage/tables/timeKeyedInsert';
import type { LoginDayTables } from './loginDayTables';
import { mapBounded } from '../storage/parallel';
import { readPartitionPage } from '../storage/tables/partitionPages';

const ENTITY_TYPE = 'LoginAttempt.v1';

/** Day tables read at the same time by {@link LoginAttempts.recent}. */
const LOGIN_READ_CONCURRENCY = 8;
/** Days read when the caller does not say. */
export const DEFAULT_LOGIN_DAYS = 7;
/** Most attempts one read returns. */
export const MAX_LOGIN_TOP = 1_000;
/** Attempts per page of {@link LoginAttempts.page} when no size is given. */
const DEFAULT_LOGIN_PAGE_SIZE = 100;
/** Longest accepted IP address text (IPv6 with zone is under this). */
const MAX_IP_LENGTH = 64;
/** How far in the future an attempt may be stamped (client clock skew). */
const MAX_FUTURE_SKEW_MS = MS_PER_DAY;

/** What a caller records. */
export interface LoginAttemptInput {
  userId: string;
  succeeded: boolean;
  ip?: string;
  /** Defaults to now. */
  at?: Date;
}

/** A stored attempt. */
export interface LoginAttempt {
  /** The RowKey inside its day table. */
  attemptId: string;
  userId: string;
  succeeded: boolean;
  ip?: string;
  at: Date;
}

type LoginAttemptEntity = {
  partitionKey: string;
  rowKey: string;
  EntityType: string;
  Succeeded: boolean;
  Ip?: string;
};

/** Records and reads login attempts across the day tables. */
export class LoginAttempts {
  private readonly spread: LoginTablesByUser;

  /**
   * @param tables - the day tables.
   * @param retentionDays - days of attempts kept (config `LOGIN_RETENTION_DAYS`).
   * @param clock - supplies "now".
   * @param spread - with several accounts: each account's day tables, and which account a user's
   *   new attempts go to (reads ask every account and merge; default: `tables` alone).
   */
  constructor(
    tables: LoginDayTables,
    readonly retentionDays: number,
    private readonly clock: Clock = systemClock,
    spread?: LoginTablesByUser,
  ) {
    this.spread = spread ?? { all: [tables], forUser: () => tables };
  }

  /**
   * Stores one attempt in the table of its UTC day, creating the table if needed.
   *
   * @throws {ValidationError} for an invalid user id or ip, or a time outside the kept window.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async record(
    input: LoginAttemptInput,
  ): Promise<{ attempt: LoginAttempt; etag: string; table: string }> {
    const now = this.clock();
    const at = input.at ?? now;
    assertStorableInstant(at, 'body.at');
    if (at.getTime() < now.getTime() - this.retentionDays * MS_PER_DAY) {
      throw attemptBeforeRetention(at, this.retentionDays);
    }
    if (at.getTime() > now.getTime() + MAX_FUTURE_SKEW_MS) {
      throw attemptInFuture(at);
    }
    if (input.ip !== undefined && (input.ip.length === 0 || input.ip.length > MAX_IP_LENGTH)) {
      throw invalidIp(MAX_IP_LENGTH);
    }
    const partitionKey = loginAttemptPartitionKey(input.userId);
    const tables = this.spread.forUser(input.userId);
    const table = tables.clientOf(at);
    const makeEntity = (suffix: string): LoginAttemptEntity => ({
      partitionKey,
      rowKey: invertedTicksRowKey(at, suffix),
      EntityType: ENTITY_TYPE,
      Succeeded: input.succeeded,
      ...(input.ip === undefined ? {} : { Ip: input.ip }),
    });

    await tables.ensure(at);
    let stored: { entity: LoginAttemptEntity; etag: string };
    try {
      stored = await insertTimeKeyed(table, makeEntity);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      // The table is gone (dropped by hand, or the process's cache is stale): create it, retry
      // once.
      tables.forget(table.tableName);
      await tables.ensure(at);
      stored = await insertTimeKeyed(table, makeEntity);
    }
    return { attempt: toAttempt(stored.entity)!, etag: stored.etag, table: table.tableName };
  }

  /**
   * The newest `top` attempts of one user in the last `days` UTC days (today included, plus
   * tomorrow's table, which holds attempts stamped slightly ahead), newest first. Day tables are
   * read in parallel, at most {@link LOGIN_READ_CONCURRENCY} at a time; a missing table is an
   * empty day.
   *
   * @throws {ValidationError} for an invalid user id, `days` outside 1–retention or `top` outside
   *   1–1000.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async recent(
    userId: string,
    days = DEFAULT_LOGIN_DAYS,
    top = MAX_LOGIN_TOP,
  ): Promise<LoginAttempt[]> {
    this.recentArguments(days, top, 'query.top');
    const partitionKey = loginAttemptPartitionKey(userId);
    const today = startOfUtcDay(this.clock());
    // Newest day first: the tables hold disjoint days, so concatenating keeps newest-first order.
    const daysToRead = Array.from({ length: days + 1 }, (_, i) => addUtcDays(today, 1 - i));
    const perDay = await mapBounded(daysToRead, LOGIN_READ_CONCURRENCY, async (day) =>
      newestFirst(
        await Promise.all(
          this.spread.all.map((tables) => readDay(tables.clientOf(day), partitionKey, top)),
        ),
        (attempt) => attempt.attemptId,
      ),
    );
    return perDay.flat().slice(0, top);
  }

  /**
   * One page of a user's attempts of the last `days` UTC days (and tomorrow's table), newest
   * first: day table by day table, newest day first, one partition query with `$top` each, at
   * most {@link MAX_DAY_READS_PER_PAGE} per page (a page may then be short, with a token). The
   * token names the day table and the last attempt returned, bound to the user and `days`.
   *
   * @throws {ValidationError} for an invalid user id, `days` outside 1–retention, a page size
   *   outside 1–1000 or a token of another query.
   * @throws {DomainError} for storage faults that outlast the SDK's retries.
   */
  async page(
    userId: string,
    days = DEFAULT_LOGIN_DAYS,
    options: { pageSize?: number; continuationToken?: string } = {},
  ): Promise<LoginAttemptPage> {
    const pageSize = options.pageSize ?? DEFAULT_LOGIN_PAGE_SIZE;
    this.recentArguments(days, pageSize, 'query.pageSize');
    const partitionKey = loginAttemptPartitionKey(userId);
    const scope = `logins|${partitionKey}|${days}`;
    const today = startOfUtcDay(this.clock());
    // Tomorrow (clock skew), today and the days before it: `days` days in all besides tomorrow.
    const oldest = addUtcDays(today, 1 - days);
    let day = addUtcDays(today, 1);
    let after: string | undefined;
    if (options.continuationToken !== undefined) {
      const position = decodeContinuationToken(scope, options.continuationToken);
      const resumeDay = parseUtcDayStamp(position.nextPartitionKey);
      if (!resumeDay || resumeDay.getTime() > day.getTime()) {
        throw foreignContinuationToken();
      }
      day = resumeDay;
      after = position.nextRowKey;
    }
    const items: LoginAttempt[] = [];
    for (let reads = 0; day.getTime() >= oldest.getTime(); reads++) {
      if (reads >= MAX_DAY_READS_PER_PAGE || items.length >= pageSize) {
        const position = { nextPartitionKey: utcDayStamp(day), nextRowKey: after };
        return { items, continuationToken: encodeContinuationToken(scope, position) };
      }
      const page = await this.readMerged(day, partitionKey, after, pageSize - items.length);
      for (const entity of page.entities) {
        const attempt = toAttempt(entity);
        if (attempt) items.push(attempt);
      }
      if (page.more) {
        after = page.entities.at(-1)?.rowKey ?? after ?? '';
        continue;
      }
      day = addUtcDays(day, -1);
      after = undefined;
    }
    return { items, continuationToken: null };
  }

  /**
   * One page of a user's attempts of one day, newest first, merged over every account's table of
   * that day: each account is read from the same position (RowKeys are unique across accounts, so
   * the position is an attempt's key, whichever account holds it).
   */
  private async readMerged(
    day: Date,
    partitionKey: string,
    after: string | undefined,
    pageSize: number,
  ): ReturnType<typeof readPartitionPage> {
    const pages = await Promise.all(
      this.spread.all.map(async (tables) => {
        try {
          return await readPartitionPage(tables.clientOf(day), partitionKey, after, pageSize);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          return { entities: [], more: false } as Awaited<ReturnType<typeof readPartitionPage>>;
        }
      }),
    );
    if (pages.length === 1) return pages[0]!;
    const merged = newestFirst(
      pages.map((page) => page.entities),
      (entity) => String(entity.rowKey),
    );
    // Past the page: another account may hold attempts between the last one kept and its own.
    return {
      entities: merged.slice(0, pageSize),
      more: merged.length > pageSize || pages.some((page) => page.more),
    };
  }

  private recentArguments(days: number, size: number, target: string): void {
    if (!Number.isInteger(days) || days < 1 || days > this.retentionDays) {
      throw wholeNumberOutOfRange('query.days', `the retention of ${this.retentionDays} days`);
    }
    if (!Number.isInteger(size) || size < 1 || size > MAX_LOGIN_TOP) {
      throw wholeNumberOutOfRange(target, MAX_LOGIN_TOP);
    }
  }
}

/** Which account's day tables a user's attempts go to, and every account's (readers merge them). */
export interface LoginTablesByUser {
  all: readonly LoginDayTables[];
  forUser(userId: string): LoginDayTables;
}

/** Lists of items that are each newest first (ascending RowKey), merged the same way. */
function newestFirst<T>(lists: readonly T[][], keyOf: (item: T) => string): T[] {
  if (lists.length === 1) return lists[0]!;
  return lists.flat().sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/** A page of attempts, newest first; `continuationToken` is `null` after the oldest. */
export interface LoginAttemptPage {
  items: LoginAttempt[];
  continuationToken: string | null;
}

/** Day tables one page reads at most (a user with no attempts on most days costs one each). */
const MAX_DAY_READS_PER_PAGE = 8;

/** The newest `top` attempts of one partition of one day table; none if the table is missing. */
async function readDay(
  table: TableClient,
  partitionKey: string,
  top: number,
): Promise<LoginAttempt[]> {
  const pages = table
    .listEntities<Record<string, unknown>>({
      queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` },
    })
    .byPage({ maxPageSize: top });
  const attempts: LoginAttempt[] = [];
  try {
    while (attempts.length < top) {
      const page = await withStorageErrors(() => pages.next());
      if (page.done) break;
      for (const entity of page.value) {
        const attempt = toAttempt(entity);
        if (attempt) attempts.push(attempt);
      }
      if (!page.value.continuationToken) break;
    }
  } catch (error) {
    if (error instanceof NotFoundError) return [];
    throw error;
  }
  return attempts;
}

function toAttempt(entity: Record<string, unknown>): LoginAttempt | undefined {
  const keys = keysOfType(entity, ENTITY_TYPE);
  if (!keys) return undefined;
  const { partitionKey, rowKey } = keys;
  const { Succeeded, Ip } = entity;
  const userId = parseLoginAttemptPartitionKey(partitionKey);
  const key = parseInvertedTicksRowKey(rowKey);
  if (userId === undefined || !key || typeof Succeeded !== 'boolean') return undefined;
  return {
    attemptId: rowKey,
    userId,
    succeeded: Succeeded,
    ...(typeof Ip === 'string' ? { ip: Ip } : {}),
    at: key.at,
  };
}
