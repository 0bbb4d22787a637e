/**
 * The asynchronous indexes: by id and email (`employeeIndex/`), the organisation-wide last-name
 * index (`lastNames/`), kept current by draining each department's outbox (`drain/`), nudged
 * through the `index-updates` queue (`queue/`); built from configuration (`configuredIndexing.ts`,
 * what every worker shares: `indexStores.ts`; the catalogue: `indexingErrors.ts`).
 *
 * Other folders import this entry; the files of src/indexing import each other's files directly.
 */
export {
  configuredBackgroundChangeQueue,
  configuredChangeQueue,
  configuredIndexStores,
} from './configuredIndexing';
export type { EmployeeGoneHandler, IndexStores } from './indexStores';
export { sweepOutboxes } from './drain/outboxSweep';
export { markPending, readPendingWork } from './drain/pendingMarkers';
export { SharedDrains } from './drain/sharedDrains';
export { writerDrains } from './drain/writerDrain';
export {
  emailIndexEntity,
  idIndexEntity,
  keysOf,
  readTracked,
  unionKeys,
} from './employeeIndex/indexEntities';
export { reconcileEmployeeIndexes } from './employeeIndex/indexMaintenance';
export { reconcileEmail } from './employeeIndex/emailReconcile';
export {
  findEmployeesAcrossOrganisation,
  getEmployeeByEmailEventually,
} from './employeeIndex/indexQueries';
export {
  encodeMember,
  toRefs,
  type EmployeeRef,
  type LastNameStore,
  type MemberSlice,
  type Membership,
  type MembershipPage,
} from './lastNames/lastNameStore';
export { lastNameStoreFor } from './lastNames/storeForMode';
export { migrateLegacyLastNames } from './lastNames/legacyLastNameMigration';
export { handleIndexUpdateMessage } from './queue/indexUpdates';
export type { ChangeQueue } from './queue/queueChangeSink';
