/**
 * Entities as the Tables SDK reads them, and the one point read every feature uses: generic
 * helpers of the table layer (no entity type of the domain lives here).
 */
import type { TableEntityResult } from '@azure/data-tables';
import type { TableAccess } from './tableAccess';
import { isNotFound, toDomainError } from '../storageFaults';

/** Properties of a stored entity, as the SDK reads them. */
export type StoredProperties = Record<string, unknown>;
/** A stored entity with keys, ETag and timestamp (readers always ask for the keys). */
export type StoredEntity = TableEntityResult<StoredProperties> & {
  partitionKey: string;
  rowKey: string;
};

/**
 * Properties the SDK adds to a read entity that are not data (keys, ETag, timestamp, OData
 * annotations): what a copy of an entity's data leaves out.
 */
export const SYSTEM_PROPERTIES: ReadonlySet<string> = new Set([
  'partitionKey',
  'rowKey',
  'etag',
  'timestamp',
  'odata.etag',
  'odata.metadata',
]);

/** `select` plus the keys, which every reader needs. */
export function withKeys(select: readonly string[]): string[] {
  return [...new Set(['PartitionKey', 'RowKey', ...select])];
}

/**
 * One entity by its keys, or `undefined` when it does not exist.
 *
 * @param select - server-side projection (the keys are always read).
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function readEntity(
  table: TableAccess,
  partitionKey: string,
  rowKey: string,
  select?: string[],
): Promise<StoredEntity | undefined> {
  try {
    const entity = await table.getEntity<StoredProperties>(
      partitionKey,
      rowKey,
      select ? { queryOptions: { select: withKeys(select) } } : {},
    );
    return { ...entity, partitionKey, rowKey };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw toDomainError(error);
  }
}
