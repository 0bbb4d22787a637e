"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readEntity = readEntity;
exports.withKeys = withKeys;
exports.departmentKey = departmentKey;
exports.lastNameKey = lastNameKey;
exports.loadDepartment = loadDepartment;
exports.rememberDepartment = rememberDepartment;
exports.loadLastNameIndex = loadLastNameIndex;
exports.rememberLastNameIndex = rememberLastNameIndex;
exports.forgetVersions = forgetVersions;
exports.contendedError = contendedError;
exports.currentEtag = currentEtag;
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const departmentEntity_1 = require("./departmentEntity");
const lastNameIndex_1 = require("./lastNameIndex");
/**
 * One entity by its keys, or `undefined` when it does not exist.
 *
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
async function readEntity(table, partitionKey, rowKey, select) {
    try {
        const entity = await table.getEntity(partitionKey, rowKey, select ? { queryOptions: { select: withKeys(select) } } : {});
        return { ...entity, partitionKey, rowKey };
    }
    catch (error) {
        if ((0, errors_2.isNotFound)(error))
            return undefined;
        throw (0, errors_2.toDomainError)(error);
    }
}
/** `select` plus the keys, which every reader needs. */
function withKeys(select) {
    return [...new Set(['PartitionKey', 'RowKey', ...select])];
}
/** Cache key of a department entity. */
function departmentKey(department) {
    return department;
}
/** Cache key of a last-name index entity. */
function lastNameKey(department, lastName) {
    return `${department}\u0001${(0, keys_1.normalizeLastName)(lastName)}`;
}
/**
 * The department entity with its ETag (cached on request), or `undefined` if there is none.
 *
 * @throws {ValidationError} for an invalid department name.
 * @throws {DomainError} for storage faults.
 */
async function loadDepartment(context, department, useCache) {
    const key = departmentKey(department);
    if (useCache && context.cacheVersions) {
        const cached = context.departmentVersions.get(key);
        if (cached)
            return cached;
    }
    const entity = await readEntity(await context.table(), (0, keys_1.departmentPartitionKey)(department), keys_1.DEPARTMENT_ROW_KEY);
    const value = entity && (0, departmentEntity_1.readDepartment)(entity);
    if (!entity || !value) {
        context.departmentVersions.delete(key);
        return undefined;
    }
    const versioned = { value, etag: entity.etag };
    rememberDepartment(context, department, versioned);
    return versioned;
}
/** Records a department version a write produced (or read). */
function rememberDepartment(context, department, version) {
    if (context.cacheVersions)
        context.departmentVersions.set(departmentKey(department), version);
}
/**
 * The last-name index entity with its ETag (cached on request), or `undefined` if there is none.
 *
 * @throws {DomainError} for storage faults.
 */
async function loadLastNameIndex(context, department, lastName, useCache) {
    const key = lastNameKey(department, lastName);
    if (useCache && context.cacheVersions) {
        const cached = context.lastNameVersions.get(key);
        if (cached)
            return cached;
    }
    const entity = await readEntity(await context.table(), (0, keys_1.departmentPartitionKey)(department), (0, keys_1.lastNameRowKey)(lastName));
    const value = entity && (0, lastNameIndex_1.readLastNameIndex)(entity);
    if (!entity || !value) {
        context.lastNameVersions.delete(key);
        return undefined;
    }
    const versioned = { value, etag: entity.etag };
    rememberLastNameIndex(context, department, versioned);
    return versioned;
}
/** Largest id list kept in the version cache (bigger index entities are read each time). */
const MAX_CACHED_IDS = 5_000;
/** Records (or, for `undefined`, forgets) an index version a write produced. */
function rememberLastNameIndex(context, department, version, lastName = version?.value.lastName) {
    if (lastName === undefined)
        return;
    const key = lastNameKey(department, lastName);
    if (context.cacheVersions && version && version.value.ids.length <= MAX_CACHED_IDS) {
        context.lastNameVersions.set(key, version);
    }
    else {
        context.lastNameVersions.delete(key);
    }
}
/** Forgets cached versions of a department and some of its last names (after a failed write). */
function forgetVersions(context, department, lastNames = []) {
    context.departmentVersions.delete(departmentKey(department));
    for (const name of lastNames)
        context.lastNameVersions.delete(lastNameKey(department, name));
}
/** The error for a write that kept losing races on a shared entity. */
function contendedError(what) {
    return new errors_1.ThrottledError(`${what} kept changing concurrently; try again shortly.`, 1);
}
/**
 * The current ETag of an entity, for the rare transaction answer that lacks one.
 *
 * @throws {DomainError} for storage faults; a plain Error if the entity vanished meanwhile.
 */
async function currentEtag(table, partitionKey, rowKey) {
    const entity = await readEntity(table, partitionKey, rowKey, ['RowKey']);
    if (!entity)
        throw new Error(`Entity ${rowKey} vanished right after it was written.`);
    return entity.etag;
}
//# sourceMappingURL=state.js.map