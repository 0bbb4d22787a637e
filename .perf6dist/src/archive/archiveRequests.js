"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseArchiveRequest = parseArchiveRequest;
exports.requestArchive = requestArchive;
const zod_1 = require("zod");
const directoryErrors_1 = require("../directory/directoryErrors");
const employeeState_1 = require("../directory/employeeState");
const tables_1 = require("../directory/tables");
const queueChangeSink_1 = require("../indexing/queueChangeSink");
const keys_1 = require("../storage/keys");
const queue_1 = require("../storage/queue");
const messageSchema = zod_1.z.object({
    v: zod_1.z.literal(1),
    department: zod_1.z.string().refine(keys_1.isDepartmentName),
    employeeId: zod_1.z.string().refine(keys_1.isEmployeeId),
});
/**
 * Reads an `archive-requests` payload (decoded from base64 JSON by the trigger).
 *
 * @throws {Error} naming the problem for anything else (the host poisons it after its retries).
 */
function parseArchiveRequest(payload) {
    const parsed = messageSchema.safeParse(payload);
    if (!parsed.success) {
        throw new Error(`Not an archive request: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    return parsed.data;
}
/**
 * Queues the archiving of an existing employee.
 *
 * @throws {ValidationError} for an invalid department or id.
 * @throws {NotFoundError} `EmployeeNotFound` when the employee is not in the directory.
 * @throws {DomainError} for storage faults.
 */
async function requestArchive(employees, queue, department, employeeId) {
    await (0, tables_1.ensureTable)(employees);
    const state = await (0, employeeState_1.readEmployeeState)(employees, (0, keys_1.departmentPartitionKey)(department), employeeId);
    if (!state)
        throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
    await (0, queueChangeSink_1.ensureQueue)(queue);
    const message = { v: 1, department, employeeId };
    await (0, queue_1.sendJsonMessage)(queue, message);
}
//# sourceMappingURL=archiveRequests.js.map