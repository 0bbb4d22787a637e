"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readEmployeeIndexEntries = readEmployeeIndexEntries;
exports.auditEmployeeIndex = auditEmployeeIndex;
const employeeEntity_1 = require("../../directory/employeeEntity");
const paging_1 = require("../../directory/paging");
const indexEntities_1 = require("../../indexing/indexEntities");
const indexMaintenance_1 = require("../../indexing/indexMaintenance");
const errors_1 = require("../../storage/errors");
const keys_1 = require("../../storage/keys");
const indexDiff_1 = require("./indexDiff");
/** Bookkeeping of index entries that is not employee data. */
const BOOKKEEPING = ['SourceETag', 'TrackedEmails', 'TrackedLastNames'];
function wholePartition(partitionKey) {
    return { partitionKey, ge: '', lt: '\uffff' };
}
/**
 * Reads a department's index entries; call it BEFORE reading the primaries it is compared with.
 *
 * @throws {DomainError} for storage faults.
 */
async function readEmployeeIndexEntries(index, department) {
    const [byId, byEmail] = await Promise.all([
        (0, paging_1.readWholeRange)(index, wholePartition((0, keys_1.idIndexPartitionKey)(department))),
        (0, paging_1.readWholeRange)(index, wholePartition((0, keys_1.emailIndexPartitionKey)(department))),
    ]);
    return { byId, byEmail };
}
/**
 * Compares (and with `repair`, fixes) one department's `EmployeeIndex` entries against its
 * primary employees (read after the entries).
 *
 * @throws {DomainError} for storage faults; {@link ThrottledError} when an employee kept changing.
 */
async function auditEmployeeIndex(stores, department, stored, primaries, repair) {
    const expected = [];
    for (const primary of primaries) {
        const data = (0, employeeEntity_1.readEmployeeData)(primary);
        if (data)
            expected.push({ data, etag: primary.etag });
    }
    const ids = (0, indexDiff_1.diffIndex)((0, indexDiff_1.byKey)(expected, (e) => (0, indexEntities_1.idIndexEntity)(department, e.data, e.etag, (0, indexEntities_1.keysOf)(e.data)).rowKey), (0, indexDiff_1.byKey)(stored.byId, (e) => e.rowKey), (want, have) => {
        const entity = (0, indexEntities_1.idIndexEntity)(department, want.data, want.etag, (0, indexEntities_1.keysOf)(want.data));
        return ((0, indexDiff_1.dataFingerprint)(entity, BOOKKEEPING) === (0, indexDiff_1.dataFingerprint)(have, BOOKKEEPING) &&
            entity.TrackedEmails === have.TrackedEmails &&
            entity.TrackedLastNames === have.TrackedLastNames);
    });
    const emails = (0, indexDiff_1.diffIndex)((0, indexDiff_1.byKey)(expected, (e) => (0, indexEntities_1.emailIndexEntity)(department, e.data, e.etag).rowKey), (0, indexDiff_1.byKey)(stored.byEmail, (e) => e.rowKey), (want, have) => (0, indexDiff_1.dataFingerprint)((0, indexEntities_1.emailIndexEntity)(department, want.data, want.etag), BOOKKEEPING) ===
        (0, indexDiff_1.dataFingerprint)(have, BOOKKEEPING));
    const idCounts = {
        checked: ids.checked,
        missing: ids.missing.length,
        stale: ids.differing.length + ids.orphaned.length,
        repaired: 0,
    };
    const emailCounts = {
        checked: emails.checked,
        missing: emails.missing.length,
        stale: emails.differing.length + emails.orphaned.length,
        repaired: 0,
    };
    if (repair) {
        const reconcile = (employeeId) => (0, indexMaintenance_1.reconcileEmployeeIndexes)(stores, { department, employeeId });
        for (const missing of ids.missing) {
            await reconcile(missing.data.employeeId);
            idCounts.repaired++;
        }
        for (const { expected: want, stored: have } of ids.differing) {
            const rewrite = (0, indexEntities_1.idIndexEntity)(department, want.data, want.etag, (0, indexEntities_1.unionKeys)((0, indexEntities_1.readTracked)(have), (0, indexEntities_1.keysOf)(want.data)));
            const rewritten = await (0, errors_1.tookEffect)(() => stores.index.updateEntity(rewrite, 'Replace', { etag: have.etag }));
            if (!rewritten)
                continue;
            await reconcile(want.data.employeeId);
            idCounts.repaired++;
        }
        for (const orphan of ids.orphaned) {
            if (!(0, keys_1.isEmployeeId)(orphan.rowKey))
                continue;
            await reconcile(orphan.rowKey);
            idCounts.repaired++;
        }
        for (const missing of emails.missing) {
            await (0, indexMaintenance_1.reconcileEmail)(stores, department, missing.data.email);
            emailCounts.repaired++;
        }
        for (const { stored: have } of emails.differing) {
            const email = (0, keys_1.parseEmailIndexRowKey)(have.rowKey);
            const removed = email !== undefined &&
                (await (0, errors_1.tookEffect)(() => stores.index.deleteEntity(have.partitionKey, have.rowKey, { etag: have.etag })));
            if (!removed)
                continue;
            await (0, indexMaintenance_1.reconcileEmail)(stores, department, email);
            emailCounts.repaired++;
        }
        for (const orphan of emails.orphaned) {
            const email = (0, keys_1.parseEmailIndexRowKey)(orphan.rowKey);
            if (email === undefined)
                continue;
            await (0, indexMaintenance_1.reconcileEmail)(stores, department, email);
            emailCounts.repaired++;
        }
    }
    return { employeeIndexById: idCounts, employeeIndexByEmail: emailCounts };
}
//# sourceMappingURL=employeeIndexAudit.js.map