"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.IndexEntityTypes = void 0;
exports.idIndexEntity = idIndexEntity;
exports.emailIndexEntity = emailIndexEntity;
exports.readTracked = readTracked;
exports.keysOf = keysOf;
exports.tracks = tracks;
exports.unionKeys = unionKeys;
exports.indexEntryToEmployee = indexEntryToEmployee;
const employeeEntity_1 = require("../directory/employeeEntity");
const keys_1 = require("../storage/keys");
/** Entity types of `EmployeeIndex` entries. */
exports.IndexEntityTypes = {
    byId: 'EmployeeIdIndex.v1',
    byEmail: 'EmployeeEmailIndex.v1',
};
/**
 * The by-id index entry of an employee, tracking `tracked`. `sourceEtag` is `undefined` for the
 * worker's write-ahead record: an entry without `SourceETag` has not been verified against the
 * primary yet, so no worker may take it as proof that the indexes are current.
 */
function idIndexEntity(department, data, sourceEtag, tracked) {
    return {
        partitionKey: (0, keys_1.idIndexPartitionKey)(department),
        rowKey: (0, keys_1.idIndexRowKey)(data.employeeId),
        EntityType: exports.IndexEntityTypes.byId,
        ...(0, employeeEntity_1.employeeDataProperties)(data),
        ...(sourceEtag === undefined ? {} : { SourceETag: sourceEtag }),
        TrackedEmails: JSON.stringify([...new Set(tracked.emails)].sort()),
        TrackedLastNames: JSON.stringify([...new Set(tracked.lastNames)].sort()),
    };
}
/** The by-email index entry copied from a same-partition email copy. */
function emailIndexEntity(department, data, sourceEtag) {
    return {
        partitionKey: (0, keys_1.emailIndexPartitionKey)(department),
        rowKey: (0, keys_1.emailIndexRowKey)(data.email),
        EntityType: exports.IndexEntityTypes.byEmail,
        ...(0, employeeEntity_1.employeeDataProperties)(data),
        SourceETag: sourceEtag,
    };
}
function stringList(json) {
    if (typeof json !== 'string')
        return [];
    try {
        const parsed = JSON.parse(json);
        return Array.isArray(parsed) ? parsed.filter((x) => typeof x === 'string') : [];
    }
    catch {
        return [];
    }
}
/** What a stored id entry tracks (nothing for `undefined`). */
function readTracked(entity) {
    return {
        emails: stringList(entity?.TrackedEmails),
        lastNames: stringList(entity?.TrackedLastNames),
    };
}
/** The keys an employee's data should have entries under. */
function keysOf(data) {
    return { emails: [(0, keys_1.normalizeEmail)(data.email)], lastNames: [(0, keys_1.normalizeLastName)(data.lastName)] };
}
/** True when `tracked` covers every key of `keys`. */
function tracks(tracked, keys) {
    return (keys.emails.every((e) => tracked.emails.includes(e)) &&
        keys.lastNames.every((l) => tracked.lastNames.includes(l)));
}
/** Union of tracked key sets. */
function unionKeys(...sets) {
    return {
        emails: [...new Set(sets.flatMap((s) => s.emails))].sort(),
        lastNames: [...new Set(sets.flatMap((s) => s.lastNames))].sort(),
    };
}
/** An index entry (either kind) as API JSON; `undefined` when malformed. */
function indexEntryToEmployee(department, entity) {
    const data = (0, employeeEntity_1.readEmployeeFields)(entity);
    if (!data)
        return undefined;
    return (0, employeeEntity_1.toEmployee)(department, data);
}
//# sourceMappingURL=indexEntities.js.map