/**
 * The one way an HTTP function is registered: every route names who may call it (an
 * {@link AccessRule} of src/identity/access.ts) next to its registration, and the caller is
 * authenticated and authorized before the handler runs — so before any input is validated and
 * before any storage is read. ESLint forbids `app.http` everywhere else, so a route without a rule
 * cannot be registered.
 */
import {
  app,
  type FunctionInput,
  type HttpMethod,
  type HttpRequest,
  type HttpResponseInit,
  type InvocationContext,
} from '@azure/functions';
import type { z } from 'zod';
import {
  anonymous,
  authorize,
  signedIn,
  type AccessRule,
  type AccessTarget,
} from '../../src/identity/access';
import { PRINCIPAL_HEADER, type Principal } from '../../src/identity/principal';
import { authenticate } from '../../src/identity/trust';
import { handleErrors, type HttpHandler } from './http';
import { checkRequestBody, refuseCrossSite, type BodySchemas } from './requestGuards';
import { services, type Services } from './services';

/**
 * What a route takes from the composition root, resolved per request after the caller is
 * authorized: its handler receives the capability itself and never looks it up.
 */
export type Uses<U> = (services: Services, request: HttpRequest) => U | Promise<U>;

/** One call of a public route's handler. */
export interface RouteCall<U> {
  request: HttpRequest;
  context: InvocationContext;
  /** What the route's `uses` resolved (`undefined` without one). */
  use: U;
}

/** One call of a protected route's handler: the caller is known to be allowed. */
export interface AuthorizedCall<U> extends RouteCall<U> {
  principal: Principal;
}

/** A handler that runs once the caller is known to be allowed. */
export type AuthorizedHandler<U = undefined> = (
  call: AuthorizedCall<U>,
) => Promise<HttpResponseInit>;

/** A public route's handler. */
export type PublicHandler<U = undefined> = (call: RouteCall<U>) => Promise<HttpResponseInit>;

/** A response header a route sets. */
export interface ResponseHeader {
  /** What it carries. */
  description: string;
  /** Set only in some cases (e.g. `Retry-After` while an orchestration runs). */
  optional?: boolean;
}

/** One success (or otherwise non-error) response of a route. */
export interface ResponseSpec {
  /** What it means. */
  description: string;
  /** Its JSON body; none when absent. */
  body?: z.ZodType;
  /** Non-JSON bodies it may carry instead, by content type (the console's files). */
  rawBodies?: readonly string[];
  /** Headers it sets, by lower-case name (`etag`, `location`, `retry-after`). */
  headers?: Readonly<Record<string, ResponseHeader>>;
}

/**
 * The zod schemas a route's adapter validates its input with, and those of what it answers,
 * given at registration so the OpenAPI description (functions/shared/openapi.ts) is generated from
 * the very same schemas. `responses` is required: a route cannot be registered undescribed.
 */
export interface RouteSchemas {
  /** Route parameters (`readParams`). */
  params?: z.ZodType;
  /** Query string (`readQuery`). */
  query?: z.ZodType;
  /**
   * JSON body (`readJson`). Each body is validated once: by the adapter when the service takes
   * typed input, by the service when it takes `unknown` (the directory's writes: every caller —
   * adapters, tests, orchestrations, apps lifting the module — then gets the same checks), in
   * which case the adapter reads the body with `z.unknown()` and this schema only describes it.
   */
  body?: z.ZodType;
  /** Non-JSON bodies the route also accepts, by content type (e.g. `image/*`). */
  rawBodies?: readonly string[];
  /**
   * The JSON body must be sent even when `{}` would pass its schema (a `PUT` of a whole
   * resource): no body is 400, checked before the handler (requestGuards.ts), and the OpenAPI
   * request body is required.
   */
  bodyRequired?: boolean;
  /** What the route answers when it does not fail, by status (200, 201, 202, 204, 302...). */
  responses: Readonly<Partial<Record<number, ResponseSpec>>>;
  /**
   * Error statuses it answers beyond those its registration implies (openapi.ts
   * `errorStatuses`), e.g. 501 where a feature needs a setting.
   */
  errors?: readonly number[];
}

/** Who may call a protected route and what it takes, checked before its handler runs. */
export interface RouteGuard<U> {
  /** Who may call. */
  access: AccessRule;
  /** The body schemas (415 for a body the route does not take). */
  schemas: BodySchemas;
  /**
   * What the request is about, for the rule. Default: the route's `{dept}`, `{id}` and `{userId}`
   * parameters (as the host decoded them).
   */
  target?: (request: HttpRequest) => AccessTarget;
  /** What the handler uses from the composition root. */
  uses?: Uses<U>;
}

/** A route that needs a caller. */
export interface ProtectedRouteOptions<U = undefined> {
  route: string;
  methods: HttpMethod[];
  /** Input and response schemas, for the API description. */
  schemas: RouteSchemas;
  /** Who may call. */
  access: AccessRule;
  /**
   * What the request is about, for the rule. Default: the route's `{dept}`, `{id}` and `{userId}`
   * parameters (as the host decoded them).
   */
  target?: (request: HttpRequest) => AccessTarget;
  /** What the handler uses from the composition root (`use`), resolved after authorization. */
  uses?: Uses<U>;
  extraInputs?: FunctionInput[];
  handler: AuthorizedHandler<U>;
}

/** A route anyone may call. */
export interface PublicRouteOptions<U = undefined> {
  route: string;
  methods: HttpMethod[];
  /** Input and response schemas, for the API description. */
  schemas: RouteSchemas;
  /** What the handler uses from the composition root (`use`). */
  uses?: Uses<U>;
  extraInputs?: FunctionInput[];
  handler: PublicHandler<U>;
}

/** What is known of a registered route (the authorization test and the docs read this). */
export interface RegisteredRoute {
  name: string;
  route: string;
  methods: readonly HttpMethod[];
  access: AccessRule;
  schemas: RouteSchemas;
}

const registered: RegisteredRoute[] = [];

/** Every route registered in this process so far. */
export function registeredRoutes(): readonly RegisteredRoute[] {
  return registered;
}

/** The route parameters a rule may look at. */
function routeTarget(request: HttpRequest): AccessTarget {
  const { dept, id, userId } = request.params;
  return { department: dept, employeeId: id, userId };
}

/** Runs a check, counting its refusal (`directory.auth.refusals` by rule) before passing it on. */
function refused(rule: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    services().metrics().recordAuthRefusal(rule);
    throw error;
  }
}

/** What `uses` resolves to for a request (`undefined` for a route without one). */
async function resolveUses<U>(uses: Uses<U> | undefined, request: HttpRequest): Promise<U> {
  return (uses ? await uses(services(), request) : undefined) as U;
}

/**
 * Wraps a handler in the checks every protected route makes, in this order and all before any
 * storage is read: a write from another site is refused (403 `CrossSiteRequest`), then 401 without
 * a (trusted) identity, 403 when the rule does not admit the caller, then 415 for a body the route
 * does not take (functions/shared/requestGuards.ts). Only then does it resolve what the route
 * `uses` (a setting it needs may still answer 503).
 */
export function authorizedHandler<U>(
  guard: RouteGuard<U>,
  handler: AuthorizedHandler<U>,
): HttpHandler {
  const { access, schemas, target = routeTarget, uses } = guard;
  if (access.anonymous) throw new Error('An anonymous route is registered with publicRoute.');
  return handleErrors(async (request, context) => {
    refused('cross-site', () => refuseCrossSite(request));
    const principal = authenticate(
      request.headers.get(PRINCIPAL_HEADER),
      services().principalTrust(),
    );
    // 401 (no trusted identity) counts as `signed-in`; 403 as the rule that did not admit.
    refused(principal ? access.description : 'signed-in', () =>
      authorize(access, principal, target(request)),
    );
    await checkRequestBody(request, schemas);
    const use = await resolveUses(uses, request);
    return handler({ request, context, principal: principal!, use });
  });
}

/**
 * Registers an HTTP function that needs a caller the rule admits.
 *
 * @returns the wrapped handler (tests invoke it directly).
 */
export function protectedRoute<U = undefined>(
  name: string,
  options: ProtectedRouteOptions<U>,
): HttpHandler {
  const handler = authorizedHandler(options, options.handler);
  return register(name, options, options.access, 'function', handler);
}

/**
 * Registers an HTTP function anyone may call (health, the API description).
 *
 * @returns the wrapped handler.
 */
export function publicRoute<U = undefined>(
  name: string,
  options: PublicRouteOptions<U>,
): HttpHandler {
  const guarded: HttpHandler = async (request, context) => {
    refuseCrossSite(request);
    await checkRequestBody(request, options.schemas);
    const use = await resolveUses(options.uses, request);
    return options.handler({ request, context, use });
  };
  return register(name, options, anonymous, 'anonymous', handleErrors(guarded));
}

/**
 * The methods the fallback answers for: the API's. OPTIONS stays the platform's (CORS
 * preflights), and HEAD the host's (newer hosts map it to GET routes themselves).
 */
const FALLBACK_METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The order `Allow` lists methods in. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Whether a path below the route prefix has the shape of a route template: literal segments equal
 * (ignoring case, as the host compares them), `{name}` any one non-empty segment, `{*name}` the
 * rest (possibly empty).
 */
export function pathMatchesTemplate(path: string, template: string): boolean {
  const segments = path.split('/').filter((s) => s !== '');
  const parts = template.split('/').filter((s) => s !== '');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith('{*')) return true;
    const segment = segments[i];
    if (segment === undefined) return false;
    if (part.startsWith('{')) continue;
    if (part.toLowerCase() !== segment.toLowerCase()) return false;
  }
  return segments.length === parts.length;
}

/** The registered routes whose template a path (below the route prefix) has the shape of. */
export function routesAt(
  path: string,
  routes: readonly RegisteredRoute[] = registered,
): RegisteredRoute[] {
  return routes.filter((route) => pathMatchesTemplate(path, route.route));
}

/**
 * The methods the registered routes take at a path (below the route prefix), in `Allow` order;
 * empty when no route has that shape.
 */
export function allowedMethods(
  path: string,
  routes: readonly RegisteredRoute[] = registered,
): string[] {
  const methods = new Set<string>(routesAt(path, routes).flatMap((route) => route.methods));
  return METHOD_ORDER.filter((m) => methods.has(m));
}

/**
 * The fallback's function name. The Functions host tries HTTP routes in the order of their
 * functions' names (ignoring case), first match wins, with no precedence between templates
 * (docs/local-host.md "What it mirrors"): a catch-all must sort after every other HTTP function,
 * or it takes their requests. {@link register} refuses a route whose name would sort after it.
 */
export const FALLBACK_FUNCTION_NAME = 'zzRouteFallback';

/** Whether the host tries `a` before `b` (.NET's OrdinalIgnoreCase, as it sorts functions). */
function triedBefore(a: string, b: string): boolean {
  return a.toUpperCase() < b.toUpperCase();
}

/**
 * Registers the one function that answers what no route takes: 405 with `Allow` for a known path
 * with another method, 404 for an unknown path, both with the API's JSON error. Its route is the
 * catch-all `{*path}` and its name ({@link FALLBACK_FUNCTION_NAME}) sorts after every other HTTP
 * function's; the host passes over a route whose methods do not include the request's, so this
 * function sees exactly the requests no route takes (without it, the host answers both with a
 * bare 404). It answers a caller without identity 401 (except at the paths of anonymous routes),
 * as the protected routes do and as App Service authentication does in Azure; any signed-in caller
 * may learn what a path takes, which the OpenAPI document says anyway. Its `authLevel` is that of
 * every API route. Not part of the API description.
 */
export function fallbackRoute(handler: HttpHandler): void {
  // eslint-disable-next-line no-restricted-syntax -- the fallback of every HTTP route
  app.http(FALLBACK_FUNCTION_NAME, {
    route: '{*path}',
    methods: FALLBACK_METHODS,
    authLevel: 'function',
    handler: handleErrors(async (request, context) => {
      // 401 first, as App Service authentication answers in Azure for any path it does not
      // exclude; the paths of anonymous routes (health, the API description) need no caller.
      const at = routesAt(request.params.path ?? '');
      if (at.length === 0 || at.some((route) => !route.access.anonymous)) {
        authorize(
          signedIn,
          authenticate(request.headers.get(PRINCIPAL_HEADER), services().principalTrust()),
          {},
        );
      }
      return handler(request, context);
    }),
  });
}

/**
 * Records the route for the API description and registers it with the host.
 *
 * @throws {Error} when the function's name would sort after the fallback's, which would then take
 * its requests in Azure.
 */
function register(
  name: string,
  options: Pick<PublicRouteOptions, 'route' | 'methods' | 'schemas' | 'extraInputs'>,
  access: AccessRule,
  authLevel: 'function' | 'anonymous',
  handler: HttpHandler,
): HttpHandler {
  if (!triedBefore(name, FALLBACK_FUNCTION_NAME)) {
    throw new Error(
      `The HTTP function '${name}' sorts after '${FALLBACK_FUNCTION_NAME}': the host tries routes in name order, so the fallback would take its requests. Rename it.`,
    );
  }
  registered.push({
    name,
    route: options.route,
    methods: options.methods,
    access,
    schemas: options.schemas,
  });
  // eslint-disable-next-line no-restricted-syntax -- the one registration of HTTP functions
  app.http(name, {
    route: options.route,
    methods: options.methods,
    authLevel,
    ...(options.extraInputs ? { extraInputs: options.extraInputs } : {}),
    handler,
  });
  return handler;
}
