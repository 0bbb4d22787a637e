/**
 * The department entity (denormalization, one-to-many): it lives in its own department's
 * partition under `DEPARTMENT_ROW_KEY` and holds the number of employees and a copy of the
 * manager's details, so `GET /departments/{dept}` is one point read. Both change in the same
 * entity group transaction as the employee they depend on, conditional on this entity's ETag.
 *
 * Also the department listing entity in the `.departments` partition, which makes
 * `GET /departments` a partition range query instead of a table scan. It lives in another
 * partition, so no transaction can hold both: the department carries `ListingVersion`, a counter
 * that each change of what the listing copies (the description) increases, and the listing
 * carries the version it copies, so the listing is only ever replaced by a newer copy
 * (departmentListing.ts). The listing also carries the department's employee count as the index
 * drain last took it (`EmployeeCount`, `CountAsOf`: eventually consistent, listingCount.ts), so a
 * page of the list is one range query.
 */
import type { TableEntity } from '@azure/data-tables';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  DEPARTMENT_ROW_KEY,
  departmentListRowKey,
  departmentPartitionKey,
  parseDepartmentListRowKey,
} from '../../storage/keys/tables/employees';
import { ENTITY_TYPE_PROPERTY, EntityTypes, isEntityOfType } from './entityTypes';
import type { StoredEntity, StoredProperties } from '../../storage/tables/entities';

/** The manager's details as copied onto the department. */
export interface Manager {
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** Property of the department entity: the version of what its listing copies. */
export const LISTING_VERSION_PROPERTY = 'ListingVersion';

/** A department as the API shows it. */
export interface Department {
  name: string;
  description: string;
  employeeCount: number;
  manager: Manager | null;
}

/** What the department listing copies of a department. */
export interface DepartmentSummary {
  name: string;
  description: string;
}

/** One row of `GET /departments`: the listing's copy with its count and when that was taken. */
export interface DepartmentListItem extends DepartmentSummary {
  employeeCount: number;
  /** When the count was read from the department (ISO 8601): the listing may lag behind. */
  countAsOf: string;
}

/** A department's employee count as the listing carries it, and when it was read. */
export interface ListedCount {
  employeeCount: number;
  asOf: Date;
}

/**
 * Manager properties for a Merge (an empty `ManagerEmployeeId` means "no manager", so a Merge can
 * clear the copy without replacing the entity).
 */
export function managerProperties(manager: Manager | null): StoredProperties {
  return {
    ManagerEmployeeId: manager?.employeeId ?? '',
    ManagerFirstName: manager?.firstName ?? '',
    ManagerLastName: manager?.lastName ?? '',
    ManagerEmail: manager?.email ?? '',
  };
}

/**
 * A new department entity.
 *
 * @throws {ValidationError} for an invalid department name.
 */
export function departmentEntity(name: string, description: string): TableEntity<StoredProperties> {
  return {
    partitionKey: departmentPartitionKey(name),
    rowKey: DEPARTMENT_ROW_KEY,
    [ENTITY_TYPE_PROPERTY]: EntityTypes.department,
    Name: name,
    Description: description,
    EmployeeCount: 0,
    [LISTING_VERSION_PROPERTY]: 1,
    ...managerProperties(null),
  };
}

/** The changes of a department entity for a Merge in the same transaction as its employees. */
export function departmentMerge(
  name: string,
  changes: {
    employeeCount?: number;
    manager?: Manager | null;
    /** A new description comes with the next {@link LISTING_VERSION_PROPERTY}. */
    description?: { text: string; listingVersion: number };
  },
): TableEntity<StoredProperties> {
  const entity: TableEntity<StoredProperties> = {
    partitionKey: departmentPartitionKey(name),
    rowKey: DEPARTMENT_ROW_KEY,
    [ENTITY_TYPE_PROPERTY]: EntityTypes.department,
  };
  if (changes.employeeCount !== undefined) entity.EmployeeCount = changes.employeeCount;
  if (changes.description !== undefined) {
    entity.Description = changes.description.text;
    entity[LISTING_VERSION_PROPERTY] = changes.description.listingVersion;
  }
  if (changes.manager !== undefined) Object.assign(entity, managerProperties(changes.manager));
  return entity;
}

/** A stored department entity as API JSON; `undefined` for another entity type. */
export function readDepartment(entity: StoredProperties): Department | undefined {
  if (!isEntityOfType(entity, EntityTypes.department) || typeof entity.Name !== 'string')
    return undefined;
  const managerId = entity.ManagerEmployeeId;
  return {
    name: entity.Name,
    description: typeof entity.Description === 'string' ? entity.Description : '',
    employeeCount: typeof entity.EmployeeCount === 'number' ? entity.EmployeeCount : 0,
    manager:
      typeof managerId === 'string' && managerId !== ''
        ? {
            employeeId: managerId,
            firstName: String(entity.ManagerFirstName ?? ''),
            lastName: String(entity.ManagerLastName ?? ''),
            email: String(entity.ManagerEmail ?? ''),
          }
        : null,
  };
}

/**
 * The version of what the listing copies from a stored department entity (0 for a department
 * written before departments carried it).
 */
export function readListingVersion(entity: StoredProperties): number {
  return storedVersion(entity[LISTING_VERSION_PROPERTY]);
}

/** A stored version number: a positive safe integer, or 0 when absent or of another shape. */
export function storedVersion(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/**
 * The listing entity of a department, copying the department at `version` (its
 * {@link LISTING_VERSION_PROPERTY}).
 */
export function departmentListingEntity(
  summary: DepartmentSummary,
  version: number,
  count?: ListedCount,
): TableEntity<StoredProperties> {
  return {
    partitionKey: DEPARTMENT_LIST_PARTITION_KEY,
    rowKey: departmentListRowKey(summary.name),
    [ENTITY_TYPE_PROPERTY]: EntityTypes.departmentListing,
    Name: summary.name,
    Description: summary.description,
    Version: version,
    ...(count ? listedCountProperties(count) : {}),
  };
}

/** The listing's count properties (what a Merge of the count sets). */
export function listedCountProperties(count: ListedCount): StoredProperties {
  return { EmployeeCount: count.employeeCount, CountAsOf: count.asOf };
}

/**
 * The count a stored listing carries; `undefined` for a listing written before listings carried
 * counts (or of another shape).
 */
export function readListedCount(entity: StoredProperties): ListedCount | undefined {
  const count = entity.EmployeeCount;
  const asOf = entity.CountAsOf;
  const at = asOf instanceof Date ? asOf : typeof asOf === 'string' ? new Date(asOf) : undefined;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return undefined;
  if (at === undefined || Number.isNaN(at.getTime())) return undefined;
  return { employeeCount: count, asOf: at };
}

/** A stored listing entity as API JSON; `undefined` for another entity type. */
export function readDepartmentListing(entity: StoredEntity): DepartmentSummary | undefined {
  const name = parseDepartmentListRowKey(entity.rowKey);
  if (!isEntityOfType(entity, EntityTypes.departmentListing) || name === undefined)
    return undefined;
  return { name, description: typeof entity.Description === 'string' ? entity.Description : '' };
}
