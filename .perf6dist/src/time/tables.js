"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ensureTableOnce = ensureTableOnce;
const errors_1 = require("../storage/errors");
const created = new WeakMap();
/**
 * Creates the client's table if needed, once per process and client. `createTable` already treats
 * 409 `TableAlreadyExists` as success, so concurrent first calls (or other instances) are safe. A
 * failed attempt is forgotten, so the next call tries again.
 *
 * @throws {DomainError} when storage refuses or keeps failing after the SDK's retries.
 */
function ensureTableOnce(table) {
    let pending = created.get(table);
    if (!pending) {
        pending = (0, errors_1.withStorageErrors)(() => table.createTable()).catch((error) => {
            created.delete(table);
            throw error;
        });
        created.set(table, pending);
    }
    return pending;
}
//# sourceMappingURL=tables.js.map