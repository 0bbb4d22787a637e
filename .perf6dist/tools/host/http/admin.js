"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createAdminApi = createAdminApi;
function createAdminApi(options) {
    const { functions, driverOf, hostId, state } = options;
    const byName = (name) => functions.find((fn) => fn.name.toLowerCase() === name.toLowerCase());
    return {
        status: () => ({
            state: state(),
            id: hostId,
            version: '4.x-local',
            processUptime: Math.round(process.uptime() * 1000),
        }),
        functions: () => functions.map((fn) => ({
            name: fn.name,
            trigger: fn.trigger.binding.type,
            description: driverOf.get(fn)?.describe(fn) ?? 'not run locally',
            bindings: fn.registration.metadata.bindings,
        })),
        invoke(name, input) {
            const fn = byName(name);
            if (!fn)
                return { status: 404, code: 'NotFound', message: `No function named '${name}'.` };
            if (fn.triggerType === 'httptrigger') {
                return {
                    status: 400,
                    code: 'HttpFunction',
                    message: `'${fn.name}' is an HTTP function: call its route instead.`,
                };
            }
            const driver = driverOf.get(fn);
            if (!driver?.runOnce) {
                return {
                    status: 400,
                    code: 'NotRunnable',
                    message: `'${fn.name}' (${fn.trigger.binding.type}) cannot be run by the local host.`,
                };
            }
            if (state() !== 'Running')
                return { status: 503, code: 'Stopping', message: 'The host is shutting down.' };
            // Runs in the background, as the host's 202 says; the invoker logs the outcome.
            void driver.runOnce(fn, input).catch(() => undefined);
            return undefined;
        },
    };
}
//# sourceMappingURL=admin.js.map