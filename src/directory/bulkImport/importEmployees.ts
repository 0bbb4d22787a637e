/**
 * Bulk import of up to 1,000 employees into one department.
 *
 * Rows are validated one by one; invalid rows and duplicates (same id or email twice in the
 * import, or already in the department) are reported in `failed` and never written. Valid rows
 * are written in chunks (importPlan.ts), each ONE entity group transaction holding the employees,
 * their email copies, their last-name index entities, one count shard and one index outbox row
 * for the chunk, so every chunk is all-or-nothing with its indexes (importChunk.ts). Chunks share
 * no index entity unless one name spans them (a chain, run in order), and each takes its own count
 * shard, so up to {@link CHUNKS_IN_FLIGHT} run at once without contending with each other.
 *
 * Why: docs/directory.md "Import".
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import { departmentPartitionKey } from '../../storage/keys/tables/employees';
import type { EmployeeChange } from '../changes';
import type { DirectoryContext } from '../context';
import { ThrottledError } from '../../domainErrors';
import { departmentNotFound, tooManyImportRows } from '../directoryErrors';
import type { ShardVersion } from '../entities/departmentCount';
import type { LastNameIndex } from '../entities/partitionLastNameIndex';
import type { Versioned } from '../entities/versionCache';
import { chainsOf, planChunks } from './importPlan';
import { loadCountShards, takeCountShard } from '../writes/departmentVersions';
import { writeChunk, type ImportHooks } from './importChunk';
import { indexVersions } from './indexVersions';
import {
  failure,
  screenRows,
  type ImportFailure,
  type PlacedFailure,
  type Row,
} from './importRows';
import { MAX_TRANSACTION_OPERATIONS } from '../../storage/tables/entityGroupTransaction';

/** Most rows one import call accepts. */
export const MAX_IMPORT_ROWS = 1000;

/**
 * Chunks of one import in flight at once: enough to overlap one chunk's round trip with the next
 * one's preparation, few enough to leave most of the 16 count shards to concurrent creates.
 */
export const CHUNKS_IN_FLIGHT = 4;

export type { ImportFailure } from './importRows';
export type { ImportHooks } from './importChunk';

/** Outcome of an import. */
export interface ImportResult {
  created: number;
  failed: ImportFailure[];
}

/**
 * Operations a chunk keeps for its index outbox rows (outbox.ts): one row holds the changes of
 * ~48 employees in about 25,000 characters, so one is used; the second is room for unusually long
 * names and addresses.
 */
const OUTBOX_OPERATIONS = 2;

/** What an import gave its chains, and what they came to so far. */
interface ImportRun {
  context: DirectoryContext;
  table: TableAccess;
  department: string;
  partitionKey: string;
  /** The department's count shards as last known; each chunk takes one and updates it. */
  shards: ShardVersion[];
  indexes: Map<string, Versioned<LastNameIndex>>;
  failed: PlacedFailure[];
  hooks: ImportHooks;
  created: number;
  /** Set when a chunk failed or the call threw: chunks not started are reported with it. */
  stoppedBy?: { code: string; message: string };
  /**
   * Storage refused for load (or lost races) past the retries: with nothing written, the call
   * answers as any other would, 503 with Retry-After, instead of 200 with every row failed.
   */
  busy?: ThrottledError;
}

/**
 * Imports employees into an existing department and publishes an `imported` change per created
 * employee.
 *
 * @param rows - up to 1,000 employee bodies (each validated here).
 * @param hooks - tests only: a pause point before each chunk's transaction.
 * @returns how many were created and why the others were not.
 * @throws {ValidationError} for an invalid department name or more than 1,000 rows.
 * @throws {NotFoundError} `DepartmentNotFound` (nothing is written).
 * @throws {ThrottledError} when storage was too busy (or too contended) to write any row: nothing
 *   was written, and the caller sends the import again after `retryAfterSeconds`.
 * @throws {DomainError} for storage faults before anything was written; later faults are reported
 *   per row in `failed`, with the chunks already written kept.
 */
export async function importEmployees(
  context: DirectoryContext,
  department: string,
  rows: readonly unknown[],
  hooks: ImportHooks = {},
): Promise<ImportResult> {
  const partitionKey = departmentPartitionKey(department);
  if (rows.length > MAX_IMPORT_ROWS) {
    throw tooManyImportRows(MAX_IMPORT_ROWS);
  }
  const failed: PlacedFailure[] = [];
  const table = await context.table();
  // One range read: the department exists, and the versions of its count shards. In flight while
  // the rows are screened (CPU work), so neither waits for the other.
  const counting = loadCountShards(context, table, department);
  const valid = screenRows(rows, failed);
  const counted = await counting;
  if (!counted) throw departmentNotFound(department);
  if (valid.length === 0) return importReport(0, failed);

  const { known: indexes, unread } = await indexVersions(
    context,
    table,
    department,
    [...new Set(valid.map((r) => r.lastName))],
    counted.employeeCount,
    (known, assumed) =>
      chainsFor(context, valid, known, assumed, counted.employeeCount).flat().length,
  );
  const chains = chainsFor(context, valid, indexes, unread, counted.employeeCount);
  const run: ImportRun = {
    context,
    table,
    department,
    partitionKey,
    indexes,
    failed,
    hooks,
    shards: counted.shards,
    created: 0,
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CHUNKS_IN_FLIGHT, chains.length) }, async () => {
      try {
        while (next < chains.length) await writeChain(run, chains[next++]!);
      } catch (error) {
        // The call fails: start no further chunk.
        run.stoppedBy = { code: 'ImportStopped', message: 'The import stopped on an error.' };
        throw error;
      }
    }),
  );
  if (run.created === 0 && run.busy) throw run.busy;
  return importReport(run.created, failed);
}

/** The answer: how many were created, and the refused rows in request order. */
function importReport(created: number, failed: PlacedFailure[]): ImportResult {
  return {
    created,
    failed: failed
      .sort((a, b) => a.position - b.position)
      .map(({ employeeId, error }) => ({ employeeId, error })),
  };
}

/**
 * The import cut into chunks and chains, about as long as it takes for CHUNKS_IN_FLIGHT of them
 * to cover the import: chunks are filled (a name may span two) within a chain, names kept whole
 * between chains. A chunk's size counts the ids each name's index entity will hold: for a name
 * not read (`unread`), at most the department's count.
 */
function chainsFor(
  context: DirectoryContext,
  valid: Row[],
  indexes: ReadonlyMap<string, Versioned<LastNameIndex>>,
  unread: ReadonlySet<string>,
  employeeCount: number,
): Row[][][] {
  const finalIds = new Map<string, number>();
  for (const row of valid) {
    const stored = unread.has(row.lastName)
      ? employeeCount
      : (indexes.get(row.lastName)?.value.ids.length ?? 0);
    finalIds.set(row.lastName, (finalIds.get(row.lastName) ?? stored) + 1);
  }
  const maxOperations = MAX_TRANSACTION_OPERATIONS - (context.outbox ? OUTBOX_OPERATIONS : 0);
  const fullChunks = Math.ceil((2 * valid.length + finalIds.size) / (maxOperations - 1));
  return chainsOf(
    planChunks(valid, (name) => 400 + 12 * (finalIds.get(name) ?? 0), {
      maxOperations,
      chainLength: Math.max(1, Math.ceil(fullChunks / CHUNKS_IN_FLIGHT)),
    }),
  );
}

/**
 * Writes a chain's chunks one after another, each on a count shard of its own, and publishes the
 * rows each created. A chunk that fails stops the import: it and the chunks not started are
 * reported not written; chunks already in flight finish.
 */
async function writeChain(run: ImportRun, chain: Row[][]): Promise<void> {
  const { context, department } = run;
  for (let c = 0; c < chain.length; c++) {
    if (run.stoppedBy) {
      notWritten(run, chain.slice(c), run.stoppedBy);
      return;
    }
    const count = takeCountShard(context, department, run.shards);
    const outcome = await writeChunk(
      context,
      run.table,
      department,
      run.partitionKey,
      chain[c]!,
      count,
      run.indexes,
      run.failed,
      run.hooks,
    );
    if ('error' in outcome) {
      // Storage gave up (after the SDK's retries).
      run.stoppedBy = outcome.error;
      if (outcome.error instanceof ThrottledError) run.busy ??= outcome.error;
      notWritten(run, chain.slice(c), outcome.error);
      return;
    }
    run.shards[outcome.count.shard] = outcome.count.version;
    run.created += outcome.created.length;
    if (outcome.created.length > 0) {
      const changes: EmployeeChange[] = outcome.created.map((row) => ({
        department,
        employeeId: row.employeeId,
        reason: 'imported',
      }));
      await context.changes.publish(changes);
    }
  }
}

/** Reports every row of `chunks` as not written, for `error`. */
function notWritten(
  run: ImportRun,
  chunks: Row[][],
  error: { code: string; message: string },
): void {
  for (const row of chunks.flat()) {
    run.failed.push(failure(row.position, row.employeeId, error.code, error.message));
  }
}
