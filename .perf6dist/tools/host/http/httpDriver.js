"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createHttpDriver = createHttpDriver;
const functions_1 = require("../functions");
const log_1 = require("../log");
const runner_1 = require("../runner");
const validation_1 = require("../validation");
const respond_1 = require("./respond");
const rpcHttp_1 = require("./rpcHttp");
const routeTemplate_1 = require("./routeTemplate");
function methodsOf(fn) {
    const methods = fn.trigger.binding.methods;
    return Array.isArray(methods) ? methods.map((m) => String(m).toUpperCase()) : [];
}
function createHttpDriver(config) {
    const routes = [];
    const prefix = config.routePrefix ? `/${config.routePrefix}` : '';
    const lookup = (method, pathBelowPrefix) => {
        const segments = (0, routeTemplate_1.splitPath)(pathBelowPrefix);
        const allowed = [];
        for (const route of routes) {
            const params = (0, routeTemplate_1.matchRoute)(route.template, segments);
            if (!params)
                continue;
            if (route.methods.length === 0 || route.methods.includes(method.toUpperCase())) {
                return { kind: 'match', route, params };
            }
            allowed.push(...route.methods);
        }
        return allowed.length > 0
            ? { kind: 'methodMismatch', allowed: [...new Set(allowed)] }
            : { kind: 'notFound' };
    };
    return {
        triggerTypes: ['httptrigger'],
        add(fn) {
            const raw = (0, functions_1.stringOption)(fn.trigger.binding, 'route');
            const route = raw === undefined || raw.trim() === '' ? fn.name : raw;
            if ((0, validation_1.isReservedRoute)(route)) {
                throw new Error(`Function '${fn.name}': the route '${route}' conflicts with the host's built-in routes (admin, runtime).`);
            }
            let template;
            try {
                template = (0, routeTemplate_1.parseRouteTemplate)(route);
            }
            catch (error) {
                throw new Error(`Function '${fn.name}': ${error.message}`);
            }
            const declaration = {
                functionName: fn.name,
                route: template.text,
                methods: methodsOf(fn),
            };
            const conflict = routes.find((existing) => (0, validation_1.routesConflict)(declaration, existing));
            if (conflict) {
                throw new Error(`Function '${fn.name}': the route '${route}' [${declaration.methods.join(',') || '*'}] conflicts with the route defined by function '${conflict.functionName}'.`);
            }
            routes.push({ ...declaration, fn, template, precedence: (0, routeTemplate_1.routePrecedence)(template) });
            // Stable sort: equal precedence keeps registration order.
            routes.sort((a, b) => (0, routeTemplate_1.comparePrecedence)(a.precedence, b.precedence));
        },
        describe(fn) {
            const route = routes.find((r) => r.fn === fn);
            return `[${route.methods.join(',') || 'ALL'}] ${prefix}/${route.template.text}`;
        },
        start: async () => undefined,
        // In-flight HTTP requests are drained by the server.
        stop: async () => undefined,
        lookup,
        async handle(request, response, pathBelowPrefix, body, origin) {
            const method = (request.method ?? 'GET').toUpperCase();
            const found = lookup(method, pathBelowPrefix);
            if (found.kind !== 'match') {
                const detail = found.kind === 'methodMismatch' ? ` (the route accepts ${found.allowed.join(', ')})` : '';
                const path = `${prefix}/${pathBelowPrefix.replace(/^\//, '')}`;
                (0, respond_1.sendJson)(response, 404, (0, respond_1.errorJson)('NotFound', `No function matches ${method} ${path}${detail}.`));
                return;
            }
            const fn = found.route.fn;
            try {
                const rpcResponse = await config.runner.run(fn, {
                    data: {
                        http: (0, rpcHttp_1.toRpcHttpRequest)({
                            method,
                            url: `${origin}${request.url ?? '/'}`,
                            headers: request.headersDistinct,
                            params: found.params,
                            body,
                        }),
                    },
                    metadata: {},
                    reason: `This function was programmatically called via the host APIs.`,
                });
                const output = fn.outputs.find((o) => String(o.binding.type).toLowerCase() === 'http');
                const value = output ? (0, runner_1.outputValue)(rpcResponse, output) : undefined;
                (0, respond_1.sendResponse)(response, (0, rpcHttp_1.fromRpcHttpResponse)(value));
            }
            catch (error) {
                // An unhandled error is a 500 without a body, as in Azure; the details are in the log.
                config.logger.log('error', fn.name, `HTTP ${method} ${request.url}: ${(0, log_1.describeError)(error)}`);
                if (!response.headersSent)
                    (0, respond_1.sendResponse)(response, { status: 500, headers: [], body: Buffer.alloc(0) });
                else
                    response.destroy();
            }
        },
    };
}
//# sourceMappingURL=httpDriver.js.map