"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DURABLE_TRIGGER_TYPES = void 0;
exports.createAcceptingDriver = createAcceptingDriver;
exports.assignDrivers = assignDrivers;
/** Durable Functions trigger types, registered through `df.app.*`. */
exports.DURABLE_TRIGGER_TYPES = [
    'orchestrationtrigger',
    'activitytrigger',
    'entitytrigger',
];
/**
 * Accepts functions of trigger types no driver runs yet (the durable ones), so the app loads
 * and they are listed; they never run until a real driver for the type is supplied.
 */
function createAcceptingDriver(triggerTypes, note) {
    return {
        triggerTypes,
        add: () => undefined,
        describe: (fn) => `${fn.trigger.binding.type} (${note})`,
        start: async () => undefined,
        stop: async () => undefined,
    };
}
/**
 * Hands each function to the first driver claiming its trigger type (extensions come first),
 * collecting what the drivers refuse. `prepareBindings` checks the extra bindings and returns
 * warnings.
 */
function assignDrivers(functions, drivers, prepareBindings) {
    const result = { driverOf: new Map(), problems: [], warnings: [] };
    for (const fn of functions) {
        const driver = drivers.find((d) => d.triggerTypes.includes(fn.triggerType));
        if (!driver) {
            result.warnings.push(`Function '${fn.name}': no local driver for trigger type '${fn.trigger.binding.type}'; it will not run.`);
            continue;
        }
        if (fn.registration.metadata.retryOptions) {
            result.warnings.push(`Function '${fn.name}': its retry policy is not applied by the local host; failures follow the trigger's own rules.`);
        }
        try {
            driver.add(fn);
            result.warnings.push(...prepareBindings(fn));
            result.driverOf.set(fn, driver);
        }
        catch (error) {
            result.problems.push(error.message);
        }
    }
    return result;
}
//# sourceMappingURL=drivers.js.map