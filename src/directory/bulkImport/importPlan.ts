import { MAX_TRANSACTION_OPERATIONS } from '../../storage/tables/entityGroupTransaction';
/**
 * How an import is cut into entity group transactions (pure).
 *
 * Each employee costs two operations (employee + email copy); each distinct last name in a chunk
 * one more (its index entity), and every chunk one for the department entity (the count). Rows
 * are sorted by last name first, so employees sharing a name share a chunk and its index
 * operation: with realistic names a chunk holds about 48 employees in 100 operations, close to the
 * 50 of a raw upsert batch. A byte budget keeps a chunk under the 4 MiB transaction limit even when
 * its index entities are large.
 */

/** Payload budget of one chunk: under the 4 MiB transaction limit, with room for the framing. */
export const MAX_CHUNK_BYTES = 3.5 * 1024 * 1024;

/** One row to place: its index name and its size. */
export interface PlannableRow {
  /** Normalised last name. */
  lastName: string;
  /** Estimated bytes of the row's two entities. */
  bytes: number;
}

/**
 * Cuts rows (already sorted by last name) into chunks that each fit one transaction together with
 * their index entities and the department entity.
 *
 * @param indexBytes - estimated size of a name's index entity after the import.
 */
export function planChunks<R extends PlannableRow>(
  rows: readonly R[],
  indexBytes: (lastName: string) => number,
  limits: { maxOperations?: number; maxBytes?: number } = {},
): R[][] {
  const maxOperations = limits.maxOperations ?? MAX_TRANSACTION_OPERATIONS;
  const maxBytes = limits.maxBytes ?? MAX_CHUNK_BYTES;
  const chunks: R[][] = [];
  let chunk: R[] = [];
  let names = new Set<string>();
  let operations = 1;
  let bytes = 0;
  for (const row of rows) {
    const newName = !names.has(row.lastName);
    const addedOperations = 2 + (newName ? 1 : 0);
    const addedBytes = row.bytes + (newName ? indexBytes(row.lastName) : 0);
    if (
      chunk.length > 0 &&
      (operations + addedOperations > maxOperations || bytes + addedBytes > maxBytes)
    ) {
      chunks.push(chunk);
      chunk = [];
      names = new Set();
      operations = 1;
      bytes = 0;
    }
    const firstOfName = !names.has(row.lastName);
    chunk.push(row);
    names.add(row.lastName);
    operations += 2 + (firstOfName ? 1 : 0);
    bytes += row.bytes + (firstOfName ? indexBytes(row.lastName) : 0);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
