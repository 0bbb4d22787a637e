/**
 * Writing one import chunk (importEmployees.ts): ONE entity group transaction holding the chunk's
 * employees, their email copies, their last-name index entities, one count shard and the index
 * outbox row, conditional on the versions known of the shard and the index entities. A row already
 * in the department is dropped from the chunk, which is sent again; a conflict on the shard or an
 * index entity reads them again and resends. Why: docs/directory.md "Import".
 */
import { randomUUID } from 'node:crypto';
import type { TableAccess } from '../../storage/tables/tableAccess';
import { DomainError, type ContentionError } from '../../domainErrors';
import { RETRY, retryOptimistically, type Retry } from '../../storage/optimisticRetry';
import type { DirectoryContext } from '../context';
import { contendedError, departmentNotFound, emailTaken, employeeExists } from '../directoryErrors';
import type { TransactionFailure } from '../directoryErrors';
import { readEmployeeState } from '../entities/employeeState';
import type { LastNameIndex } from '../entities/partitionLastNameIndex';
import {
  forgetVersions,
  loadCountShard,
  rememberCountShard,
  type ChosenShard,
} from '../writes/departmentVersions';
import { rememberLastNameIndex } from '../writes/lastNameVersions';
import { submitPlan, type PlannedTransaction } from '../writes/plannedTransaction';
import {
  chunkTransaction,
  idsByNameOf,
  withoutOverfullNames,
  type PlannedChunk,
  type Role,
} from './chunkTransaction';
import { readIndexVersions } from './indexVersions';
import { failure, type PlacedFailure, type Row } from './importRows';
import type { Versioned } from '../entities/versionCache';

/** Test hooks of an import (a pause point between a chunk's plan and its transaction). */
export interface ImportHooks {
  /** Awaited before each attempt of a chunk's transaction is sent, with the chunk's rows. */
  beforeChunkWrite?: (rows: readonly Row[]) => Promise<void> | void;
}

/** What one chunk's write did: the rows created, or the error that stopped it. */
export type ChunkOutcome = { created: Row[]; count: ChosenShard } | { error: DomainError };

/**
 * One chunk's write: what it was given, and what its attempts learnt so far (`rows` lose the
 * rows refused, `count` is read again after a conflict).
 */
interface ChunkWrite extends PlannedChunk {
  context: DirectoryContext;
  table: TableAccess;
  department: string;
  /** Shared by the import's chunks; updated with the versions written or read again. */
  indexes: Map<string, Versioned<LastNameIndex>>;
  failed: PlacedFailure[];
}

/**
 * Writes one chunk, dropping rows that collide with stored employees; bounded retries. `indexes`
 * (shared by the import's chunks, which touch different names unless chained) is updated with
 * the versions written or read again.
 *
 * @returns the rows created and the count shard's new version, or the error that stopped it.
 * @throws {NotFoundError} `DepartmentNotFound` when the department vanished meanwhile.
 */
export async function writeChunk(
  context: DirectoryContext,
  table: TableAccess,
  department: string,
  partitionKey: string,
  chunkRows: Row[],
  startCount: ChosenShard,
  indexes: Map<string, Versioned<LastNameIndex>>,
  failed: PlacedFailure[],
  hooks: ImportHooks = {},
): Promise<ChunkOutcome> {
  const write: ChunkWrite = {
    context,
    table,
    department,
    partitionKey,
    indexes,
    failed,
    rows: [...chunkRows],
    count: startCount,
    writeId: randomUUID(),
  };
  // Every row dropped costs an attempt, so the bound grows with the chunk.
  let gaveUp: ContentionError | undefined;
  const retry = {
    maxAttempts: chunkRows.length + context.maxConflictAttempts,
    giveUp: (attempts: number) => (gaveUp = contendedError(`Department "${department}"`, attempts)),
  };
  try {
    return await retryOptimistically<ChunkOutcome>(retry, () => chunkAttempt(write, hooks));
  } catch (error) {
    if (error !== undefined && error === gaveUp) return { error: gaveUp };
    throw error;
  }
}

/**
 * One attempt: the chunk's transaction from the versions known now, sent once; a storage fault
 * (after the SDK's retries) or a department gone once written stops the chunk with its error.
 */
async function chunkAttempt(write: ChunkWrite, hooks: ImportHooks): Promise<ChunkOutcome | Retry> {
  const idsByName = idsByNameOf(write.rows);
  // Names whose index would overflow: their rows fail, the others go ahead.
  write.rows = withoutOverfullNames(write.rows, idsByName, write.indexes, write.failed);
  if (write.rows.length === 0) return { created: [], count: write.count };
  const { plan, nextIndexes } = chunkTransaction(write, idsByName, write.context.outbox);
  let refused: TransactionFailure<Role>;
  await hooks.beforeChunkWrite?.(write.rows);
  try {
    const submitted = await submitPlan(write.table, plan);
    if (!('refused' in submitted))
      return await chunkWritten(write, plan, nextIndexes, submitted.etags);
    refused = submitted.refused;
  } catch (error) {
    if (error instanceof DomainError) return { error };
    throw error;
  }
  forgetVersions(write.context, write.department, idsByName.keys());
  return explainChunkRefusal(write, refused, [...idsByName.keys()]);
}

/**
 * The chunk committed: the index entities' and the count shard's new versions, remembered (a
 * count shard answered without an ETag is read again).
 *
 * @throws {NotFoundError} `DepartmentNotFound` when the department is gone.
 */
async function chunkWritten(
  write: ChunkWrite,
  plan: PlannedTransaction<Role>,
  nextIndexes: ReadonlyMap<string, LastNameIndex>,
  etags: readonly (string | undefined)[],
): Promise<ChunkOutcome> {
  const { context, department, count, rows } = write;
  plan.roles.forEach((role, i) => {
    const etag = etags[i];
    if (role.kind === 'index' && etag) {
      const version = { value: nextIndexes.get(role.name)!, etag };
      write.indexes.set(role.name, version);
      rememberLastNameIndex(context, department, version);
    }
  });
  const countEtag = etags[etags.length - 1];
  const nextCount = countEtag
    ? {
        shard: count.shard,
        version: { value: count.version.value + rows.length, etag: countEtag },
      }
    : await loadCountShard(context, write.table, department, false);
  if (!nextCount) throw departmentNotFound(department);
  rememberCountShard(context, department, nextCount.shard, nextCount.version);
  return { created: rows, count: nextCount };
}

/**
 * What a refused chunk transaction means: a row already stored (or this chunk's own earlier
 * commit) or an email taken drops its row; else someone changed the count shard or an index
 * entity of `names`, read again (choosing a shard anew) for the next attempt.
 *
 * @throws {NotFoundError} `DepartmentNotFound` when the department is gone.
 */
async function explainChunkRefusal(
  write: ChunkWrite,
  refused: TransactionFailure<Role>,
  names: readonly string[],
): Promise<ChunkOutcome | Retry> {
  const { context, table, department, partitionKey } = write;
  const role = refused.role;
  if (role?.kind === 'employee' && refused.status === 409) {
    const existing = await readEmployeeState(table, partitionKey, role.row.employeeId);
    if (existing?.meta.writeId === write.writeId) {
      // An earlier try of this very transaction committed (its answer was lost): all rows are in.
      const fresh = await loadCountShard(context, table, department, false);
      if (!fresh) throw departmentNotFound(department);
      const reread = await readIndexVersions(table, partitionKey, names);
      for (const [name, version] of reread) write.indexes.set(name, version);
      return { created: write.rows, count: fresh };
    }
    return dropRow(write, role.row, employeeExists(department, role.row.employeeId));
  }
  if (role?.kind === 'email' && refused.status === 409) {
    return dropRow(write, role.row, emailTaken(department, role.row.email));
  }
  const fresh = await loadCountShard(context, table, department, false);
  if (!fresh) throw departmentNotFound(department);
  write.count = fresh;
  const reread = await readIndexVersions(table, partitionKey, names);
  for (const name of names) {
    const version = reread.get(name);
    if (version) write.indexes.set(name, version);
    else write.indexes.delete(name);
  }
  return RETRY;
}

/** Reports `row` refused and retries the chunk without it, unless it was the last. */
function dropRow(write: ChunkWrite, row: Row, error: DomainError): ChunkOutcome | Retry {
  write.failed.push(failure(row.position, row.employeeId, error.code, error.message));
  write.rows = write.rows.filter((r) => r !== row);
  return write.rows.length === 0 ? { created: [], count: write.count } : RETRY;
}
