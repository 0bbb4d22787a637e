/**
 * The directory's public surface: departments, employees and reviews of the `Employees` table, one
 * partition per department. The service objects `createDirectory()` returns hold the operations
 * themselves, bound to one context. Beside them: the contexts the orchestrations write through,
 * the few operations workers run themselves (employee pages, the department read), the page size
 * rule, the catalogue's not-found errors and the types callers need. Other folders import this
 * entry, or a narrower surface lint lets them use: `entities/` (the stored shapes, for workers
 * beside the directory), `departments/` (the listing those workers keep), `moveWrites.ts` (the
 * move's own writes), `validation.ts` (the request schemas the adapters validate bodies with).
 * Generic table helpers are src/storage's.
 */
export type { EmployeeChange, EmployeeChangeSink } from './changes';
export { createContext, type DirectoryContext, type DirectoryOptions } from './context';
export type {
  Department,
  DepartmentListItem,
  DepartmentSummary,
} from './entities/departmentEntity';
export { listDepartments } from './departments';
export { createDirectory, directoryOver, type Directory, type EmployeeService } from './directory';
export { departmentNotFound, emailNotFound, employeeNotFound } from './directoryErrors';
export {
  listEmployeeEntities,
  type EmployeeCheck,
  type EmployeeDeleted,
  type Review,
} from './employees';
export type { Employee, EmployeeData } from './entities/employeeEntity';
export type { ImportResult } from './bulkImport';
export { MAX_PAGE_SIZE, pageSizeOf } from './validation';
export type { Versioned } from './entities/versionCache';
export { loadDepartment } from './writes/departmentVersions';
