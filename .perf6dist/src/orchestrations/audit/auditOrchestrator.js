"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.auditIndexesOrchestrator = auditIndexesOrchestrator;
const names_1 = require("../names");
const retryPolicy_1 = require("../retryPolicy");
const auditCounts_1 = require("./auditCounts");
/** The audit orchestrator (input {@link AuditInput}). */
function* auditIndexesOrchestrator(context) {
    const repair = context.df.getInput()?.repair === true;
    const retry = (0, retryPolicy_1.activityRetryOptions)();
    const departments = [];
    let continuationToken = null;
    do {
        const page = (yield context.df.callActivityWithRetry(names_1.Activities.listDepartmentPage, retry, {
            continuationToken,
        }));
        departments.push(...page.departments);
        continuationToken = page.continuationToken;
    } while (continuationToken);
    let byIndex = {};
    let done = 0;
    for (const names of (0, retryPolicy_1.chunk)(departments, retryPolicy_1.MAX_PARALLEL_ACTIVITIES)) {
        const reports = (yield context.df.Task.all(names.map((department) => context.df.callActivityWithRetry(names_1.Activities.auditDepartment, retry, {
            department,
            repair,
        }))));
        byIndex = (0, auditCounts_1.mergeByIndex)(byIndex, ...reports);
        done += names.length;
        context.df.setCustomStatus({ departmentsAudited: done, of: departments.length });
    }
    const orgLastNames = (yield context.df.callActivityWithRetry(names_1.Activities.auditOrgLastNames, retry, { repair }));
    byIndex = (0, auditCounts_1.mergeByIndex)(byIndex, { orgLastNames });
    return { ...(0, auditCounts_1.totalOf)(byIndex), repair, departments: departments.length, byIndex };
}
//# sourceMappingURL=auditOrchestrator.js.map