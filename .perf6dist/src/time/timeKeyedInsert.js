"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.insertTimeKeyed = insertTimeKeyed;
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const uniqueSuffix_1 = require("./uniqueSuffix");
/** How many suffixes to try before giving up (a second collision in one tick is ~2⁻⁶⁴). */
const MAX_SUFFIXES = 3;
/** How many times an insert whose outcome a lost connection hid is checked and re-sent. */
const MAX_UNKNOWN_OUTCOMES = 3;
/** True when a value we wrote (plain, `Date`, or an explicitly typed `{value, type}`) was stored as is. */
function sameValue(ours, stored) {
    if (ours instanceof Date)
        return stored instanceof Date && ours.getTime() === stored.getTime();
    if (typeof ours === 'object' && ours !== null && 'value' in ours && 'type' in ours) {
        return String(ours.value) === String(stored);
    }
    return ours === stored;
}
function isSameEntity(ours, stored) {
    return Object.entries(ours).every(([name, value]) => sameValue(value, stored[name]));
}
async function readStored(table, entity) {
    try {
        return await (0, errors_2.withStorageErrors)(() => table.getEntity(entity.partitionKey, entity.rowKey));
    }
    catch (error) {
        if (error instanceof errors_1.NotFoundError && error.code !== 'TableNotFound')
            return undefined;
        throw error;
    }
}
/** Inserts one entity; `'taken'` when its key holds another writer's entity. */
async function insertOnce(table, entity) {
    for (let unknown = 0;; unknown++) {
        try {
            const response = await table.createEntity(entity);
            return { etag: response.etag ?? '' };
        }
        catch (error) {
            const failure = (0, errors_2.isAlreadyExists)(error) ? undefined : (0, errors_2.toDomainError)(error);
            if (failure !== undefined &&
                (!(failure instanceof errors_1.UnavailableError) || unknown >= MAX_UNKNOWN_OUTCOMES)) {
                throw failure;
            }
            const stored = await readStored(table, entity);
            if (stored)
                return isSameEntity(entity, stored) ? { etag: stored.etag } : 'taken';
            // Not there after a lost connection: the insert never happened; send it again.
        }
    }
}
/**
 * Inserts `makeEntity(suffix)` with a fresh random suffix, retrying on suffix collisions.
 *
 * @returns the stored entity and its ETag.
 * @throws {DomainError} for storage faults that outlast the SDK's retries (a missing table surfaces
 *   as `NotFoundError` with code `TableNotFound`, which callers that create tables lazily handle).
 * @throws {Error} when every suffix collided (should never happen; a bug if it does).
 */
async function insertTimeKeyed(table, makeEntity) {
    for (let attempt = 1; attempt <= MAX_SUFFIXES; attempt++) {
        const entity = makeEntity((0, uniqueSuffix_1.newUniqueSuffix)());
        const outcome = await insertOnce(table, entity);
        if (outcome !== 'taken')
            return { entity, etag: outcome.etag };
    }
    throw new Error(`Could not find a free RowKey suffix after ${MAX_SUFFIXES} attempts.`);
}
//# sourceMappingURL=timeKeyedInsert.js.map