"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.lastNameStoreFor = lastNameStoreFor;
const lastNameBlobStore_1 = require("./lastNameBlobStore");
const lastNameEntityStore_1 = require("./lastNameEntityStore");
/** The store of `mode`: `entity` (option 3, in `index`) or `blob` (option 1, in `container`). */
function lastNameStoreFor(mode, index, container, options = {}) {
    return mode === 'blob' ? (0, lastNameBlobStore_1.blobLastNameStore)(container) : (0, lastNameEntityStore_1.entityLastNameStore)(index, options);
}
//# sourceMappingURL=lastNameStores.js.map