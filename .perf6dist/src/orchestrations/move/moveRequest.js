"use strict";
/**
 * What a move is about, and the write id that marks the copies one move writes.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.moveWriteId = moveWriteId;
/**
 * The `WriteId` the target copy of the employee carries, so that a repeated copy recognises its
 * own earlier commit (same move) and refuses someone else's employee with the same id.
 */
function moveWriteId(moveId) {
    return `move:${moveId}`;
}
//# sourceMappingURL=moveRequest.js.map