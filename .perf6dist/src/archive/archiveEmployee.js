"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.archiveEmployee = archiveEmployee;
exports.getArchivedEmployee = getArchivedEmployee;
/**
 * Archiving one employee: an eventually consistent transaction across two tables (guide:
 * "Eventually consistent transactions pattern"). `Employees` and `EmployeesArchive` cannot share an
 * entity group transaction, so the move is a sequence of idempotent steps driven by a queue
 * message, which the host redelivers until the whole sequence has run once to the end:
 *
 * 1. read the employee and its yearly reviews from `Employees` (two requests, in parallel);
 * 2. insert-or-replace them into `EmployeesArchive` under the same keys, in one entity group
 *    transaction (they share the department's partition there too);
 * 3. delete the employee from the directory — employee, email copy, department count,
 *    same-partition last-name index and the reviews read in step 1 in one entity group
 *    transaction — if it is still the version read in step 1, so a change made meanwhile is
 *    archived too (the sequence starts over). The directory then publishes an `archived` change,
 *    and the index worker removes the other indexes.
 *
 * A replay after a crash anywhere ends in the same state: if the employee is already gone from the
 * directory and present in the archive, the only thing left is the `archived` change, published
 * again (the crash may have come between the delete and the publish). That is why a caller that
 * passes {@link ArchiveDependencies.changes} lets the delete skip the directory's pre-write
 * announcement: the archive message itself is the durable record that the change will be
 * published. The employee's photo blob is kept: the archived entity still names it (`PhotoBlob`).
 *
 * Reused by the department-archive orchestration (one activity per employee).
 */
const data_tables_1 = require("@azure/data-tables");
const employeeEntity_1 = require("../directory/employeeEntity");
const entityTypes_1 = require("../directory/entityTypes");
const state_1 = require("../directory/state");
const tables_1 = require("../directory/tables");
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const SYSTEM_PROPERTIES = new Set(['etag', 'timestamp', 'odata.etag', 'odata.metadata']);
const MAX_ROUNDS = 10;
/** Operations of one entity group transaction. */
const MAX_TRANSACTION_OPERATIONS = 100;
function archivable(entity) {
    const copy = {
        partitionKey: entity.partitionKey,
        rowKey: entity.rowKey,
    };
    for (const [name, value] of Object.entries(entity)) {
        if (!SYSTEM_PROPERTIES.has(name))
            copy[name] = value;
    }
    return copy;
}
/**
 * Moves one employee from the directory to the archive; safe to run any number of times.
 *
 * @returns `archived` when this run moved it, `alreadyArchived` when an earlier run (or a crash
 *   after the delete) already had, `notFound` when it is in neither table.
 * @throws {ValidationError} for an invalid department or id.
 * @throws {ThrottledError} when the employee kept changing during the move.
 * @throws {DomainError} for storage faults (the queue message is retried).
 */
async function archiveEmployee(dependencies, department, employeeId, options = {}) {
    const { employees, archive, directory, changes } = dependencies;
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const rowKey = (0, keys_1.employeeRowKey)(employeeId);
    await Promise.all([(0, tables_1.ensureTable)(employees), (0, tables_1.ensureTable)(archive)]);
    for (let round = 1; round <= MAX_ROUNDS; round++) {
        // 1. Read (the reviews query is wasted only when the employee is gone: a replay).
        const [current, reviews] = await Promise.all([
            (0, state_1.readEntity)(employees, partitionKey, rowKey),
            readReviews(employees, partitionKey, employeeId),
        ]);
        await options.afterStep?.('read');
        if (!current || !(0, entityTypes_1.isEntityOfType)(current, entityTypes_1.EntityTypes.employee)) {
            const archived = await (0, state_1.readEntity)(archive, partitionKey, rowKey);
            const employee = archived ? (0, employeeEntity_1.storedToEmployee)(archived) : undefined;
            if (!employee)
                return { outcome: 'notFound' };
            // A crash may have come between the delete and its change message: publish it again.
            await changes?.publish([
                {
                    department,
                    employeeId,
                    reason: 'archived',
                    previous: { email: employee.email, lastName: employee.lastName },
                },
            ]);
            return { outcome: 'alreadyArchived', employee };
        }
        const employee = (0, employeeEntity_1.storedToEmployee)(current);
        if (!employee)
            return { outcome: 'notFound' };
        // 2. Insert-or-replace into the archive (the employee last, so its presence means complete).
        await copyToArchive(archive, [
            ...reviews.map(archivable),
            { ...archivable(current), ArchivedAt: new Date() },
        ]);
        await options.afterStep?.('archived');
        // 3. Remove from the directory, only if it is still the version we archived.
        try {
            await directory.delete(department, employeeId, {
                mustExist: false,
                ifMatch: current.etag,
                reason: 'archived',
                reviewRowKeys: reviews.map((review) => review.rowKey),
                announce: changes === undefined,
            });
        }
        catch (error) {
            if (error instanceof errors_1.PreconditionFailedError)
                continue; // changed meanwhile: archive again
            throw error;
        }
        await options.afterStep?.('removed');
        return { outcome: 'archived', employee };
    }
    throw new errors_1.ThrottledError(`Employee ${employeeId} kept changing while it was archived.`, 5);
}
/**
 * Upserts same-partition entities in entity group transactions of up to 100, in order: the last
 * one (the employee) is written by the last transaction.
 */
async function copyToArchive(archive, entities) {
    for (let start = 0; start < entities.length; start += MAX_TRANSACTION_OPERATIONS) {
        const chunk = entities.slice(start, start + MAX_TRANSACTION_OPERATIONS);
        await (0, errors_2.withStorageErrors)(async () => {
            if (chunk.length === 1)
                await archive.upsertEntity(chunk[0], 'Replace');
            else
                await archive.submitTransaction(chunk.map((entity) => ['upsert', entity, 'Replace']));
        });
    }
}
async function readReviews(table, partitionKey, employeeId) {
    const range = (0, keys_1.reviewRowKeyRange)(employeeId);
    return (0, errors_2.withStorageErrors)(async () => {
        const reviews = [];
        for await (const entity of table.listEntities({
            queryOptions: {
                filter: (0, data_tables_1.odata) `PartitionKey eq ${partitionKey} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
            },
        })) {
            reviews.push({ ...entity, partitionKey, rowKey: entity.rowKey ?? '' });
        }
        return reviews;
    });
}
/**
 * An archived employee.
 *
 * @throws {NotFoundError} `ArchivedEmployeeNotFound` until the move has happened.
 * @throws {DomainError} for storage faults.
 */
async function getArchivedEmployee(archive, department, employeeId) {
    await (0, tables_1.ensureTable)(archive);
    const entity = await (0, state_1.readEntity)(archive, (0, keys_1.departmentPartitionKey)(department), (0, keys_1.employeeRowKey)(employeeId));
    const employee = entity ? (0, employeeEntity_1.storedToEmployee)(entity) : undefined;
    if (!employee) {
        throw new errors_1.NotFoundError('ArchivedEmployeeNotFound', `Employee ${employeeId} of department "${department}" is not in the archive (yet).`);
    }
    return employee;
}
//# sourceMappingURL=archiveEmployee.js.map