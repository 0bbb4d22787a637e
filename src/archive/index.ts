/**
 * Archiving an employee across two tables (eventually consistent transactions): the request queued
 * with the employee's version, the copy into `EmployeesArchive` and the delete from `Employees`,
 * idempotent under replays; the department archive in pages; reads of archived records.
 *
 * Description only: other folders import the modules (docs/architecture.md "Entries").
 */
export {};
