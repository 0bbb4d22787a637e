"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.archiveDepartmentOrchestrator = archiveDepartmentOrchestrator;
const names_1 = require("../names");
const refusal_1 = require("../refusal");
const retryPolicy_1 = require("../retryPolicy");
/** The department archive orchestrator (input {@link ArchiveDepartmentInput}). */
function* archiveDepartmentOrchestrator(context) {
    const { department } = context.df.getInput();
    const retry = (0, retryPolicy_1.activityRetryOptions)();
    const output = { department, archived: 0, notFound: 0 };
    let continuationToken = null;
    do {
        const page = yield context.df.callActivityWithRetry(names_1.Activities.listEmployeePage, retry, { department, continuationToken });
        if ((0, refusal_1.isRefusal)(page))
            throw (0, refusal_1.refusalError)(page);
        const { employeeIds, continuationToken: next } = page;
        for (const ids of (0, retryPolicy_1.chunk)(employeeIds, retryPolicy_1.MAX_PARALLEL_ACTIVITIES)) {
            const outcomes = (yield context.df.Task.all(ids.map((employeeId) => context.df.callActivityWithRetry(names_1.Activities.archiveEmployee, retry, {
                department,
                employeeId,
            }))));
            for (const outcome of outcomes) {
                if (outcome === 'notFound')
                    output.notFound++;
                else
                    output.archived++;
            }
        }
        continuationToken = next;
        context.df.setCustomStatus({ archived: output.archived });
    } while (continuationToken);
    return output;
}
//# sourceMappingURL=archiveDepartmentOrchestrator.js.map