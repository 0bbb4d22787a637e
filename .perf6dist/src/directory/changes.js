"use strict";
/**
 * The seam between the directory (primary entities, same-partition indexes) and the indexes that
 * live outside the department partition (inter-partition index table, organisation-wide last-name
 * index), which are maintained asynchronously through the `index-updates` queue.
 *
 * The directory reports every committed change of an employee; the receiver must not trust the
 * payload for the *new* state (it re-reads the primary entity), but uses `previous` to find index
 * entries the change may have orphaned (an old email or last name).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.discardChanges = void 0;
/** A sink that drops changes: for deployments or tests without asynchronous indexes. */
exports.discardChanges = { publish: async () => undefined };
//# sourceMappingURL=changes.js.map