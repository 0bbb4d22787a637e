"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createEmployee = createEmployee;
/**
 * Creating one employee: one entity group transaction in the department's partition (see
 * insertEmployee.ts), then a `created` change for the asynchronous indexes.
 */
const node_crypto_1 = require("node:crypto");
const insertEmployee_1 = require("./insertEmployee");
const validation_1 = require("./validation");
/**
 * Creates an employee and publishes a `created` change.
 *
 * @param input - `{employeeId, firstName, lastName, email, age?}` (validated here).
 * @returns the employee and the new ETag of its entity.
 * @throws {ValidationError} for invalid input or department name.
 * @throws {NotFoundError} `DepartmentNotFound`.
 * @throws {ConflictError} `EmployeeExists`, `EmailTaken`, `LastNameIndexFull`.
 * @throws {ThrottledError} when the department kept changing concurrently, or storage is busy.
 */
async function createEmployee(context, department, input) {
    const data = (0, validation_1.validateInput)(validation_1.newEmployeeSchema, input, 'body');
    const { value, etag } = await (0, insertEmployee_1.insertEmployee)(context, department, data, {
        writeId: (0, node_crypto_1.randomUUID)(),
    });
    await context.changes.publish([{ department, employeeId: data.employeeId, reason: 'created' }]);
    return { value, etag };
}
//# sourceMappingURL=createEmployee.js.map