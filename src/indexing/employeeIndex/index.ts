/**
 * The inter-partition index in `EmployeeIndex`: its entities (`indexEntities.ts`), the eventual
 * reads it serves (`indexQueries.ts`), the employee-by-employee reconcile (`indexMaintenance.ts`:
 * v1 messages, audit repair, move).
 *
 * Description only: other folders import src/indexing's entry, its files import these files.
 */
export {};
