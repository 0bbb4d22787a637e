"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reconcileEmployeeIndexes = reconcileEmployeeIndexes;
exports.reconcileEmail = reconcileEmail;
const employeeEntity_1 = require("../directory/employeeEntity");
const employeeState_1 = require("../directory/employeeState");
const entityTypes_1 = require("../directory/entityTypes");
const state_1 = require("../directory/state");
const tables_1 = require("../directory/tables");
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const indexEntities_1 = require("./indexEntities");
const MAX_ATTEMPTS = 20;
/**
 * Makes every index entry of one employee match the primary entities (idempotent, order-free).
 *
 * @throws {ThrottledError} when the employee kept changing for {@link MAX_ATTEMPTS} rounds.
 * @throws {DomainError} for storage faults left after the SDK's retries (the message is retried).
 */
async function reconcileEmployeeIndexes(stores, request) {
    const { department, employeeId } = request;
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    await Promise.all([(0, tables_1.ensureTable)(stores.employees), (0, tables_1.ensureTable)(stores.index)]);
    const idKeys = { pk: (0, keys_1.idIndexPartitionKey)(department), rk: (0, keys_1.idIndexRowKey)(employeeId) };
    const previous = [request.previous ?? []].flat();
    const hinted = {
        emails: previous.flatMap((p) => (p.email ? [(0, keys_1.normalizeEmail)(p.email)] : [])),
        lastNames: previous.flatMap((p) => (p.lastName ? [(0, keys_1.normalizeLastName)(p.lastName)] : [])),
    };
    // Keys this invocation itself may have written entries for (kept across rounds).
    let touched = { emails: [], lastNames: [] };
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const [primary, entry] = await Promise.all([
            (0, employeeState_1.readEmployeeState)(stores.employees, partitionKey, employeeId),
            (0, state_1.readEntity)(stores.index, idKeys.pk, idKeys.rk),
        ]);
        const tracked = (0, indexEntities_1.readTracked)(entry);
        const wanted = primary ? (0, indexEntities_1.keysOf)(primary.data) : { emails: [], lastNames: [] };
        const candidates = (0, indexEntities_1.unionKeys)(tracked, hinted, wanted, touched);
        if (primary &&
            entry?.SourceETag === primary.etag &&
            tracked.emails.length === 1 &&
            tracked.lastNames.length === 1 &&
            (0, indexEntities_1.tracks)(wanted, candidates) &&
            // Entries this call wrote in an earlier round may be stale: verify them again.
            touched.emails.length === 0) {
            return { present: true, attempts: attempt }; // already reconciled for this version
        }
        let entryEtag = entry?.etag;
        if (primary && !(0, indexEntities_1.tracks)(tracked, wanted)) {
            // Write-ahead: record the keys we are about to add entries for (without `SourceETag`: not
            // verified yet, so a crash before the final write cannot pass for a finished reconcile).
            const intent = (0, indexEntities_1.idIndexEntity)(department, primary.data, undefined, (0, indexEntities_1.unionKeys)(tracked, wanted));
            let written;
            const recorded = await (0, errors_2.tookEffect)(async () => {
                written = entry
                    ? await stores.index.updateEntity(intent, 'Replace', { etag: entry.etag })
                    : await stores.index.createEntity(intent);
            });
            if (!recorded)
                continue;
            entryEtag = written?.etag;
        }
        touched = (0, indexEntities_1.unionKeys)(touched, wanted);
        // Emails and last names are different entities: reconcile them side by side.
        const memberOf = wanted.lastNames[0];
        const current = primary ? wanted.emails[0] : undefined;
        await Promise.all([
            ...candidates.emails.map((email) => email === current
                ? copyCurrentEmail(stores, department, employeeId, email)
                : reconcileEmail(stores, department, email)),
            ...candidates.lastNames.map((lastName) => lastName === memberOf
                ? stores.lastNames.add(lastName, { department, employeeId })
                : stores.lastNames.remove(lastName, { department, employeeId })),
        ]);
        // Also the check of the current email's entry: its email copy changes only with the primary.
        const now = await (0, state_1.readEntity)(stores.employees, partitionKey, (0, keys_1.employeeRowKey)(employeeId), [
            'EmployeeId',
        ]);
        if (now?.etag !== primary?.etag)
            continue; // changed meanwhile: reconcile the new version
        const settled = primary
            ? await (0, errors_2.tookEffect)(() => stores.index.updateEntity((0, indexEntities_1.idIndexEntity)(department, primary.data, primary.etag, wanted), 'Replace', { etag: entryEtag }))
            : entry
                ? await (0, errors_2.tookEffect)(() => stores.index.deleteEntity(idKeys.pk, idKeys.rk, { etag: entry.etag }))
                : true;
        if (!settled)
            continue;
        return { present: primary !== undefined, attempts: attempt };
    }
    throw new errors_1.ThrottledError(`Employee ${employeeId} of "${department}" kept changing while its indexes were updated.`, 5);
}
/**
 * The by-email entry of the address the primary holds, copied from its email copy without the
 * read-compare-recheck of {@link reconcileEmail}: the copy is rewritten in the same transaction as
 * the primary by every write, so the caller's final check that the primary is unchanged also
 * proves the copy was current when this upsert ran. Falls back to {@link reconcileEmail} when the
 * copy names someone else (the primary moved on; the caller's check will restart).
 *
 * @throws {DomainError} for storage faults.
 */
async function copyCurrentEmail(stores, department, employeeId, email) {
    const source = await (0, state_1.readEntity)(stores.employees, (0, keys_1.departmentPartitionKey)(department), (0, keys_1.emailRowKey)(email));
    const data = source && (0, entityTypes_1.isEntityOfType)(source, entityTypes_1.EntityTypes.employeeEmail)
        ? (0, employeeEntity_1.readEmployeeData)(source)
        : undefined;
    if (!source || data?.employeeId !== employeeId) {
        await reconcileEmail(stores, department, email);
        return;
    }
    await (0, errors_2.tookEffect)(() => stores.index.upsertEntity((0, indexEntities_1.emailIndexEntity)(department, data, source.etag), 'Replace'));
}
/**
 * Makes the by-email index entry of one address match the department's email copy in
 * `Employees` (whoever holds the address now), or removes it when nobody does.
 *
 * @throws {ThrottledError} when the address kept changing; {@link DomainError} for storage faults.
 */
async function reconcileEmail(stores, department, email) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const sourceRowKey = (0, keys_1.emailRowKey)(email);
    const target = { pk: (0, keys_1.emailIndexPartitionKey)(department), rk: (0, keys_1.emailIndexRowKey)(email) };
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const source = await (0, state_1.readEntity)(stores.employees, partitionKey, sourceRowKey);
        const data = source && (0, entityTypes_1.isEntityOfType)(source, entityTypes_1.EntityTypes.employeeEmail)
            ? (0, employeeEntity_1.readEmployeeData)(source)
            : undefined;
        const stored = await (0, state_1.readEntity)(stores.index, target.pk, target.rk, ['SourceETag']);
        if (data && source) {
            if (stored?.SourceETag === source.etag)
                return;
            await (0, errors_2.tookEffect)(() => stores.index.upsertEntity((0, indexEntities_1.emailIndexEntity)(department, data, source.etag), 'Replace'));
        }
        else {
            if (!stored)
                return;
            const removed = await (0, errors_2.tookEffect)(() => stores.index.deleteEntity(target.pk, target.rk, { etag: stored.etag }));
            if (!removed)
                continue;
        }
        // The copy may have changed while we wrote: only stop once what we copied is still current.
        const check = await (0, state_1.readEntity)(stores.employees, partitionKey, sourceRowKey, ['EmployeeId']);
        if (check?.etag === source?.etag)
            return;
    }
    throw new errors_1.ThrottledError(`Email index entry of "${department}" kept changing.`, 5);
}
//# sourceMappingURL=indexMaintenance.js.map