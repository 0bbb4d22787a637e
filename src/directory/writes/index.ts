/**
 * What every directory write shares: the entity group transaction with a role per operation
 * (`plannedTransaction.ts`) and the process's cached versions of the shared entities a write is
 * conditional on (`departmentVersions.ts`, `lastNameVersions.ts`). Directory-internal: its files
 * import these files directly, and nothing imports this entry.
 */
export {};
