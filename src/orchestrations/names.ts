/**
 * Names of the orchestrations and activities, shared by their registrations (functions/) and by
 * the orchestrators that call them (a typo would otherwise fail only at run time).
 */

/** Orchestrator function names. */
export const Orchestrations = {
  moveEmployee: 'MoveEmployeeOrchestrator',
  archiveDepartment: 'ArchiveDepartmentOrchestrator',
  auditIndexes: 'AuditIndexesOrchestrator',
  relocateDepartment: 'RelocateDepartmentOrchestrator',
} as const;

/** Activity function names. */
export const Activities = {
  validateMove: 'MoveValidateActivity',
  copyToTarget: 'MoveCopyToTargetActivity',
  reindexEmployee: 'MoveReindexActivity',
  removeFromSource: 'MoveRemoveFromSourceActivity',
  listEmployeePage: 'ListDepartmentEmployeePageActivity',
  archiveEmployeeChunk: 'ArchiveEmployeeChunkActivity',
  listDepartmentPage: 'ListDepartmentPageActivity',
  auditDepartment: 'AuditDepartmentIndexesActivity',
  auditOrgLastNames: 'AuditOrgLastNameIndexActivity',
  relocationCopy: 'RelocationCopyActivity',
  relocationFreeze: 'RelocationFreezeActivity',
  relocationSync: 'RelocationSyncActivity',
  relocationSwitch: 'RelocationSwitchActivity',
  relocationDelete: 'RelocationDeleteActivity',
  relocationRollback: 'RelocationRollbackActivity',
} as const;
