"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.randomHexId = randomHexId;
/**
 * What the runtime's parts share: the store, the host's invoke callback, the registered function
 * names, a clock, an id source and a logger.
 */
const node_crypto_1 = require("node:crypto");
/** A random id in the form Durable uses for instance and execution ids (GUID, no dashes). */
function randomHexId() {
    return (0, node_crypto_1.randomUUID)().replace(/-/g, '');
}
//# sourceMappingURL=context.js.map