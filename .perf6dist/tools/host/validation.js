"use strict";
/**
 * What the Functions host refuses at startup: invalid or duplicate function names, routes in the
 * host's reserved space (`admin`, `runtime`), and HTTP routes that conflict. Azure marks such a
 * function "in error" and leaves it out; the local host refuses to start, so the mistake cannot
 * go unnoticed before a deployment.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.HostStartupError = void 0;
exports.functionNameProblem = functionNameProblem;
exports.duplicateNames = duplicateNames;
exports.isReservedRoute = isReservedRoute;
exports.routesConflict = routesConflict;
exports.namingProblems = namingProblems;
/** The host's function-name rule: a letter, then letters, digits, `_` or `-` (max 128); not "host". */
const FUNCTION_NAME = /^[a-z][a-z0-9_-]{0,127}$/i;
/** Problems found at startup; the host lists them all and exits. */
class HostStartupError extends Error {
    problems;
    constructor(problems) {
        super(problems.length === 1
            ? problems[0]
            : `The local host cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
        this.problems = problems;
        this.name = 'HostStartupError';
    }
}
exports.HostStartupError = HostStartupError;
/** Why a function name is refused, or undefined when it is fine. */
function functionNameProblem(name) {
    if (!FUNCTION_NAME.test(name) || name.toLowerCase() === 'host') {
        return `'${name}' is not a valid function name (a letter, then up to 127 letters, digits, '_' or '-').`;
    }
    if (name.toLowerCase().startsWith('admin')) {
        return `Function '${name}': function names starting with 'admin' are reserved by the Functions host.`;
    }
    return undefined;
}
/** Names that appear more than once, compared case-insensitively as the host does. */
function duplicateNames(names) {
    const seen = new Map();
    const duplicates = [];
    for (const name of names) {
        const key = name.toLowerCase();
        if (seen.has(key))
            duplicates.push(name);
        else
            seen.set(key, name);
    }
    return duplicates;
}
/** True for routes in the host's own space (`/admin/...`, `/runtime/...`). */
function isReservedRoute(route) {
    const normalized = route.replace(/^\/+|\/+$/g, '').toLowerCase();
    return normalized.startsWith('admin') || normalized.startsWith('runtime');
}
/**
 * The host's conflict rule: two routes conflict when their templates are equal (ignoring case
 * and outer slashes) and their methods overlap (no methods = all methods).
 */
function routesConflict(a, b) {
    const normalize = (route) => route.replace(/^\/+|\/+$/g, '').toLowerCase();
    if (normalize(a.route) !== normalize(b.route))
        return false;
    if (a.methods.length === 0 || b.methods.length === 0)
        return true;
    return a.methods.some((method) => b.methods.includes(method));
}
/** Every naming problem of an app's functions: invalid names and case-insensitive duplicates. */
function namingProblems(names) {
    const problems = names.map(functionNameProblem).filter((p) => p !== undefined);
    for (const duplicate of duplicateNames(names)) {
        problems.push(`The function name '${duplicate}' must be unique within the function app (names ignore case).`);
    }
    return problems;
}
//# sourceMappingURL=validation.js.map