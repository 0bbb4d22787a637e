"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.moveEmployeeOrchestrator = moveEmployeeOrchestrator;
const names_1 = require("../names");
const refusal_1 = require("../refusal");
const retryPolicy_1 = require("../retryPolicy");
function settled(value) {
    if ((0, refusal_1.isRefusal)(value))
        throw (0, refusal_1.refusalError)(value);
    return value;
}
/** The move orchestrator (input {@link MoveRequest}). */
function* moveEmployeeOrchestrator(context) {
    const request = context.df.getInput();
    const move = {
        department: request.department,
        employeeId: request.employeeId,
        toDepartment: request.toDepartment,
        moveId: context.df.instanceId,
    };
    const retry = (0, retryPolicy_1.activityRetryOptions)();
    const summary = (moved, reviewsCopied) => ({
        department: move.department,
        toDepartment: move.toDepartment,
        employeeId: move.employeeId,
        moved,
        reviewsCopied,
    });
    context.df.setCustomStatus({ step: 'validate' });
    const plan = settled(yield context.df.callActivityWithRetry(names_1.Activities.validateMove, retry, move));
    if (plan.state === 'alreadyMoved')
        return summary(false, 0);
    context.df.setCustomStatus({ step: 'copy' });
    const copy = settled(yield context.df.callActivityWithRetry(names_1.Activities.copyToTarget, retry, move));
    const target = { department: move.toDepartment, employeeId: move.employeeId };
    settled(yield context.df.callActivityWithRetry(names_1.Activities.reindexEmployee, retry, target));
    context.df.setCustomStatus({ step: 'remove' });
    settled(yield context.df.callActivityWithRetry(names_1.Activities.removeFromSource, retry, move));
    const source = {
        department: move.department,
        employeeId: move.employeeId,
        previous: plan.employee,
    };
    settled(yield context.df.callActivityWithRetry(names_1.Activities.reindexEmployee, retry, source));
    context.df.setCustomStatus({ step: 'done' });
    return summary(true, copy.reviews);
}
//# sourceMappingURL=moveOrchestrator.js.map