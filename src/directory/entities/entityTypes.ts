/**
 * Entity types of the `Employees` table (heterogeneous entity types pattern).
 *
 * One department partition holds several kinds of entity. Each carries an `EntityType` property
 * naming its type and version, and its RowKey starts with a type prefix (see src/storage/keys/),
 * so a range query returns one type and a reader can skip any entity whose type it does not know
 * (an entity written by a newer version of the app, for example).
 */

/** Every entity type this version of the directory reads and writes. */
export const EntityTypes = {
  employee: 'Employee.v1',
  employeeEmail: 'EmployeeEmail.v1',
  department: 'Department.v1',
  departmentCountShard: 'DepartmentCountShard.v1',
  departmentListing: 'DepartmentListing.v1',
  lastNameIndex: 'LastNameIndex.v1',
  review: 'Review.v1',
  indexOutbox: 'IndexOutbox.v1',
  archiveReceipt: 'ArchiveReceipt.v1',
} as const;

/** One of {@link EntityTypes}. */
export type EntityTypeName = (typeof EntityTypes)[keyof typeof EntityTypes];

/** Name of the property that carries the type. */
export const ENTITY_TYPE_PROPERTY = 'EntityType';

/** True when a stored entity declares exactly `type` (unknown types and versions are skipped). */
export function isEntityOfType(entity: Record<string, unknown>, type: EntityTypeName): boolean {
  return entity[ENTITY_TYPE_PROPERTY] === type;
}
