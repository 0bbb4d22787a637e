import { MAX_TRANSACTION_OPERATIONS } from '../../storage/tables/entityGroupTransaction';
/**
 * How an import is cut into entity group transactions, and which of them may run at once (pure).
 *
 * Each employee costs two operations (employee + email copy); each distinct last name in a chunk
 * one more (its index entity), and every chunk one for its count shard. Rows are sorted by last
 * name. Chunks that share a name (one spans them) form a chain, run one after another (each
 * conditional on the index ETag the previous one returned); chains share no index entity and run
 * concurrently. A name is split to fill a chunk only while its chain is short enough
 * (`chainLength`): chains enough to run at once, and few half-empty chunks. A byte budget keeps a
 * chunk under the 4 MiB transaction limit.
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
 * their index entities and the count shard. A name's rows that do not fit in the current chunk
 * fill it and go on in the next (linking the two) while the chain is shorter than `chainLength`
 * (default 1); past it, a name whose rows fit in an empty chunk starts the next chunk, unlinked.
 * So `chainLength` trades full chunks (fewer transactions) for chains to run at once.
 *
 * @param indexBytes - estimated size of a name's index entity after the import.
 */
export function planChunks<R extends PlannableRow>(
  rows: readonly R[],
  indexBytes: (lastName: string) => number,
  limits: { maxOperations?: number; maxBytes?: number; chainLength?: number } = {},
): R[][] {
  const maxOperations = limits.maxOperations ?? MAX_TRANSACTION_OPERATIONS;
  const maxBytes = limits.maxBytes ?? MAX_CHUNK_BYTES;
  const chainLength = limits.chainLength ?? 1;
  const chunks: R[][] = [];
  let chunk: R[] = [];
  let operations = 1;
  let bytes = 0;
  // Chunks in the current chain: a name may link the next chunk to it while it is shorter.
  let linked = 1;
  const close = (): void => {
    if (chunk.length > 0) chunks.push(chunk);
    chunk = [];
    operations = 1;
    bytes = 0;
  };
  for (const group of groupsByName(rows)) {
    const name = group[0]!.lastName;
    const groupOperations = 1 + 2 * group.length;
    const groupBytes = indexBytes(name) + group.reduce((sum, row) => sum + row.bytes, 0);
    const fitsEmpty = 1 + groupOperations <= maxOperations && groupBytes <= maxBytes;
    const fitsHere =
      operations + groupOperations <= maxOperations && bytes + groupBytes <= maxBytes;
    if (fitsEmpty && (fitsHere || linked >= chainLength)) {
      if (!fitsHere) {
        close();
        linked = 1;
      }
      chunk.push(...group);
      operations += groupOperations;
      bytes += groupBytes;
      continue;
    }
    // More rows than a chunk holds, or a chain still short: row by row, filling chunks (the
    // chunks the name spans form a chain).
    let inChunk = false;
    for (const row of group) {
      const added = 2 + (inChunk ? 0 : 1);
      const addedBytes = row.bytes + (inChunk ? 0 : indexBytes(name));
      if (
        chunk.length > 0 &&
        (operations + added > maxOperations || bytes + addedBytes > maxBytes)
      ) {
        close();
        linked++;
        operations += 3;
        bytes += row.bytes + indexBytes(name);
      } else {
        operations += added;
        bytes += addedBytes;
      }
      chunk.push(row);
      inChunk = true;
    }
  }
  close();
  return chunks;
}

/** Consecutive rows of the same last name. */
function groupsByName<R extends PlannableRow>(rows: readonly R[]): R[][] {
  const groups: R[][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last[0]!.lastName === row.lastName) last.push(row);
    else groups.push([row]);
  }
  return groups;
}

/**
 * The chunks grouped into chains that must run one after another: consecutive chunks that share a
 * last name (the last row of one, the first of the next). Different chains share no index entity.
 * Longest chains first, so the longest sequential work starts at once.
 */
export function chainsOf<R extends PlannableRow>(chunks: readonly R[][]): R[][][] {
  const chains: R[][][] = [];
  for (const chunk of chunks) {
    const chain = chains.at(-1);
    const previous = chain?.at(-1);
    if (chain && previous && previous.at(-1)?.lastName === chunk[0]?.lastName) chain.push(chunk);
    else chains.push([chunk]);
  }
  return chains.sort((a, b) => b.length - a.length);
}
