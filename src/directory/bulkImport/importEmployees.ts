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
import { lastNameKey } from '../writes/lastNameVersions';
import { readIndexVersions, writeChunk, type ImportHooks } from './importChunk';
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

/**
 * Up to this many employees in the department, the index entities of names this process does not
 * know are taken to be absent (created, not read): no name can hold more ids than the department
 * has, so the chunk's size stays bounded, and a name that exists fails its chunk's create, which
 * then reads it. Larger departments read them first (docs/directory.md "Import").
 */
export const ASSUME_ABSENT_UP_TO = 5_000;

/**
 * The versions of the import's last-name index entities: from the version cache when this
 * process knows them (a stale one fails its chunk's condition, which then reads it); else, in a
 * department of more than {@link ASSUME_ABSENT_UP_TO} employees, one point read per name (only
 * the names the rows bring, however large the department). `unread`: the names neither known nor
 * read.
 */
async function indexVersions(
  context: DirectoryContext,
  table: Awaited<ReturnType<DirectoryContext['table']>>,
  department: string,
  names: readonly string[],
  employeeCount: number,
): Promise<{ known: Map<string, Versioned<LastNameIndex>>; unread: Set<string> }> {
  const known = new Map<string, Versioned<LastNameIndex>>();
  const unknown: string[] = [];
  for (const name of names) {
    const cached = context.cacheVersions
      ? context.lastNameVersions.get(lastNameKey(department, name))
      : undefined;
    if (cached) known.set(name, cached);
    else unknown.push(name);
  }
  if (employeeCount <= ASSUME_ABSENT_UP_TO) return { known, unread: new Set(unknown) };
  const read = await readIndexVersions(table, departmentPartitionKey(department), unknown);
  for (const [name, version] of read) known.set(name, version);
  return { known, unread: new Set() };
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
  const report = (created: number): ImportResult => ({
    created,
    failed: failed
      .sort((a, b) => a.position - b.position)
      .map(({ employeeId, error }) => ({ employeeId, error })),
  });
  const table = await context.table();
  // One range read: the department exists, and the versions of its count shards. In flight while
  // the rows are screened (CPU work), so neither waits for the other.
  const counting = loadCountShards(context, table, department);
  const valid = screenRows(rows, failed);
  const counted = await counting;
  if (!counted) throw departmentNotFound(department);
  const shards: ShardVersion[] = counted.shards;
  if (valid.length === 0) return report(0);

  const { known: indexes, unread } = await indexVersions(
    context,
    table,
    department,
    [...new Set(valid.map((r) => r.lastName))],
    counted.employeeCount,
  );
  // Ids each name's index entity will hold: for a name not read, at most the department's count.
  const finalIds = new Map<string, number>();
  for (const row of valid) {
    const stored = unread.has(row.lastName)
      ? counted.employeeCount
      : (indexes.get(row.lastName)?.value.ids.length ?? 0);
    finalIds.set(row.lastName, (finalIds.get(row.lastName) ?? stored) + 1);
  }
  // Chains about as long as it takes for CHUNKS_IN_FLIGHT of them to cover the import: chunks
  // are filled (a name may span two) within a chain, names kept whole between chains.
  const maxOperations = MAX_TRANSACTION_OPERATIONS - (context.outbox ? OUTBOX_OPERATIONS : 0);
  const fullChunks = Math.ceil((2 * valid.length + finalIds.size) / (maxOperations - 1));
  const chains = chainsOf(
    planChunks(valid, (name) => 400 + 12 * (finalIds.get(name) ?? 0), {
      maxOperations,
      chainLength: Math.max(1, Math.ceil(fullChunks / CHUNKS_IN_FLIGHT)),
    }),
  );

  let created = 0;
  let stopped = false;
  const notWritten = (chunks: Row[][], error: { code: string; message: string }): void => {
    for (const row of chunks.flat())
      failed.push(failure(row.position, row.employeeId, error.code, error.message));
  };
  let stoppedBy: { code: string; message: string } | undefined;
  // Storage refused for load (or lost races) past the retries: with nothing written, the call
  // answers as any other would, 503 with Retry-After, instead of 200 with every row failed.
  let busy: ThrottledError | undefined;
  const runChain = async (chain: Row[][]): Promise<void> => {
    for (let c = 0; c < chain.length; c++) {
      if (stopped) {
        notWritten(chain.slice(c), stoppedBy!);
        return;
      }
      const count = takeCountShard(context, department, shards);
      const outcome = await writeChunk(
        context,
        table,
        department,
        partitionKey,
        chain[c]!,
        count,
        indexes,
        failed,
        hooks,
      );
      if ('error' in outcome) {
        // Storage gave up (after the SDK's retries): this chunk and those not started are not
        // written; chunks already in flight finish.
        stopped = true;
        stoppedBy = outcome.error;
        if (outcome.error instanceof ThrottledError) busy ??= outcome.error;
        notWritten(chain.slice(c), outcome.error);
        return;
      }
      shards[outcome.count.shard] = outcome.count.version;
      created += outcome.created.length;
      if (outcome.created.length > 0) {
        const changes: EmployeeChange[] = outcome.created.map((row) => ({
          department,
          employeeId: row.employeeId,
          reason: 'imported',
        }));
        await context.changes.publish(changes);
      }
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CHUNKS_IN_FLIGHT, chains.length) }, async () => {
      try {
        while (next < chains.length) await runChain(chains[next++]!);
      } catch (error) {
        // The call fails: start no further chunk.
        stopped = true;
        stoppedBy = { code: 'ImportStopped', message: 'The import stopped on an error.' };
        throw error;
      }
    }),
  );
  if (created === 0 && busy) throw busy;
  return report(created);
}
