"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ensureTable = ensureTable;
const errors_1 = require("../storage/errors");
const created = new WeakMap();
/**
 * Ensures the table of `client` exists (idempotent; an existing table is fine).
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
function ensureTable(client) {
    let pending = created.get(client);
    if (!pending) {
        pending = (0, errors_1.withStorageErrors)(() => client.createTable());
        created.set(client, pending);
        pending.catch(() => created.delete(client));
    }
    return pending;
}
//# sourceMappingURL=tables.js.map