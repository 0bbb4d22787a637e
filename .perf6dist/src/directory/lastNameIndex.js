"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_IDS_PER_LAST_NAME = exports.MAX_ID_PROPERTIES = exports.IDS_PER_PROPERTY = void 0;
exports.assertIndexCapacity = assertIndexCapacity;
exports.lastNameIndexEntity = lastNameIndexEntity;
exports.readLastNameIndex = readLastNameIndex;
exports.normaliseIds = normaliseIds;
exports.withIds = withIds;
exports.withoutIds = withoutIds;
exports.indexName = indexName;
const errors_1 = require("../errors");
const keys_1 = require("../storage/keys");
const entityTypes_1 = require("./entityTypes");
/** Ids per `IdsNN` property: 5,000 × 6 characters × 2 bytes = 60,000 bytes (< 64 KiB). */
exports.IDS_PER_PROPERTY = 5_000;
/** Id properties per entity. */
exports.MAX_ID_PROPERTIES = 12;
/** Most employees one last name can have in one department. */
exports.MAX_IDS_PER_LAST_NAME = exports.IDS_PER_PROPERTY * exports.MAX_ID_PROPERTIES;
const ID_WIDTH = 6;
const ID_PROPERTY = /^Ids(\d{2})$/;
function idProperty(n) {
    return `Ids${String(n).padStart(2, '0')}`;
}
/**
 * Throws when an id list no longer fits one index entity.
 *
 * @throws {ConflictError} `LastNameIndexFull` past {@link MAX_IDS_PER_LAST_NAME} ids.
 */
function assertIndexCapacity(lastName, count) {
    if (count > exports.MAX_IDS_PER_LAST_NAME) {
        throw new errors_1.ConflictError('LastNameIndexFull', `The last-name index of "${lastName}" in this department is full ` +
            `(at most ${exports.MAX_IDS_PER_LAST_NAME} employees per last name and department).`);
    }
}
/**
 * The stored entity of an index (all `IdsNN` properties present, so a Replace shrinks it).
 *
 * @throws {ConflictError} `LastNameIndexFull` when the ids do not fit.
 */
function lastNameIndexEntity(partitionKey, index) {
    assertIndexCapacity(index.lastName, index.ids.length);
    const entity = {
        partitionKey,
        rowKey: (0, keys_1.lastNameRowKey)(index.lastName),
        [entityTypes_1.ENTITY_TYPE_PROPERTY]: entityTypes_1.EntityTypes.lastNameIndex,
        LastName: index.lastName,
        Count: index.ids.length,
    };
    const properties = Math.max(1, Math.ceil(index.ids.length / exports.IDS_PER_PROPERTY));
    for (let n = 0; n < properties; n++) {
        entity[idProperty(n)] = index.ids
            .slice(n * exports.IDS_PER_PROPERTY, (n + 1) * exports.IDS_PER_PROPERTY)
            .join('');
    }
    return entity;
}
/** A stored index entity's content; `undefined` for another entity type or a malformed one. */
function readLastNameIndex(entity) {
    if (!(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.lastNameIndex) || typeof entity.LastName !== 'string') {
        return undefined;
    }
    const parts = Object.keys(entity)
        .map((name) => ({ name, match: ID_PROPERTY.exec(name) }))
        .filter((p) => p.match !== null)
        .sort((a, b) => Number(a.match[1]) - Number(b.match[1]));
    const ids = [];
    for (const { name } of parts) {
        const value = entity[name];
        if (typeof value !== 'string' || value.length % ID_WIDTH !== 0 || !/^\d*$/.test(value))
            return undefined;
        for (let i = 0; i < value.length; i += ID_WIDTH)
            ids.push(value.slice(i, i + ID_WIDTH));
    }
    return { lastName: entity.LastName, ids: normaliseIds(ids) };
}
/** Sorted, distinct ids. */
function normaliseIds(ids) {
    return [...new Set(ids)].sort();
}
/** `ids` plus `added` (sorted, distinct). */
function withIds(ids, added) {
    return normaliseIds([...ids, ...added]);
}
/** `ids` without `removed`. */
function withoutIds(ids, removed) {
    const drop = new Set(removed);
    return ids.filter((id) => !drop.has(id));
}
/** The normalised last name an index entity is keyed by. */
function indexName(lastName) {
    return (0, keys_1.normalizeLastName)(lastName);
}
//# sourceMappingURL=lastNameIndex.js.map