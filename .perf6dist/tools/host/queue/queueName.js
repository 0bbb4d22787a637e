"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.queueNameProblem = queueNameProblem;
exports.resolveQueueName = resolveQueueName;
/**
 * Azure's queue naming rule, checked at startup so a bad `queueName` fails early and clearly.
 * Like the Functions host, the name is lower-cased first.
 */
const bindingExpressions_1 = require("../config/bindingExpressions");
/** Why a queue name is invalid, or undefined when it is valid. */
function queueNameProblem(name) {
    if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(name)) {
        return `"${name}" is not a valid queue name (3-63 lowercase letters, digits and single hyphens, starting and ending with a letter or digit).`;
    }
    return undefined;
}
/**
 * Resolves `%SETTING%` expressions in a binding's queue name, lower-cases and validates it.
 *
 * @throws {Error} for an unresolved setting or an invalid name.
 */
function resolveQueueName(raw, env) {
    const name = (0, bindingExpressions_1.resolveBindingExpressions)(raw ?? '', env).toLowerCase();
    const problem = queueNameProblem(name);
    if (problem)
        throw new Error(problem);
    return name;
}
//# sourceMappingURL=queueName.js.map