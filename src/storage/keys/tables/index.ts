/**
 * Keys of each table: Employees, EmployeeIndex (and the org last-name blob names), per-employee
 * partitions, outbox rows, EmployeesArchive, login day tables, message stats, timer runs, SAS
 * policy ids, account placement. One module per table; nothing imports this entry.
 */
export {};
