"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handleIndexUpdateMessage = handleIndexUpdateMessage;
/**
 * Handling one `index-updates` message: every employee it names is reconciled once (several
 * changes of one employee in a batch collapse into one reconcile with all their `previous` hints),
 * different employees in parallel.
 */
const mapBounded_1 = require("../logins/mapBounded");
const indexMessages_1 = require("./indexMessages");
const indexMaintenance_1 = require("./indexMaintenance");
/**
 * Reconciles the indexes of every employee the message names.
 *
 * @throws {Error} for a payload that is not an index-updates message (the host poisons it).
 * @throws {DomainError} for storage faults (the host retries the message).
 */
async function handleIndexUpdateMessage(stores, payload, onGone) {
    const message = (0, indexMessages_1.parseIndexUpdateMessage)(payload);
    const byEmployee = new Map();
    for (const change of message.changes) {
        const key = `${change.department}/${change.employeeId}`;
        const group = byEmployee.get(key) ?? {
            department: change.department,
            employeeId: change.employeeId,
            previous: [],
        };
        if (change.previous)
            group.previous.push(change.previous);
        byEmployee.set(key, group);
    }
    let gone = 0;
    await (0, mapBounded_1.mapBounded)([...byEmployee.values()], 8, async (request) => {
        const result = await (0, indexMaintenance_1.reconcileEmployeeIndexes)(stores, request);
        if (!result.present) {
            gone++;
            await onGone?.(request.department, request.employeeId);
        }
    });
    return { employees: byEmployee.size, gone };
}
//# sourceMappingURL=indexUpdates.js.map