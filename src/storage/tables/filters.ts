/**
 * OData filters the app builds more than once, each through the `odata` tagged template so every
 * value is quoted and escaped.
 */
import { odata } from '@azure/data-tables';

/**
 * The entities of one partition whose RowKey lies in `[range.ge, range.lt)`: one range query,
 * no scan beyond the range.
 */
export function rowKeyRangeFilter(
  partitionKey: string,
  range: { readonly ge: string; readonly lt: string },
): string {
  return odata`PartitionKey eq ${partitionKey} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`;
}
