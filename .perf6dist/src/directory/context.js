"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createContext = createContext;
const changes_1 = require("./changes");
const retry_1 = require("./retry");
const tables_1 = require("./tables");
const versionCache_1 = require("./versionCache");
/** Builds the shared state from options. */
function createContext(options) {
    return {
        table: async () => {
            await (0, tables_1.ensureTable)(options.employees);
            return options.employees;
        },
        changes: options.changes ?? changes_1.discardChanges,
        departmentVersions: new versionCache_1.VersionCache(1_000),
        lastNameVersions: new versionCache_1.VersionCache(10_000),
        cacheVersions: options.cacheVersions ?? true,
        maxConflictAttempts: options.maxConflictAttempts ?? retry_1.DEFAULT_MAX_CONFLICT_ATTEMPTS,
    };
}
//# sourceMappingURL=context.js.map