"use strict";
/**
 * `%SETTING%` binding expressions: the Functions host replaces them with app settings in
 * trigger options such as `queueName`, `schedule` and `connection` before anything runs.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.BindingExpressionError = void 0;
exports.resolveBindingExpressions = resolveBindingExpressions;
/** A binding expression names a setting that has no value. */
class BindingExpressionError extends Error {
    setting;
    constructor(setting) {
        super(`'%${setting}%' does not resolve to a value.`);
        this.setting = setting;
        this.name = 'BindingExpressionError';
    }
}
exports.BindingExpressionError = BindingExpressionError;
/**
 * Replaces every `%NAME%` in `text` with `settings[NAME]`.
 *
 * @throws {BindingExpressionError} for a setting that is unset or empty.
 */
function resolveBindingExpressions(text, settings) {
    return text.replace(/%([^%\s]+)%/g, (_, name) => {
        const value = settings[name];
        if (value === undefined || value === '')
            throw new BindingExpressionError(name);
        return value;
    });
}
//# sourceMappingURL=bindingExpressions.js.map