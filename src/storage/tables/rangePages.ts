/**
 * Partition-scoped RowKey range queries, paged with opaque continuation tokens.
 *
 * Every query here is `PartitionKey eq <pk> and RowKey ge <from> and RowKey lt <to>`, built with
 * the `odata` template (values are quoted and escaped by the SDK, so no input can widen it).
 *
 * A token records the last RowKey returned and is bound to the query's scope (a hash of the
 * partition and bounds, see `encodeContinuationToken` in src/storage/keys/continuation.ts): the
 * next page asks for `RowKey gt <last>`. A token from another query, a tampered one, or one
 * pointing outside the range is refused with `InvalidContinuationToken` (400) before any storage
 * call.
 */
import { createHash } from 'node:crypto';
import { odata } from '@azure/data-tables';
import type { TableAccess } from './tableAccess';
import { withKeys, type StoredEntity, type StoredProperties } from './entities';
import { toDomainError } from '../storageFaults';
import { rowKeyRangeFilter } from './filters';
import { decodeContinuationToken, encodeContinuationToken } from '../keys/continuation';
import { foreignContinuationToken } from '../keys/keyErrors';

/** One partition's RowKeys in `[ge, lt)`. */
export interface KeyRange {
  partitionKey: string;
  ge: string;
  lt: string;
}

/** A page of stored entities and the token of the next page (`null` at the end). */
export interface EntityPage {
  entities: StoredEntity[];
  continuationToken: string | null;
}

/** Page of API items. */
export interface Page<T> {
  items: T[];
  continuationToken: string | null;
}

/** The scope a token of this query is bound to: the query kind plus a hash of its range. */
export function queryScope(kind: string, range: KeyRange): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([range.partitionKey, range.ge, range.lt]))
    .digest('base64url')
    .slice(0, 22);
  return `${kind}:${digest}`;
}

/**
 * The RowKey after which the next page starts, from a token of this query.
 *
 * @throws {ValidationError} `InvalidContinuationToken` for a malformed, foreign or out-of-range
 *   token.
 */
export function resumeAfter(kind: string, range: KeyRange, token: string): string {
  const position = decodeContinuationToken(queryScope(kind, range), token);
  const rowKey = position.nextRowKey;
  if (
    position.nextPartitionKey !== range.partitionKey ||
    rowKey === undefined ||
    rowKey < range.ge ||
    rowKey >= range.lt
  ) {
    throw foreignContinuationToken();
  }
  return rowKey;
}

/** A token that resumes this query after `lastRowKey`. */
export function tokenAfter(kind: string, range: KeyRange, lastRowKey: string): string {
  return encodeContinuationToken(queryScope(kind, range), {
    nextPartitionKey: range.partitionKey,
    nextRowKey: lastRowKey,
  });
}

function rangeFilter(range: KeyRange, after?: string): string {
  return after === undefined
    ? rowKeyRangeFilter(range.partitionKey, range)
    : odata`PartitionKey eq ${range.partitionKey} and RowKey gt ${after} and RowKey lt ${range.lt}`;
}

/**
 * Reads one page of a range query: at most `pageSize` entities (fewer when the service ends a
 * page early), with `select` as server-side projection.
 *
 * @param kind - names the query in its tokens (e.g. `employees-by-id`).
 * @throws {ValidationError} for an invalid continuation token.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function readRangePage(
  table: TableAccess,
  kind: string,
  range: KeyRange,
  options: { pageSize: number; continuationToken?: string; select?: string[] },
): Promise<EntityPage> {
  const after =
    options.continuationToken === undefined
      ? undefined
      : resumeAfter(kind, range, options.continuationToken);
  try {
    const pages = table
      .listEntities<StoredProperties>({
        queryOptions: {
          filter: rangeFilter(range, after),
          select: options.select && withKeys(options.select),
        },
      })
      .byPage({ maxPageSize: options.pageSize });
    // The service may end a page early, even empty, with a continuation; keep reading until it
    // returns something or says there is nothing more.
    for await (const page of pages) {
      if (page.length === 0 && page.continuationToken) continue;
      const entities = page as unknown as StoredEntity[];
      const last = entities[entities.length - 1];
      return {
        entities: [...entities],
        continuationToken:
          page.continuationToken && last ? tokenAfter(kind, range, last.rowKey) : null,
      };
    }
    return { entities: [], continuationToken: null };
  } catch (error) {
    throw toDomainError(error);
  }
}

/**
 * Every entity in a range, page by page (internal scans: reviews of one employee, index entities
 * an import touches).
 *
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function readWholeRange(
  table: TableAccess,
  range: KeyRange,
  select?: string[],
): Promise<StoredEntity[]> {
  const entities: StoredEntity[] = [];
  try {
    for await (const entity of table.listEntities<StoredProperties>({
      queryOptions: { filter: rangeFilter(range), select: select && withKeys(select) },
    })) {
      entities.push(entity as StoredEntity);
    }
  } catch (error) {
    throw toDomainError(error);
  }
  return entities;
}

/**
 * `[ge, lt)` of every key starting with `prefix`, bumping the last *code point* (a prefix ending
 * in an emoji must not produce a lone surrogate, which cannot be sent in a URL).
 */
export function codePointPrefixRange(prefix: string): { ge: string; lt: string } {
  const points = [...prefix];
  const next = points.pop()!.codePointAt(0)! + 1;
  if (next > 0x10ffff) return { ge: prefix, lt: prefix + '\uffff' };
  // U+D800-U+DFFF are surrogates, not characters: the next character after U+D7FF is U+E000.
  return {
    ge: prefix,
    lt: points.join('') + String.fromCodePoint(next === 0xd800 ? 0xe000 : next),
  };
}
