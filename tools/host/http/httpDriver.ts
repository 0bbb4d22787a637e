/**
 * The HTTP trigger (`app.http`): a route table built from the registered routes and methods,
 * and the request/response path through the library's own conversion code. Unknown routes and
 * method mismatches are 404 without a body (as the Functions host answers).
 * Function keys are not checked locally, as with Core Tools.
 *
 * Routes are tried in the order of their functions' names, ignoring case, first match wins, as
 * the Functions host does (it adds one ASP.NET route per function in name order; there is no
 * precedence between them: Azure/azure-functions-host#9876, azure-functions-nodejs-library#300).
 * So a catch-all whose function sorts first takes every request, here as in Azure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TriggerDriver } from '../drivers';
import { stringOption, type HostFunction } from '../functions';
import { describeError, type Logger } from '../log';
import { outputValue, type FunctionRunner } from '../runner';
import { isReservedRoute, routesConflict, type RouteDeclaration } from '../validation';
import { sendBare, sendResponse } from './respond';
import { withForwardedHeaders } from './forwarded';
import { fromRpcHttpResponse, toRpcHttpRequest } from './rpcHttp';
import { matchRoute, parseRouteTemplate, splitPath, type RouteTemplate } from './routeTemplate';

interface HttpRoute extends RouteDeclaration {
  fn: HostFunction;
  template: RouteTemplate;
}

/**
 * The order the Functions host tries HTTP routes in: by function name, as .NET's
 * `StringComparer.OrdinalIgnoreCase` compares (upper-cased, then code unit by code unit).
 */
export function compareFunctionNames(a: string, b: string): number {
  const x = a.toUpperCase();
  const y = b.toUpperCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * What a request path and method lead to: a function (with its route parameters), a 405 or a 404.
 */
export type RouteLookup =
  | { kind: 'match'; route: HttpRoute; params: Record<string, string> }
  | { kind: 'methodMismatch'; allowed: string[] }
  | { kind: 'notFound' };

/** The driver of HTTP-triggered functions. */
export interface HttpDriver extends TriggerDriver {
  /** Finds the function for a method and a path below the route prefix. */
  lookup(method: string, pathBelowPrefix: string): RouteLookup;
  /** Serves one request whose path is below the route prefix. */
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    pathBelowPrefix: string,
    body: Buffer,
    origin: string,
  ): Promise<void>;
}

/** How the HTTP driver routes requests (the route prefix, the invoker). */
export interface HttpDriverOptions {
  routePrefix: string;
  runner: FunctionRunner;
  logger: Logger;
  /** When the front gives up on an answer (default {@link HTTP_RESPONSE_LIMIT_MS}). */
  responseLimitMs?: number;
}

/**
 * How long Azure's front waits for an HTTP function's answer, whatever `functionTimeout`: 230 s,
 * the Azure Load Balancer's idle timeout (learn.microsoft.com azure-functions/functions-scale,
 * "Function app timeout duration"). The function itself runs on until it ends or times out.
 */
export const HTTP_RESPONSE_LIMIT_MS = 230_000;

/** What the local front answers when a function has not answered in time. */
export const HTTP_RESPONSE_LIMIT_STATUS = 502;

function methodsOf(fn: HostFunction): string[] {
  const methods = fn.trigger.binding.methods;
  return Array.isArray(methods) ? methods.map((m) => String(m).toUpperCase()) : [];
}

/** The driver's state: its settings, the route prefix and the routes in the order tried. */
interface HttpRouting {
  config: HttpDriverOptions;
  /** `/<routePrefix>`, or empty. */
  prefix: string;
  routes: HttpRoute[];
}

/**
 * The driver of HTTP-triggered functions: routes requests to them and answers with their responses.
 */
export function createHttpDriver(config: HttpDriverOptions): HttpDriver {
  const routing: HttpRouting = {
    config,
    prefix: config.routePrefix ? `/${config.routePrefix}` : '',
    routes: [],
  };
  return {
    triggerTypes: ['httptrigger'],
    add: (fn) => addRoute(routing.routes, fn),
    describe(fn) {
      const route = routing.routes.find((r) => r.fn === fn)!;
      return `[${route.methods.join(',') || 'ALL'}] ${routing.prefix}/${route.template.text}`;
    },
    start: async () => undefined,
    // In-flight HTTP requests are drained by the server.
    stop: async () => undefined,
    lookup: (method, pathBelowPrefix) => lookupRoute(routing.routes, method, pathBelowPrefix),
    handle: (request, response, pathBelowPrefix, body, origin) =>
      handleRequest(routing, request, response, pathBelowPrefix, body, origin),
  };
}

/**
 * Adds a function's route, kept in the order the host tries them.
 *
 * @throws {Error} when the route is reserved, not a valid template, or conflicts with another.
 */
function addRoute(routes: HttpRoute[], fn: HostFunction): void {
  const raw = stringOption(fn.trigger.binding, 'route');
  const route = raw === undefined || raw.trim() === '' ? fn.name : raw;
  if (isReservedRoute(route)) {
    throw new Error(
      `Function '${fn.name}': the route '${route}' conflicts with the host's built-in routes (admin, runtime).`,
    );
  }
  let template: RouteTemplate;
  try {
    template = parseRouteTemplate(route);
  } catch (error) {
    throw new Error(`Function '${fn.name}': ${(error as Error).message}`, { cause: error });
  }
  const declaration: RouteDeclaration = {
    functionName: fn.name,
    route: template.text,
    methods: methodsOf(fn),
  };
  const conflict = routes.find((existing) => routesConflict(declaration, existing));
  if (conflict) {
    throw new Error(
      `Function '${fn.name}': the route '${route}' [${declaration.methods.join(',') || '*'}] conflicts with the route defined by function '${conflict.functionName}'.`,
    );
  }
  routes.push({ ...declaration, fn, template });
  routes.sort((a, b) => compareFunctionNames(a.functionName, b.functionName));
}

/** The first route whose template and method match (else the methods the path accepts). */
function lookupRoute(routes: HttpRoute[], method: string, pathBelowPrefix: string): RouteLookup {
  const segments = splitPath(pathBelowPrefix);
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchRoute(route.template, segments);
    if (!params) continue;
    if (route.methods.length === 0 || route.methods.includes(method.toUpperCase())) {
      return { kind: 'match', route, params };
    }
    allowed.push(...route.methods);
  }
  return allowed.length > 0
    ? { kind: 'methodMismatch', allowed: [...new Set(allowed)] }
    : { kind: 'notFound' };
}

/**
 * One request: a bare 404 when no route matches, else the function's answer, the front's 502 when
 * it does not answer in time, or a bare 500 when it fails.
 */
async function handleRequest(
  routing: HttpRouting,
  request: IncomingMessage,
  response: ServerResponse,
  pathBelowPrefix: string,
  body: Buffer,
  origin: string,
): Promise<void> {
  const { config } = routing;
  const method = (request.method ?? 'GET').toUpperCase();
  const found = lookupRoute(routing.routes, method, pathBelowPrefix);
  if (found.kind !== 'match') {
    const detail =
      found.kind === 'methodMismatch' ? ` (the route accepts ${found.allowed.join(', ')})` : '';
    const path = `${routing.prefix}/${pathBelowPrefix.replace(/^\//, '')}`;
    // Bare, as Azure's host answers when no route matches (the app's JSON 404s come from its
    // own catch-all, which the host tries last).
    config.logger.debug(`No function matches ${method} ${path}${detail}.`);
    sendBare(response, 404);
    return;
  }
  const fn = found.route.fn;
  const limitMs = config.responseLimitMs ?? HTTP_RESPONSE_LIMIT_MS;
  try {
    const run = config.runner.run(fn, {
      data: {
        http: toRpcHttpRequest({
          method,
          url: `${origin}${request.url ?? '/'}`,
          headers: withForwardedHeaders(request),
          params: found.params,
          body,
        }),
      },
      metadata: {},
      reason: `This function was programmatically called via the host APIs.`,
    });
    const rpcResponse = await withinLimit(run, limitMs);
    if (rpcResponse === undefined) {
      // The front gives up; the invocation runs on (its later failure is logged by the worker).
      run.catch(() => undefined);
      config.logger.log(
        'warning',
        fn.name,
        `HTTP ${method} ${request.url}: no answer within ${limitMs} ms; the front answers ${HTTP_RESPONSE_LIMIT_STATUS}.`,
      );
      sendResponse(response, {
        status: HTTP_RESPONSE_LIMIT_STATUS,
        headers: [],
        body: Buffer.alloc(0),
      });
      return;
    }
    const output = fn.outputs.find((o) => String(o.binding.type).toLowerCase() === 'http');
    const value = output ? outputValue(rpcResponse, output) : undefined;
    sendResponse(response, fromRpcHttpResponse(value));
  } catch (error) {
    // An unhandled error is a 500 without a body, as in Azure; the details are in the log.
    config.logger.log('error', fn.name, `HTTP ${method} ${request.url}: ${describeError(error)}`);
    if (!response.headersSent)
      sendResponse(response, { status: 500, headers: [], body: Buffer.alloc(0) });
    else response.destroy();
  }
}

/** What `run` gives, or `undefined` once `limitMs` passes first. */
async function withinLimit<T>(run: Promise<T>, limitMs: number): Promise<T | undefined> {
  let limitTimer: NodeJS.Timeout | undefined;
  const limit = new Promise<undefined>((resolve) => {
    limitTimer = setTimeout(() => resolve(undefined), limitMs);
  });
  try {
    return await Promise.race([run, limit]);
  } finally {
    clearTimeout(limitTimer);
  }
}
