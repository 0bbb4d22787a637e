"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_IMPORT_ROWS = void 0;
exports.importEmployees = importEmployees;
/**
 * Bulk import of up to 1,000 employees into one department.
 *
 * Rows are validated one by one; invalid rows and duplicates (same id or email twice in the
 * import, or already in the department) are reported in `failed` and never written. Valid rows
 * are written in chunks (see importPlan.ts), each ONE entity group transaction holding the
 * employees, their email copies, their last-name index entities and the department's count, so
 * every chunk is all-or-nothing with its indexes.
 *
 * Chunks run one after another: each is conditional on the department entity's ETag, and the new
 * ETag comes back in the previous chunk's transaction response, so no read is needed between
 * chunks, and no chunk ever loses a race against another chunk of the same import (parallel
 * chunks would all contend for that one entity; see docs/directory.md for the measurements). A
 * row already in the department makes its chunk fail as a whole; the row is dropped from the
 * chunk and the chunk is sent again.
 */
const node_crypto_1 = require("node:crypto");
const errors_1 = require("../errors");
const keys_1 = require("../storage/keys");
const departmentEntity_1 = require("./departmentEntity");
const directoryErrors_1 = require("./directoryErrors");
const employeeEntity_1 = require("./employeeEntity");
const employeeState_1 = require("./employeeState");
const importPlan_1 = require("./importPlan");
const lastNameIndex_1 = require("./lastNameIndex");
const paging_1 = require("./paging");
const state_1 = require("./state");
const transaction_1 = require("./transaction");
const validation_1 = require("./validation");
/** Most rows one import call accepts. */
exports.MAX_IMPORT_ROWS = 1000;
function failure(position, employeeId, code, message) {
    return {
        position,
        employeeId: typeof employeeId === 'string' ? employeeId : null,
        error: { code, message },
    };
}
/** Index entities of the given names: point reads for a few, one range read for many. */
async function readIndexes(table, partitionKey, names) {
    const found = new Map();
    const keep = (entity) => {
        const index = entity && (0, lastNameIndex_1.readLastNameIndex)(entity);
        if (entity && index)
            found.set(index.lastName, { value: index, etag: entity.etag });
    };
    if (names.length <= 8) {
        (await Promise.all(names.map((n) => (0, state_1.readEntity)(table, partitionKey, (0, keys_1.lastNameRowKey)(n))))).forEach(keep);
    }
    else {
        const keys = names.map(keys_1.lastNameRowKey).sort();
        const range = {
            partitionKey,
            ge: keys[0],
            lt: (0, paging_1.codePointPrefixRange)(keys[keys.length - 1]).lt,
        };
        const wanted = new Set(names);
        (await (0, paging_1.readWholeRange)(table, range))
            .filter((e) => wanted.has(String(e.LastName)))
            .forEach(keep);
    }
    return found;
}
/** Validates rows and drops duplicates within the import, reporting each refused row. */
function screenRows(rows, failed) {
    const valid = [];
    const ids = new Set();
    const emails = new Set();
    rows.forEach((raw, i) => {
        const parsed = validation_1.newEmployeeSchema.safeParse(raw);
        if (!parsed.success) {
            const id = raw?.employeeId;
            failed.push(failure(i, id, 'InvalidInput', (0, validation_1.describeIssues)(parsed.error.issues, `employees[${i}]`).message));
            return;
        }
        const row = parsed.data;
        const email = (0, keys_1.normalizeEmail)(row.email);
        if (ids.has(row.employeeId)) {
            failed.push(failure(i, row.employeeId, 'DuplicateEmployeeId', `employees[${i}]: employee ${row.employeeId} appears more than once in this import.`));
        }
        else if (emails.has(email)) {
            failed.push(failure(i, row.employeeId, 'DuplicateEmail', `employees[${i}]: email ${JSON.stringify(row.email)} appears more than once in this import.`));
        }
        else {
            ids.add(row.employeeId);
            emails.add(email);
            valid.push({
                ...row,
                position: i,
                lastName: (0, keys_1.normalizeLastName)(row.lastName),
                displayLastName: row.lastName,
                // Two entities, UTF-16 strings at 2 bytes a character plus property names and framing.
                bytes: 2 * (600 + 2 * (row.firstName.length + row.lastName.length + row.email.length)),
            });
        }
    });
    return valid.sort((a, b) => a.lastName < b.lastName
        ? -1
        : a.lastName > b.lastName
            ? 1
            : a.employeeId < b.employeeId
                ? -1
                : 1);
}
/**
 * Imports employees into an existing department and publishes an `imported` change per created
 * employee.
 *
 * @param rows - up to 1,000 employee bodies (each validated here).
 * @returns how many were created and why the others were not.
 * @throws {ValidationError} for an invalid department name or more than 1,000 rows.
 * @throws {NotFoundError} `DepartmentNotFound` (nothing is written).
 * @throws {DomainError} for storage faults before anything was written; later faults are reported
 *   per row in `failed`, with the chunks already written kept.
 */
async function importEmployees(context, department, rows) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    if (rows.length > exports.MAX_IMPORT_ROWS) {
        throw new errors_1.ValidationError(`body.employees: must hold at most ${exports.MAX_IMPORT_ROWS} employees per call.`, 'body.employees', 'TooManyRows');
    }
    const failed = [];
    const valid = screenRows(rows, failed);
    const report = (created) => ({
        created,
        failed: failed
            .sort((a, b) => a.position - b.position)
            .map(({ employeeId, error }) => ({ employeeId, error })),
    });
    const table = await context.table();
    let dept = await (0, state_1.loadDepartment)(context, department, false);
    if (!dept)
        throw (0, directoryErrors_1.departmentNotFound)(department);
    if (valid.length === 0)
        return report(0);
    const names = [...new Set(valid.map((r) => r.lastName))];
    const indexes = await readIndexes(table, partitionKey, names);
    const finalIds = new Map();
    for (const row of valid)
        finalIds.set(row.lastName, (finalIds.get(row.lastName) ?? indexes.get(row.lastName)?.value.ids.length ?? 0) + 1);
    const chunks = (0, importPlan_1.planChunks)(valid, (name) => 400 + 12 * (finalIds.get(name) ?? 0));
    let created = 0;
    for (let c = 0; c < chunks.length; c++) {
        const outcome = await writeChunk(context, table, department, partitionKey, chunks[c], dept, indexes, failed);
        if ('error' in outcome) {
            // Storage gave up (after the SDK's retries): this chunk and the rest are not written.
            for (const row of chunks.slice(c).flat()) {
                failed.push(failure(row.position, row.employeeId, outcome.error.code, outcome.error.message));
            }
            break;
        }
        dept = outcome.department;
        created += outcome.created.length;
        if (outcome.created.length > 0) {
            const changes = outcome.created.map((row) => ({
                department,
                employeeId: row.employeeId,
                reason: 'imported',
            }));
            await context.changes.publish(changes);
        }
    }
    return report(created);
}
/** Writes one chunk, dropping rows that collide with stored employees; bounded retries. */
async function writeChunk(context, table, department, partitionKey, chunkRows, startDepartment, indexes, failed) {
    let rows = [...chunkRows];
    let dept = startDepartment;
    const writeId = (0, node_crypto_1.randomUUID)();
    const maxAttempts = chunkRows.length + context.maxConflictAttempts;
    for (let attempt = 1; attempt <= maxAttempts && rows.length > 0; attempt++) {
        if (attempt > 2)
            await new Promise((r) => setTimeout(r, Math.random() * Math.min(250, 4 * 2 ** Math.min(attempt, 8))));
        const plan = new transaction_1.PlannedTransaction();
        const idsByName = new Map();
        for (const row of rows)
            idsByName.set(row.lastName, [...(idsByName.get(row.lastName) ?? []), row.employeeId]);
        // Names whose index would overflow: their rows fail, the others go ahead.
        for (const [name, added] of idsByName) {
            try {
                (0, lastNameIndex_1.assertIndexCapacity)(name, (0, lastNameIndex_1.withIds)(indexes.get(name)?.value.ids ?? [], added).length);
            }
            catch (error) {
                if (!(error instanceof errors_1.DomainError))
                    throw error;
                for (const row of rows.filter((r) => r.lastName === name))
                    failed.push(failure(row.position, row.employeeId, error.code, error.message));
                rows = rows.filter((r) => r.lastName !== name);
                idsByName.delete(name);
            }
        }
        if (rows.length === 0)
            break;
        for (const row of rows) {
            const primary = (0, employeeEntity_1.employeeEntity)(partitionKey, {
                employeeId: row.employeeId,
                firstName: row.firstName,
                lastName: row.displayLastName,
                email: row.email,
                age: row.age,
            }, { isManager: false, writeId });
            plan.add(['create', primary], { kind: 'employee', row });
            plan.add(['create', (0, employeeEntity_1.emailCopyEntity)(primary)], { kind: 'email', row });
        }
        const nextIndexes = new Map();
        for (const [name, added] of idsByName) {
            const current = indexes.get(name);
            const next = { lastName: name, ids: (0, lastNameIndex_1.withIds)(current?.value.ids ?? [], added) };
            nextIndexes.set(name, next);
            const entity = (0, lastNameIndex_1.lastNameIndexEntity)(partitionKey, next);
            plan.add(current ? ['update', entity, 'Replace', { etag: current.etag }] : ['create', entity], { kind: 'index', name });
        }
        const employeeCount = dept.value.employeeCount + rows.length;
        plan.add(['update', (0, departmentEntity_1.departmentMerge)(department, { employeeCount }), 'Merge', { etag: dept.etag }], { kind: 'department' });
        try {
            const etags = await (0, transaction_1.submitPlanned)(table, plan);
            plan.roles.forEach((role, i) => {
                const etag = etags[i];
                if (role.kind === 'index' && etag) {
                    const version = { value: nextIndexes.get(role.name), etag };
                    indexes.set(role.name, version);
                    (0, state_1.rememberLastNameIndex)(context, department, version);
                }
            });
            const departmentEtag = etags[etags.length - 1];
            const nextDept = departmentEtag
                ? { value: { ...dept.value, employeeCount }, etag: departmentEtag }
                : await (0, state_1.loadDepartment)(context, department, false);
            if (!nextDept)
                throw (0, directoryErrors_1.departmentNotFound)(department);
            (0, state_1.rememberDepartment)(context, department, nextDept);
            return { created: rows, department: nextDept };
        }
        catch (error) {
            if (error instanceof errors_1.DomainError)
                return { error };
            if (!(error instanceof transaction_1.TransactionFailure))
                throw error;
            (0, state_1.forgetVersions)(context, department, idsByName.keys());
            const role = error.role;
            if (role?.kind === 'employee' && error.status === 409) {
                const existing = await (0, employeeState_1.readEmployeeState)(table, partitionKey, role.row.employeeId);
                if (existing?.meta.writeId === writeId) {
                    // An earlier try of this very transaction committed (its answer was lost): all rows are in.
                    const fresh = await (0, state_1.loadDepartment)(context, department, false);
                    if (!fresh)
                        throw (0, directoryErrors_1.departmentNotFound)(department);
                    for (const [name, version] of await readIndexes(table, partitionKey, [
                        ...idsByName.keys(),
                    ]))
                        indexes.set(name, version);
                    return { created: rows, department: fresh };
                }
                const err = (0, directoryErrors_1.employeeExists)(department, role.row.employeeId);
                failed.push(failure(role.row.position, role.row.employeeId, err.code, err.message));
                rows = rows.filter((r) => r !== role.row);
                continue;
            }
            if (role?.kind === 'email' && error.status === 409) {
                const err = (0, directoryErrors_1.emailTaken)(department, role.row.email);
                failed.push(failure(role.row.position, role.row.employeeId, err.code, err.message));
                rows = rows.filter((r) => r !== role.row);
                continue;
            }
            // Someone else changed the department or an index entity: read them again and resend.
            const fresh = await (0, state_1.loadDepartment)(context, department, false);
            if (!fresh)
                throw (0, directoryErrors_1.departmentNotFound)(department);
            dept = fresh;
            const names = [...idsByName.keys()];
            const reread = await readIndexes(table, partitionKey, names);
            for (const name of names) {
                const version = reread.get(name);
                if (version)
                    indexes.set(name, version);
                else
                    indexes.delete(name);
            }
        }
    }
    if (rows.length === 0)
        return { created: [], department: dept };
    return { error: (0, state_1.contendedError)(`Department "${department}"`) };
}
//# sourceMappingURL=importEmployees.js.map