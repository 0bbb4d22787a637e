"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEPARTMENT_PAGE_SIZE = void 0;
exports.departmentPage = departmentPage;
exports.allDepartments = allDepartments;
const departments_1 = require("../directory/departments");
const ttlCache_1 = require("../directory/ttlCache");
/** Departments per listing page. */
exports.DEPARTMENT_PAGE_SIZE = 500;
/**
 * One page of department names (uncached: an audit must see the current listing).
 *
 * @throws {ValidationError} for a token this listing did not produce.
 * @throws {DomainError} for storage faults.
 */
async function departmentPage(directory, continuationToken) {
    const page = await (0, departments_1.listDepartments)(directory, new ttlCache_1.TtlCache(0), {
        pageSize: exports.DEPARTMENT_PAGE_SIZE,
        continuationToken: continuationToken ?? undefined,
    });
    return {
        departments: page.items.map((d) => d.name),
        continuationToken: page.continuationToken,
    };
}
/**
 * Every department name.
 *
 * @throws {DomainError} for storage faults.
 */
async function allDepartments(directory) {
    const names = [];
    let token = null;
    do {
        const page = await departmentPage(directory, token);
        names.push(...page.departments);
        token = page.continuationToken;
    } while (token);
    return names;
}
//# sourceMappingURL=departmentPages.js.map