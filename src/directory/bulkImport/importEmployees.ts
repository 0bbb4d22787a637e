/**
 * Bulk import of up to 1,000 employees into one department.
 *
 * Rows are validated one by one; invalid rows and duplicates (same id or email twice in the
 * import, or already in the department) are reported in `failed` and never written. Valid rows
 * are written in chunks (importPlan.ts), each ONE entity group transaction holding the employees,
 * their email copies, their last-name index entities, one count shard and one index outbox row
 * for the chunk, so every chunk is all-or-nothing with its indexes. Chunks run one after another,
 * each conditional on its count shard's ETag from the previous chunk's answer (no read between
 * chunks, no race between them). A row already in the department is dropped from its chunk, which
 * is sent again.
 *
 * Why: docs/directory.md "Import".
 */
import { randomUUID } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { DomainError, type ContentionError } from '../../domainErrors';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { departmentPartitionKey, lastNameRowKey } from '../../storage/keys/tables/employees';
import type { EmployeeChange } from '../changes';
import type { DirectoryContext } from '../context';
import { countShardChange } from '../entities/departmentCount';
import {
  contendedError,
  departmentNotFound,
  emailTaken,
  employeeExists,
  tooManyImportRows,
} from '../directoryErrors';
import { emailCopyEntity, employeeEntity, newIncarnation } from '../entities/employeeEntity';
import { readEmployeeState } from '../entities/employeeState';
import { planChunks } from './importPlan';
import { outboxActions, type OutboxChange } from '../entities/outbox';
import {
  assertIndexCapacity,
  lastNameIndexEntity,
  readLastNameIndex,
  withIds,
  type LastNameIndex,
} from '../entities/partitionLastNameIndex';
import { mapBounded } from '../../storage/parallel';
import {
  forgetVersions,
  loadCountShard,
  rememberCountShard,
  type ChosenShard,
} from '../writes/departmentVersions';
import { rememberLastNameIndex } from '../writes/lastNameVersions';
import { PlannedTransaction, submitPlan } from '../writes/plannedTransaction';
import type { TransactionFailure } from '../directoryErrors';
import {
  failure,
  screenRows,
  type ImportFailure,
  type PlacedFailure,
  type Row,
} from './importRows';
import type { Versioned } from '../entities/versionCache';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';
import { MAX_TRANSACTION_OPERATIONS } from '../../storage/tables/entityGroupTransaction';

/** Most rows one import call accepts. */
export const MAX_IMPORT_ROWS = 1000;

export type { ImportFailure } from './importRows';

/** Outcome of an import. */
export interface ImportResult {
  created: number;
  failed: ImportFailure[];
}

type Role =
  | { kind: 'employee' | 'email'; row: Row }
  | { kind: 'index'; name: string }
  | { kind: 'outbox' }
  | { kind: 'count' };

/**
 * Operations a chunk keeps for its index outbox rows (outbox.ts): one row holds the changes of
 * ~48 employees in about 25,000 characters, so one is used; the second is room for unusually long
 * names and addresses.
 */
const OUTBOX_OPERATIONS = 2;

/**
 * Point reads of an import's last-name index entities at once: enough to hide the round trips,
 * few enough not to flood the account's connections.
 */
const INDEX_READS_IN_FLIGHT = 16;

/**
 * The versions of an import's last-name index entities, read one point read per name (16 at a
 * time: `mapBounded(names, INDEX_READS_IN_FLIGHT, …readEntity…)`). A call reads only the names
 * its rows bring, however large the department: a range between the call's first and last name
 * would return every other name of the department in between, and grow with it (docs/
 * directory.md, "Import"). Names without an entity are absent from the map.
 */
function indexVersionsOf(
  entities: readonly (StoredEntity | undefined)[],
): Map<string, Versioned<LastNameIndex>> {
  const found = new Map<string, Versioned<LastNameIndex>>();
  for (const entity of entities) {
    const index = entity && readLastNameIndex(entity);
    if (entity && index) found.set(index.lastName, { value: index, etag: entity.etag });
  }
  return found;
}

/**
 * Imports employees into an existing department and publishes an `imported` change per created
 * employee.
 *
 * @param rows - up to 1,000 employee bodies (each validated here).
 * @returns how many were created and why the others were not.
 * @throws {ValidationError} for an invalid department name or more than 1,000 rows.
 * @throws {NotFoundError} `DepartmentNotFound` (nothing is written).
 * @throws {DomainError} for storage faults before anything was written; later faults are reported
 *   per row in `failed`, with the chunks already written kept.
 */
export async function importEmployees(
  context: DirectoryContext,
  department: string,
  rows: readonly unknown[],
): Promise<ImportResult> {
  const partitionKey = departmentPartitionKey(department);
  if (rows.length > MAX_IMPORT_ROWS) {
    throw tooManyImportRows(MAX_IMPORT_ROWS);
  }
  const failed: PlacedFailure[] = [];
  const valid = screenRows(rows, failed);
  const report = (created: number): ImportResult => ({
    created,
    failed: failed
      .sort((a, b) => a.position - b.position)
      .map(({ employeeId, error }) => ({ employeeId, error })),
  });
  const table = await context.table();
  // One range read: the department exists, and the versions of its count shards (one is chosen).
  let count = await loadCountShard(context, table, department, false);
  if (!count) throw departmentNotFound(department);
  if (valid.length === 0) return report(0);

  const names = [...new Set(valid.map((r) => r.lastName))];
  const indexes = indexVersionsOf(
    await mapBounded(names, INDEX_READS_IN_FLIGHT, (name) =>
      readEntity(table, partitionKey, lastNameRowKey(name)),
    ),
  );
  const finalIds = new Map<string, number>();
  for (const row of valid)
    finalIds.set(
      row.lastName,
      (finalIds.get(row.lastName) ?? indexes.get(row.lastName)?.value.ids.length ?? 0) + 1,
    );
  const chunks = planChunks(valid, (name) => 400 + 12 * (finalIds.get(name) ?? 0), {
    maxOperations: MAX_TRANSACTION_OPERATIONS - (context.outbox ? OUTBOX_OPERATIONS : 0),
  });

  let created = 0;
  for (let c = 0; c < chunks.length; c++) {
    const outcome = await writeChunk(
      context,
      table,
      department,
      partitionKey,
      chunks[c]!,
      count,
      indexes,
      failed,
    );
    if ('error' in outcome) {
      // Storage gave up (after the SDK's retries): this chunk and the rest are not written.
      for (const row of chunks.slice(c).flat()) {
        failed.push(
          failure(row.position, row.employeeId, outcome.error.code, outcome.error.message),
        );
      }
      break;
    }
    count = outcome.count;
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
  return report(created);
}

/** What one chunk's write did: the rows created, or the error that stopped it. */
type ChunkOutcome = { created: Row[]; count: ChosenShard } | { error: DomainError };

/** Writes one chunk, dropping rows that collide with stored employees; bounded retries. */
async function writeChunk(
  context: DirectoryContext,
  table: TableClient,
  department: string,
  partitionKey: string,
  chunkRows: Row[],
  startCount: ChosenShard,
  indexes: Map<string, Versioned<LastNameIndex>>,
  failed: PlacedFailure[],
): Promise<ChunkOutcome> {
  let rows = [...chunkRows];
  let count = startCount;
  const writeId = randomUUID();
  // Every row dropped costs an attempt, so the bound grows with the chunk.
  let gaveUp: ContentionError | undefined;
  const retry = {
    maxAttempts: chunkRows.length + context.maxConflictAttempts,
    giveUp: (attempts: number) => (gaveUp = contendedError(`Department "${department}"`, attempts)),
  };
  // A dropped row is retried without it, unless it was the last.
  const afterDrop = (): ChunkOutcome | typeof RETRY =>
    rows.length === 0 ? { created: [], count } : RETRY;
  try {
    return await retryOptimistically<ChunkOutcome>(retry, async () => {
      const plan = new PlannedTransaction<Role>();
      const idsByName = new Map<string, string[]>();
      for (const row of rows)
        idsByName.set(row.lastName, [...(idsByName.get(row.lastName) ?? []), row.employeeId]);
      // Names whose index would overflow: their rows fail, the others go ahead.
      for (const [name, added] of idsByName) {
        try {
          assertIndexCapacity(name, withIds(indexes.get(name)?.value.ids ?? [], added).length);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          for (const row of rows.filter((r) => r.lastName === name))
            failed.push(failure(row.position, row.employeeId, error.code, error.message));
          rows = rows.filter((r) => r.lastName !== name);
          idsByName.delete(name);
        }
      }
      if (rows.length === 0) return { created: [], count };
      for (const row of rows) {
        const primary = employeeEntity(
          partitionKey,
          {
            employeeId: row.employeeId,
            firstName: row.firstName,
            lastName: row.displayLastName,
            email: row.email,
            age: row.age,
          },
          { isManager: false, writeId, incarnation: newIncarnation(), reviewYears: [] },
        );
        plan.add(['create', primary], { kind: 'employee', row });
        plan.add(['create', emailCopyEntity(primary)], { kind: 'email', row });
      }
      const nextIndexes = new Map<string, LastNameIndex>();
      for (const [name, added] of idsByName) {
        const current = indexes.get(name);
        const next = { lastName: name, ids: withIds(current?.value.ids ?? [], added) };
        nextIndexes.set(name, next);
        const entity = lastNameIndexEntity(partitionKey, next);
        plan.add(
          current ? ['update', entity, 'Replace', { etag: current.etag }] : ['create', entity],
          { kind: 'index', name },
        );
      }
      if (context.outbox) {
        const changes: OutboxChange[] = rows.map((row) => ({
          employeeId: row.employeeId,
          reason: 'imported',
          current: { email: row.email, lastName: row.displayLastName },
        }));
        for (const action of outboxActions(partitionKey, changes)) {
          plan.add(action, { kind: 'outbox' });
        }
      }
      plan.add(countShardChange(partitionKey, count.shard, count.version, rows.length), {
        kind: 'count',
      });

      let refused: TransactionFailure<Role>;
      try {
        const submitted = await submitPlan(table, plan);
        if ('refused' in submitted) {
          refused = submitted.refused;
        } else {
          const { etags } = submitted;
          plan.roles.forEach((role, i) => {
            const etag = etags[i];
            if (role.kind === 'index' && etag) {
              const version = { value: nextIndexes.get(role.name)!, etag };
              indexes.set(role.name, version);
              rememberLastNameIndex(context, department, version);
            }
          });
          const countEtag = etags[etags.length - 1];
          const nextCount = countEtag
            ? {
                shard: count.shard,
                version: { value: count.version.value + rows.length, etag: countEtag },
              }
            : await loadCountShard(context, table, department, false);
          if (!nextCount) throw departmentNotFound(department);
          rememberCountShard(context, department, nextCount.shard, nextCount.version);
          return { created: rows, count: nextCount };
        }
      } catch (error) {
        if (error instanceof DomainError) return { error };
        throw error;
      }
      forgetVersions(context, department, idsByName.keys());
      const role = refused.role;
      if (role?.kind === 'employee' && refused.status === 409) {
        const existing = await readEmployeeState(table, partitionKey, role.row.employeeId);
        if (existing?.meta.writeId === writeId) {
          // An earlier try of this very transaction committed (its answer was lost): all rows
          // are in.
          const fresh = await loadCountShard(context, table, department, false);
          if (!fresh) throw departmentNotFound(department);
          const reread = await mapBounded([...idsByName.keys()], INDEX_READS_IN_FLIGHT, (name) =>
            readEntity(table, partitionKey, lastNameRowKey(name)),
          );
          for (const [name, version] of indexVersionsOf(reread)) indexes.set(name, version);
          return { created: rows, count: fresh };
        }
        const err = employeeExists(department, role.row.employeeId);
        failed.push(failure(role.row.position, role.row.employeeId, err.code, err.message));
        rows = rows.filter((r) => r !== role.row);
        return afterDrop();
      }
      if (role?.kind === 'email' && refused.status === 409) {
        const err = emailTaken(department, role.row.email);
        failed.push(failure(role.row.position, role.row.employeeId, err.code, err.message));
        rows = rows.filter((r) => r !== role.row);
        return afterDrop();
      }
      // Someone else changed the count shard or an index entity: read them again (choosing a
      // shard anew) and resend.
      const fresh = await loadCountShard(context, table, department, false);
      if (!fresh) throw departmentNotFound(department);
      count = fresh;
      const names = [...idsByName.keys()];
      const reread = indexVersionsOf(
        await mapBounded(names, INDEX_READS_IN_FLIGHT, (name) =>
          readEntity(table, partitionKey, lastNameRowKey(name)),
        ),
      );
      for (const name of names) {
        const version = reread.get(name);
        if (version) indexes.set(name, version);
        else indexes.delete(name);
      }
      return RETRY;
    });
  } catch (error) {
    if (error !== undefined && error === gaveUp) return { error: gaveUp };
    throw error;
  }
}
