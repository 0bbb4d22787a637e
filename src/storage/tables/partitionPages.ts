/**
 * One page of one partition in RowKey order, resumed after the last RowKey a page returned: the
 * paging of the "log tail" lists (expenses, login attempts), whose RowKeys are inverted ticks, so
 * RowKey order is newest first.
 */
import { odata, type TableEntityResult } from '@azure/data-tables';
import type { TableAccess } from './tableAccess';
import { toDomainError } from '../storageFaults';

/** Service pages an empty answer may be followed through (it may end a page early, even empty). */
const MAX_EMPTY_PAGES = 4;

/**
 * Up to `pageSize` entities of `partitionKey` with a RowKey after `afterRowKey` (from the start
 * when `undefined`), in RowKey order; `more` when the service says more may follow.
 *
 * @throws {DomainError} for storage faults that outlast the SDK's retries (404 for a missing table
 *   among them, as `NotFoundError`).
 */
export async function readPartitionPage(
  table: TableAccess,
  partitionKey: string,
  afterRowKey: string | undefined,
  pageSize: number,
): Promise<{ entities: TableEntityResult<Record<string, unknown>>[]; more: boolean }> {
  const filter =
    afterRowKey === undefined
      ? odata`PartitionKey eq ${partitionKey}`
      : odata`PartitionKey eq ${partitionKey} and RowKey gt ${afterRowKey}`;
  try {
    const pages = table
      .listEntities<Record<string, unknown>>({ queryOptions: { filter } })
      .byPage({ maxPageSize: pageSize });
    for (let empty = 0; ; empty++) {
      const page = await pages.next();
      if (page.done) return { entities: [], more: false };
      const more = page.value.continuationToken !== undefined;
      if (page.value.length > 0 || !more || empty >= MAX_EMPTY_PAGES) {
        return { entities: [...page.value], more };
      }
    }
  } catch (error) {
    throw toDomainError(error);
  }
}
