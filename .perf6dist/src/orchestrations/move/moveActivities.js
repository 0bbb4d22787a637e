"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateMoveActivity = validateMoveActivity;
exports.copyToTargetActivity = copyToTargetActivity;
exports.removeFromSourceActivity = removeFromSourceActivity;
exports.reindexEmployeeActivity = reindexEmployeeActivity;
/**
 * The move's activities: each a small, idempotent call into a service, with permanent domain
 * errors returned as refusals (see ../refusal.ts) so the orchestrator fails at once with the reason.
 */
const indexMaintenance_1 = require("../../indexing/indexMaintenance");
const refusal_1 = require("../refusal");
const copyToTarget_1 = require("./copyToTarget");
const moveSteps_1 = require("./moveSteps");
/** Activity: {@link validateMove}. */
function validateMoveActivity(services, move) {
    return (0, refusal_1.refuseOnPermanentError)(() => (0, moveSteps_1.validateMove)(services.directory, move));
}
/** Activity: {@link copyEmployeeToTarget}. */
function copyToTargetActivity(services, move) {
    return (0, refusal_1.refuseOnPermanentError)(() => (0, copyToTarget_1.copyEmployeeToTarget)(services.directory, move));
}
/** Activity: {@link removeFromSource}. */
function removeFromSourceActivity(services, move) {
    return (0, refusal_1.refuseOnPermanentError)(() => (0, moveSteps_1.removeFromSource)(services.directory, move));
}
/**
 * Activity: makes the employee's entries in the indexes outside the department partition match
 * its current primary entity in `input.department` (present: added; gone: removed), with the
 * indexing code's reconcile — the same function the `index-updates` worker runs.
 */
async function reindexEmployeeActivity(services, input) {
    const result = await (0, indexMaintenance_1.reconcileEmployeeIndexes)(services.indexStores, input);
    return { present: result.present };
}
//# sourceMappingURL=moveActivities.js.map