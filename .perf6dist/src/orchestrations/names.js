"use strict";
/**
 * Names of the orchestrations and activities, shared by their registrations (functions/) and by
 * the orchestrators that call them (a typo would otherwise fail only at run time).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.Activities = exports.Orchestrations = void 0;
/** Orchestrator function names. */
exports.Orchestrations = {
    moveEmployee: 'MoveEmployeeOrchestrator',
    archiveDepartment: 'ArchiveDepartmentOrchestrator',
    auditIndexes: 'AuditIndexesOrchestrator',
};
/** Activity function names. */
exports.Activities = {
    validateMove: 'MoveValidateActivity',
    copyToTarget: 'MoveCopyToTargetActivity',
    reindexEmployee: 'MoveReindexActivity',
    removeFromSource: 'MoveRemoveFromSourceActivity',
    listEmployeePage: 'ListDepartmentEmployeePageActivity',
    archiveEmployee: 'ArchiveEmployeeActivity',
    listDepartmentPage: 'ListDepartmentPageActivity',
    auditDepartment: 'AuditDepartmentIndexesActivity',
    auditOrgLastNames: 'AuditOrgLastNameIndexActivity',
};
//# sourceMappingURL=names.js.map