/**
 * The directory's public surface: its service API (the employees, departments and reviews of the
 * `Employees` table), the contexts the orchestrations write through, the request schemas the
 * adapters validate with, its error catalogue, and the few types callers need. Other folders import
 * from here, never from a file inside this folder (lint enforces it), so the files behind it can
 * change. Two narrower, named surfaces sit beside it, each allowed by lint for its users only:
 * `storedEntities.ts` (the stored shapes, for the workers that read the table beside the
 * directory) and `moveOperations.ts` (the steps the move orchestration runs itself). Generic table
 * helpers (point read, range paging, system properties, the transaction limit) are src/storage's.
 */
export type { EmployeeChange, EmployeeChangeSink } from './changes';
export { createContext, type DirectoryContext, type DirectoryOptions } from './context';
export type {
  Department,
  DepartmentListItem,
  DepartmentSummary,
} from './entities/departmentEntity';
export { listDepartments } from './departments/departments';
export { createDirectory, directoryOver, type Directory, type EmployeeService } from './directory';
export { departmentNotFound, emailNotFound, employeeNotFound } from './directoryErrors';
export type { EmployeeDeleted } from './employees/deleteEmployee';
export type { EmployeeCheck } from './employees/existence';
export type { Employee, EmployeeData } from './entities/employeeEntity';
export type { ImportResult } from './bulkImport/importEmployees';
export type { Review } from './employees/reviews';
export { TtlCache } from './departments/ttlCache';
export {
  MAX_PAGE_SIZE,
  departmentBodySchema,
  employeePatchSchema,
  importBodySchema,
  managerBodySchema,
  newEmployeeSchema,
  pageSizeOf,
  reviewBodySchema,
} from './validation';
export type { Versioned } from './entities/versionCache';
