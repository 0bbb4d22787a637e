"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RETURN_BINDING = void 0;
exports.isTriggerType = isTriggerType;
exports.describeFunction = describeFunction;
exports.stringOption = stringOption;
/** The name of the binding that carries a function's return value. */
exports.RETURN_BINDING = '$return';
/** The binding-name trick of the library: trigger types all end in "Trigger". */
function isTriggerType(type) {
    return !!type && /trigger$/i.test(type);
}
/**
 * Splits a registration's bindings by role.
 *
 * @throws {Error} when the metadata has no trigger binding, or more than one.
 */
function describeFunction(registration) {
    const name = registration.metadata.name;
    const entries = Object.entries(registration.metadata.bindings).map(([bindingName, binding]) => ({
        name: bindingName,
        binding,
    }));
    const triggers = entries.filter((entry) => isTriggerType(entry.binding.type));
    if (triggers.length !== 1) {
        throw new Error(`Function '${name}' must have exactly one trigger binding, found ${triggers.length}.`);
    }
    const trigger = triggers[0];
    return {
        name,
        registration,
        trigger,
        triggerType: String(trigger.binding.type).toLowerCase(),
        extraInputs: entries.filter((entry) => entry !== trigger && entry.binding.direction === 'in'),
        outputs: entries.filter((entry) => entry.binding.direction === 'out' || entry.binding.direction === 'inout'),
    };
}
/** A string option of a binding (`queueName`, `schedule`, ...), if it is one. */
function stringOption(binding, option) {
    const value = binding[option];
    return typeof value === 'string' ? value : undefined;
}
//# sourceMappingURL=functions.js.map