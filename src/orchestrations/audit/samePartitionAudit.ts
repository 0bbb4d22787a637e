/**
 * Audit of the same-partition indexes of one department: email copies (`email_<address>`) and
 * last-name index entities (`lastname_<name>`), recomputed from the primary employee entities
 * with the directory's own projection ({@link expectedSamePartitionIndexes}).
 *
 * Race safety: the index entities are read BEFORE the primaries, and every repair is conditional
 * on the ETag read (or a create for a missing one). The directory changes a primary and its index
 * entities in one transaction, so if it commits between our two reads, the index entity we read
 * has changed since and our repair fails harmlessly (412/409/404, not counted as repaired) instead
 * of writing back an older state.
 */
import type { TableClient, TableEntity } from '@azure/data-tables';
import {
  expectedSamePartitionIndexes,
  isPrimaryEmployee,
  readLastNameIndex,
  readWholeRange,
  type StoredEntity,
  type StoredProperties,
} from '../../directory';
import { tookEffect } from '../../storage/errors';
import {
  departmentPartitionKey,
  emailRowKeyRange,
  employeeRowKeyRange,
  lastNameRowKeyRange,
} from '../../storage/keys';
import type { AuditCounts, CountsByIndex } from './auditCounts';
import { byKey, dataFingerprint, diffIndex, type IndexDiff } from './indexDiff';

/** The primary employee entities of a department, read after its index entities. */
export interface DepartmentSnapshot {
  primaries: StoredEntity[];
}

/**
 * Compares (and with `repair`, fixes) the email copies and last-name index entities of one
 * department. Returns the primaries it read, for the audits that follow.
 *
 * @throws {ConflictError} `LastNameIndexFull` if a last name has more ids than an index entity holds.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
export async function auditSamePartitionIndexes(
  table: TableClient,
  department: string,
  repair: boolean,
): Promise<{ counts: CountsByIndex; snapshot: DepartmentSnapshot }> {
  const partitionKey = departmentPartitionKey(department);
  const [storedCopies, storedIndexes] = await Promise.all([
    readWholeRange(table, { partitionKey, ...emailRowKeyRange() }),
    readWholeRange(table, { partitionKey, ...lastNameRowKeyRange() }),
  ]);
  const primaries = (
    await readWholeRange(table, { partitionKey, ...employeeRowKeyRange() })
  ).filter(isPrimaryEmployee);
  const expected = expectedSamePartitionIndexes(primaries);

  const copies = diffIndex(
    byKey(expected.emailCopies, (e) => e.rowKey),
    byKey(storedCopies, (e) => e.rowKey),
    (want, have) => dataFingerprint(want) === dataFingerprint(have),
  );
  const indexes = diffIndex(
    byKey(expected.lastNameIndexes, (e) => e.rowKey),
    byKey(storedIndexes, (e) => e.rowKey),
    (want, have) =>
      JSON.stringify(readLastNameIndex(want)) === JSON.stringify(readLastNameIndex(have)),
  );
  return {
    counts: {
      emailCopies: await settle(table, copies, repair),
      lastNameEntities: await settle(table, indexes, repair),
    },
    snapshot: { primaries },
  };
}

type Entity = TableEntity<StoredProperties>;

/** Counts a diff and, with `repair`, applies it with conditional writes. */
async function settle(
  table: TableClient,
  diff: IndexDiff<Entity, StoredEntity>,
  repair: boolean,
): Promise<AuditCounts> {
  const counts: AuditCounts = {
    checked: diff.checked,
    missing: diff.missing.length,
    stale: diff.differing.length + diff.orphaned.length,
    repaired: 0,
  };
  if (!repair) return counts;
  for (const entity of diff.missing) {
    if (await tookEffect(() => table.createEntity(entity))) counts.repaired++;
  }
  for (const { expected, stored } of diff.differing) {
    const write = () => table.updateEntity(expected, 'Replace', { etag: stored.etag });
    if (await tookEffect(write)) counts.repaired++;
  }
  for (const stored of diff.orphaned) {
    const remove = () =>
      table.deleteEntity(stored.partitionKey, stored.rowKey, { etag: stored.etag });
    if (await tookEffect(remove)) counts.repaired++;
  }
  return counts;
}
