/**
 * The directory's stored shapes: how its entities are typed, keyed, encoded and read. A named
 * surface for the code that works on the `Employees` table beside the directory's services — the
 * index workers, the archive, the photo feature, the orchestrations' audit and repair, and the
 * bench's bulk seeding — never for the HTTP adapters, which go through src/directory/index.ts
 * (lint allows this entry to those folders only). Shapes only: the operations those workers run
 * (department discovery, listing sync, employee pages, the department read) are the directory
 * entry's.
 */
export { countShardEntity, DEPARTMENT_COUNT_SHARDS } from './departmentCount';
export {
  departmentMerge,
  readDepartment,
  readListingVersion,
  type Manager,
} from './departmentEntity';
export {
  emailCopyEntity,
  employeeDataProperties,
  employeeEntity,
  incarnationOf,
  isPrimaryEmployee,
  readEmployeeData,
  readEmployeeFields,
  readEmployeeMeta,
  storedToEmployee,
  toEmployee,
} from './employeeEntity';
export { parseEmployeeSelect, withFields, type EmployeeField } from './employeeSelect';
export { currentLastName, readEmployeeState, type EmployeeState } from './employeeState';
export { ENTITY_TYPE_PROPERTY, EntityTypes, isEntityOfType } from './entityTypes';
export {
  lastNameIndexEntity,
  lastNameIndexWrite,
  readLastNameIndex,
  withIds,
  withoutIds,
} from './partitionLastNameIndex';
export { outboxEntity, outboxSequenceTime, readOutboxRow, type OutboxRow } from './outbox';
export { DATA_ETAG_PROPERTY } from './reviewYears';
