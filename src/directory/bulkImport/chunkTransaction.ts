/**
 * The transaction of one import chunk (importChunk.ts), planned from the versions known: each
 * row's employee and email copy created, each name's last-name index entity created or replaced
 * at its version, the index outbox row, and the count shard's change last (its ETag answers the
 * new count). No storage call here: the attempt that sends it and explains a refusal is
 * importChunk.ts's.
 */
import { DomainError } from '../../domainErrors';
import { countShardChange } from '../entities/departmentCount';
import { emailCopyEntity, employeeEntity, newIncarnation } from '../entities/employeeEntity';
import { outboxActions, type OutboxChange } from '../entities/outbox';
import {
  assertIndexCapacity,
  lastNameIndexEntity,
  withIds,
  type LastNameIndex,
} from '../entities/partitionLastNameIndex';
import type { Versioned } from '../entities/versionCache';
import type { ChosenShard } from '../writes/departmentVersions';
import { PlannedTransaction } from '../writes/plannedTransaction';
import { failure, type PlacedFailure, type Row } from './importRows';

/** What each operation of a chunk's transaction stands for (a refusal is explained by it). */
export type Role =
  | { kind: 'employee' | 'email'; row: Row }
  | { kind: 'index'; name: string }
  | { kind: 'outbox' }
  | { kind: 'count' };

/** A chunk as its transaction is planned from it. */
export interface PlannedChunk {
  partitionKey: string;
  rows: Row[];
  /** The count shard the transaction changes, at the version known. */
  count: ChosenShard;
  /** Written on each employee, to recognise the chunk's own commit. */
  writeId: string;
  /** The known versions of the index entities (a name without one is created). */
  indexes: ReadonlyMap<string, Versioned<LastNameIndex>>;
}

/** The ids each last name of `rows` adds to its index entity. */
export function idsByNameOf(rows: readonly Row[]): Map<string, string[]> {
  const idsByName = new Map<string, string[]>();
  for (const row of rows) {
    idsByName.set(row.lastName, [...(idsByName.get(row.lastName) ?? []), row.employeeId]);
  }
  return idsByName;
}

/**
 * `rows` without those of names whose index entity would overflow with them: those are reported
 * in `failed` and their names taken out of `idsByName`; the other names go ahead.
 */
export function withoutOverfullNames(
  rows: Row[],
  idsByName: Map<string, string[]>,
  indexes: PlannedChunk['indexes'],
  failed: PlacedFailure[],
): Row[] {
  let kept = rows;
  for (const [name, added] of idsByName) {
    try {
      assertIndexCapacity(name, withIds(indexes.get(name)?.value.ids ?? [], added).length);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      for (const row of kept.filter((r) => r.lastName === name))
        failed.push(failure(row.position, row.employeeId, error.code, error.message));
      kept = kept.filter((r) => r.lastName !== name);
      idsByName.delete(name);
    }
  }
  return kept;
}

/**
 * The chunk's transaction, and the index entities it writes (to remember once it committed).
 *
 * @param outbox - add the index outbox row (the directory keeps one).
 */
export function chunkTransaction(
  chunk: PlannedChunk,
  idsByName: ReadonlyMap<string, readonly string[]>,
  outbox: boolean,
): { plan: PlannedTransaction<Role>; nextIndexes: Map<string, LastNameIndex> } {
  const { partitionKey, rows, count } = chunk;
  const plan = new PlannedTransaction<Role>();
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
      { isManager: false, writeId: chunk.writeId, incarnation: newIncarnation(), reviewYears: [] },
    );
    plan.add(['create', primary], { kind: 'employee', row });
    plan.add(['create', emailCopyEntity(primary)], { kind: 'email', row });
  }
  const nextIndexes = new Map<string, LastNameIndex>();
  for (const [name, added] of idsByName) {
    const current = chunk.indexes.get(name);
    const next = { lastName: name, ids: withIds(current?.value.ids ?? [], added) };
    nextIndexes.set(name, next);
    const entity = lastNameIndexEntity(partitionKey, next);
    plan.add(current ? ['update', entity, 'Replace', { etag: current.etag }] : ['create', entity], {
      kind: 'index',
      name,
    });
  }
  if (outbox) {
    const changes: OutboxChange[] = rows.map((row) => ({
      employeeId: row.employeeId,
      reason: 'imported',
      current: { email: row.email, lastName: row.displayLastName },
    }));
    for (const action of outboxActions(partitionKey, changes)) plan.add(action, { kind: 'outbox' });
  }
  plan.add(countShardChange(partitionKey, count.shard, count.version, rows.length), {
    kind: 'count',
  });
  return { plan, nextIndexes };
}
