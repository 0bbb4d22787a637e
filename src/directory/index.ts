/**
 * The directory's public surface: what the rest of the app (adapters, archive, photos, SAS,
 * orchestrations, indexes) uses of the `Employees`-table core. Other folders import from here,
 * never from a file inside this folder (lint enforces it), so the files behind it can change.
 */
export type { EmployeeChange, EmployeeChangeSink } from './changes';
export { createContext, type DirectoryContext } from './context';
export { deleteEmployee } from './deleteEmployee';
export type { DeleteVersionsOptions, VersionsDeleted } from './deleteEmployees';
export {
  departmentMerge,
  readDepartment,
  readListingVersion,
  type Manager,
  type Department,
  type DepartmentSummary,
} from './departmentEntity';
export { departmentsHoldingRows } from './departmentDiscovery';
export { listingNeedsUpdate, syncDepartmentListing } from './departmentListing';
export { listDepartments } from './departments';
export { createDirectory, type Directory, type EmployeeService } from './directory';
export {
  departmentNotFound,
  emailNotFound,
  emailTaken,
  employeeExists,
  employeeNotFound,
} from './directoryErrors';
export {
  emailCopyEntity,
  employeeDataProperties,
  incarnationOf,
  readEmployeeData,
  readEmployeeFields,
  readEmployeeMeta,
  storedToEmployee,
  toEmployee,
  type Employee,
  type EmployeeData,
  type EmployeeField,
  type StoredEntity,
  type StoredProperties,
  withFields,
} from './employeeEntity';
export { isPrimaryEmployee, listEmployeeEntities, parseEmployeeSelect } from './employeeQueries';
export { readEmployeeState, type EmployeeState } from './employeeState';
export { EntityTypes, isEntityOfType } from './entityTypes';
export { expectedSamePartitionIndexes } from './indexProjection';
export type { ImportResult } from './importEmployees';
export { insertEmployee } from './insertEmployee';
export {
  lastNameIndexEntity,
  lastNameIndexWrite,
  readLastNameIndex,
  withIds,
  withoutIds,
} from './lastNameIndex';
export { outboxSequenceTime, readOutboxRow, type OutboxRow } from './outbox';
export { readRangePage, readWholeRange, type KeyRange } from './paging';
export { reviewYearsOf, writeReviewEntities, type Review } from './reviews';
export { DATA_ETAG_PROPERTY } from './reviewYears';
export { loadDepartment, readEntity } from './state';
export { TtlCache } from './ttlCache';
export { updateEmployee } from './updateEmployee';
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  departmentBodySchema,
  employeePatchSchema,
  importBodySchema,
  managerBodySchema,
  newEmployeeSchema,
  pageSizeOf,
  reviewBodySchema,
} from './validation';
export type { Versioned } from './versionCache';
