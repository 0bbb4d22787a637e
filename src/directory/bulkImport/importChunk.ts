/**
 * Writing one import chunk (importEmployees.ts): ONE entity group transaction holding the chunk's
 * employees, their email copies, their last-name index entities, one count shard and the index
 * outbox row, conditional on the versions known of the shard and the index entities. A row already
 * in the department is dropped from the chunk, which is sent again; a conflict on the shard or an
 * index entity reads them again and resends. Why: docs/directory.md "Import".
 */
import { randomUUID } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { DomainError, type ContentionError } from '../../domainErrors';
import { RETRY, retryOptimistically } from '../../storage/optimisticRetry';
import { lastNameRowKey } from '../../storage/keys/tables/employees';
import type { DirectoryContext } from '../context';
import { countShardChange } from '../entities/departmentCount';
import { contendedError, departmentNotFound, emailTaken, employeeExists } from '../directoryErrors';
import type { TransactionFailure } from '../directoryErrors';
import { emailCopyEntity, employeeEntity, newIncarnation } from '../entities/employeeEntity';
import { readEmployeeState } from '../entities/employeeState';
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
import { failure, type PlacedFailure, type Row } from './importRows';
import type { Versioned } from '../entities/versionCache';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';

type Role =
  | { kind: 'employee' | 'email'; row: Row }
  | { kind: 'index'; name: string }
  | { kind: 'outbox' }
  | { kind: 'count' };

/**
 * Point reads of an import's last-name index entities at once: enough to hide the round trips,
 * few enough not to flood the account's connections.
 */
export const INDEX_READS_IN_FLIGHT = 16;

/** Test hooks of an import (a pause point between a chunk's plan and its transaction). */
export interface ImportHooks {
  /** Awaited before each attempt of a chunk's transaction is sent, with the chunk's rows. */
  beforeChunkWrite?: (rows: readonly Row[]) => Promise<void> | void;
}

/**
 * The versions of last-name index entities read one point read per name: a range between the
 * first and last name would return every other name of the department in between, and grow with
 * it (docs/directory.md, "Import"). Names without an entity are absent from the map.
 */
export function indexVersionsOf(
  entities: readonly (StoredEntity | undefined)[],
): Map<string, Versioned<LastNameIndex>> {
  const found = new Map<string, Versioned<LastNameIndex>>();
  for (const entity of entities) {
    const index = entity && readLastNameIndex(entity);
    if (entity && index) found.set(index.lastName, { value: index, etag: entity.etag });
  }
  return found;
}

/** The index entities of `names` in the department, `INDEX_READS_IN_FLIGHT` point reads at once. */
export async function readIndexVersions(
  table: TableClient,
  partitionKey: string,
  names: readonly string[],
): Promise<Map<string, Versioned<LastNameIndex>>> {
  return indexVersionsOf(
    await mapBounded(names, INDEX_READS_IN_FLIGHT, (name) =>
      readEntity(table, partitionKey, lastNameRowKey(name)),
    ),
  );
}

/** What one chunk's write did: the rows created, or the error that stopped it. */
export type ChunkOutcome = { created: Row[]; count: ChosenShard } | { error: DomainError };

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
  table: TableClient,
  department: string,
  partitionKey: string,
  chunkRows: Row[],
  startCount: ChosenShard,
  indexes: Map<string, Versioned<LastNameIndex>>,
  failed: PlacedFailure[],
  hooks: ImportHooks = {},
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
      await hooks.beforeChunkWrite?.(rows);
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
          const reread = await readIndexVersions(table, partitionKey, [...idsByName.keys()]);
          for (const [name, version] of reread) indexes.set(name, version);
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
      const reread = await readIndexVersions(table, partitionKey, names);
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
