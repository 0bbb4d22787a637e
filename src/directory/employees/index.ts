/**
 * Employee operations: create and insert (also the move's), update, patch and photo URL, delete
 * one or many at a version, reads by id, email, range and last name, existence, yearly reviews
 * (compound key). The directory's entry (../index.ts) exposes these; files of the directory import
 * the files here, never this entry.
 */
export type { EmployeeDeleted } from './deleteEmployee';
export { listEmployeeEntities } from './employeeQueries';
export type { EmployeeCheck } from './existence';
export type { Review } from './reviews';
