/**
 * What the same-partition indexes should hold, computed from the primary employee entities alone
 * (pure; the index audit compares it with what is stored, and repairs from it).
 */
import type { TableEntity } from '@azure/data-tables';
import { normalizeLastName } from '../../storage/keys/text';
import { emailCopyEntity, readEmployeeData } from './employeeEntity';
import { EntityTypes, isEntityOfType } from './entityTypes';
import { lastNameIndexEntity, normaliseIds } from './partitionLastNameIndex';
import type { StoredProperties } from '../../storage/tables/entities';

/** The expected index entities of a set of departments. */
export interface ExpectedIndexEntities {
  /** One email copy per employee (`email_<address>`), with the employee's data. */
  emailCopies: TableEntity<StoredProperties>[];
  /** One last-name index entity per (department, normalised last name), ids sorted. */
  lastNameIndexes: TableEntity<StoredProperties>[];
}

/**
 * Computes the email copies and last-name index entities that the given primary employee entities
 * (`Employee.v1`, any departments) imply. Other entity types in the input are ignored.
 *
 * @throws {ConflictError} `LastNameIndexFull` if one last name has more ids than an index entity
 *   holds.
 */
export function expectedSamePartitionIndexes(
  primaries: Iterable<TableEntity<StoredProperties>>,
): ExpectedIndexEntities {
  const emailCopies: TableEntity<StoredProperties>[] = [];
  const byName = new Map<string, { partitionKey: string; lastName: string; ids: string[] }>();
  for (const primary of primaries) {
    if (!isEntityOfType(primary, EntityTypes.employee)) continue;
    const data = readEmployeeData(primary);
    if (!data) continue;
    emailCopies.push(emailCopyEntity(primary));
    const lastName = normalizeLastName(data.lastName);
    const key = `${primary.partitionKey}\u0001${lastName}`;
    const group = byName.get(key) ?? { partitionKey: primary.partitionKey, lastName, ids: [] };
    group.ids.push(data.employeeId);
    byName.set(key, group);
  }
  const lastNameIndexes = [...byName.values()].map((group) =>
    lastNameIndexEntity(group.partitionKey, {
      lastName: group.lastName,
      ids: normaliseIds(group.ids),
    }),
  );
  return { emailCopies, lastNameIndexes };
}
