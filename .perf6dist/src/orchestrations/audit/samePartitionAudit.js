"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.auditSamePartitionIndexes = auditSamePartitionIndexes;
const employeeQueries_1 = require("../../directory/employeeQueries");
const indexProjection_1 = require("../../directory/indexProjection");
const lastNameIndex_1 = require("../../directory/lastNameIndex");
const paging_1 = require("../../directory/paging");
const errors_1 = require("../../storage/errors");
const keys_1 = require("../../storage/keys");
const indexDiff_1 = require("./indexDiff");
/**
 * Compares (and with `repair`, fixes) the email copies and last-name index entities of one
 * department. Returns the primaries it read, for the audits that follow.
 *
 * @throws {ConflictError} `LastNameIndexFull` if a last name has more ids than an index entity holds.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
async function auditSamePartitionIndexes(table, department, repair) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const [storedCopies, storedIndexes] = await Promise.all([
        (0, paging_1.readWholeRange)(table, { partitionKey, ...(0, keys_1.emailRowKeyRange)() }),
        (0, paging_1.readWholeRange)(table, { partitionKey, ...(0, keys_1.lastNameRowKeyRange)() }),
    ]);
    const primaries = (await (0, paging_1.readWholeRange)(table, { partitionKey, ...(0, keys_1.employeeRowKeyRange)() })).filter(employeeQueries_1.isPrimaryEmployee);
    const expected = (0, indexProjection_1.expectedSamePartitionIndexes)(primaries);
    const copies = (0, indexDiff_1.diffIndex)((0, indexDiff_1.byKey)(expected.emailCopies, (e) => e.rowKey), (0, indexDiff_1.byKey)(storedCopies, (e) => e.rowKey), (want, have) => (0, indexDiff_1.dataFingerprint)(want) === (0, indexDiff_1.dataFingerprint)(have));
    const indexes = (0, indexDiff_1.diffIndex)((0, indexDiff_1.byKey)(expected.lastNameIndexes, (e) => e.rowKey), (0, indexDiff_1.byKey)(storedIndexes, (e) => e.rowKey), (want, have) => JSON.stringify((0, lastNameIndex_1.readLastNameIndex)(want)) === JSON.stringify((0, lastNameIndex_1.readLastNameIndex)(have)));
    return {
        counts: {
            emailCopies: await settle(table, copies, repair),
            lastNameEntities: await settle(table, indexes, repair),
        },
        snapshot: { primaries },
    };
}
/** Counts a diff and, with `repair`, applies it with conditional writes. */
async function settle(table, diff, repair) {
    const counts = {
        checked: diff.checked,
        missing: diff.missing.length,
        stale: diff.differing.length + diff.orphaned.length,
        repaired: 0,
    };
    if (!repair)
        return counts;
    for (const entity of diff.missing) {
        if (await (0, errors_1.tookEffect)(() => table.createEntity(entity)))
            counts.repaired++;
    }
    for (const { expected, stored } of diff.differing) {
        const write = () => table.updateEntity(expected, 'Replace', { etag: stored.etag });
        if (await (0, errors_1.tookEffect)(write))
            counts.repaired++;
    }
    for (const stored of diff.orphaned) {
        const remove = () => table.deleteEntity(stored.partitionKey, stored.rowKey, { etag: stored.etag });
        if (await (0, errors_1.tookEffect)(remove))
            counts.repaired++;
    }
    return counts;
}
//# sourceMappingURL=samePartitionAudit.js.map