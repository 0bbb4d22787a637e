"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.newUniqueSuffix = newUniqueSuffix;
/**
 * Random suffixes that keep two time-based keys of the same tick distinct.
 */
const node_crypto_1 = require("node:crypto");
/**
 * Eight random hex digits (32 bits). Two writes in the same 100 ns tick collide only with
 * probability 2⁻³²; writers insert (never upsert) and draw a new suffix on the 409 that follows.
 */
function newUniqueSuffix() {
    return (0, node_crypto_1.randomBytes)(4).toString('hex');
}
//# sourceMappingURL=uniqueSuffix.js.map