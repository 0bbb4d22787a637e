/**
 * Holds the e2e tests' real traffic against the OpenAPI document the host serves
 * (`GET /api/openapi.json`, functions/shared/openapi.ts): every `fetch` a test sends to the API of
 * a host started by `startHost` (test/support/host.ts) is matched to its operation, and
 *
 * - the request's path and query parameters and its body are validated against the operation's
 *   schemas; a request they refuse is fine only if the API refuses it too, with an error status
 *   the operation documents (tests of bad input need no marking);
 * - the response's status must be one the operation documents, its body must validate against
 *   that response's schema (no body where none is described), and the headers the response
 *   declares required (ETag, Location, Retry-After) must be there;
 * - a request to a path or method the document does not have fails, unless the test says it means
 *   to call one (`outsideTheDocument`); its answer must still be a JSON error (4xx, `Error`): for a
 *   documented path 405 with `Allow` naming exactly the documented methods (or 401 for a caller
 *   without identity), else not 405.
 *
 * A mismatch throws an {@link ApiContractError} from `fetch`, naming the operation, the status and
 * the schema error, so the test that sent the request fails where it sent it. Schemas are checked
 * with Ajv's JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1) and ajv-formats.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Json;
  'x-catch-all'?: boolean;
}

interface ResponseObject {
  $ref?: string;
  description?: string;
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { schema: Json }>;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, ResponseObject>;
}

/** The parts of the OpenAPI document the checks read. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Json; responses: Record<string, ResponseObject> } & Json;
}

/** A request or response the OpenAPI document does not describe. */
export class ApiContractError extends Error {
  override name = 'ApiContractError';
}

/** One request as sent, and its answer. */
export interface Exchange {
  method: string;
  /** The URL path below the API base (`/departments/Sales`), as sent (percent-encoded). */
  path: string;
  query: URLSearchParams;
  /** The request's content type (`undefined`: none). */
  contentType: string | undefined;
  /** The request body as text; `undefined` without one; `null` when it cannot be read (a stream). */
  body: string | null | undefined;
  status: number;
  headers: Headers;
  /** The response body as text. */
  text: string;
  /** The host answered with a redirect that `fetch` followed (the final answer is elsewhere). */
  redirected: boolean;
}

const JSON_TYPE = 'application/json';

const mediaType = (contentType: string | null | undefined): string =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase();

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A path template of the document as a pattern over sent paths. */
interface Template {
  path: string;
  operations: Record<string, Operation>;
  pattern: RegExp;
  names: string[];
  /** Literal segments: the more, the more specific (`/employees/import` beats `/employees/{id}`). */
  literals: number;
}

/** The checks of one document. */
export class ApiContract {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly compiled = new WeakMap<Json, ValidateFunction>();
  private readonly templates: Template[];

  constructor(readonly document: OpenApiDocument) {
    this.templates = Object.entries(document.paths).map(([path, operations]) => {
      const catchAll = new Set(
        Object.values(operations).flatMap((op) =>
          (op.parameters ?? []).filter((p) => p['x-catch-all']).map((p) => p.name),
        ),
      );
      const names: string[] = [];
      let literals = 0;
      const source = path
        .split('/')
        .map((segment) => {
          const param = /^\{([^}]+)\}$/.exec(segment);
          if (!param) {
            if (segment !== '') literals++;
            return segment === '' ? '' : `/${escapeRegExp(segment)}`;
          }
          names.push(param[1]!);
          // A catch-all may be empty, with or without its "/" (`/console`, `/console/`).
          return catchAll.has(param[1]!) ? '(?:/(.*))?' : '/([^/]+)';
        })
        .join('');
      return { path, operations, pattern: new RegExp(`^${source}$`), names, literals };
    });
  }

  /**
   * Checks one exchange.
   *
   * @param deliberate - the test means to call something the document may not have.
   * @throws {ApiContractError} naming what does not match.
   */
  check(exchange: Exchange, deliberate = false): void {
    const { method, path, status } = exchange;
    const found = this.operationFor(method, path);
    const where = found
      ? `${method} ${found.template.path} (${found.operation.operationId})`
      : `${method} ${path}`;
    const fail = (problem: string): never => {
      throw new ApiContractError(
        `OpenAPI contract: ${where} answered ${status}: ${problem}\n` +
          `  request: ${method} ${path}${exchange.query.size > 0 ? `?${exchange.query}` : ''}` +
          `${exchange.body ? ` ${clip(exchange.body)}` : ''}\n  response: ${clip(exchange.text) || '(no body)'}`,
      );
    };
    if (!found) {
      if (!deliberate) fail('no such operation in the document.');
      // Off the document on purpose: the answer must still be the API's JSON error.
      if (status < 400 || status >= 500) fail('a request off the document must get a 4xx.');
      this.expectErrorBody(exchange, fail);
      // A documented path with another method is 405 naming exactly the documented methods; a
      // path the document does not have is 404.
      const documented = this.methodsAt(path);
      // A caller without identity is refused first (401), whatever it asked.
      if (documented.length > 0 && status !== 401) {
        if (status !== 405) fail(`the path takes ${documented.join(', ')}: expected 405.`);
        const allow = (exchange.headers.get('allow') ?? '')
          .split(',')
          .map((m) => m.trim())
          .filter((m) => m !== '')
          .sort();
        if (allow.join(', ') !== documented.join(', ')) {
          fail(
            `Allow is "${exchange.headers.get('allow') ?? ''}", the document has ${documented.join(', ')}.`,
          );
        }
      } else if (status === 405) {
        fail('405 for a path the document does not have.');
      }
      return;
    }
    const requestProblems = this.requestProblems(found.operation, found.values, exchange);
    const accepted = (): void => {
      if (requestProblems.length > 0) {
        fail(
          `the request does not match the document, yet it was accepted: ${requestProblems.join('; ')}.`,
        );
      }
    };
    if (exchange.redirected) {
      // `status` is the final answer, from wherever the redirect led.
      if (!Object.keys(found.operation.responses).some((s) => /^3\d\d$/.test(s))) {
        fail('fetch followed a redirect the operation does not document.');
      }
      accepted();
      return;
    }
    // The Functions host's own refusal of a body over FUNCTIONS_REQUEST_BODY_SIZE_LIMIT: bare, as
    // in Azure, and before the app sees the request (the app's own 413s are JSON).
    if (status === 413 && exchange.text === '' && !exchange.headers.has('content-type')) return;
    const response = this.responseFor(found.operation, status);
    if (!response) fail(`status ${status} is not documented for this operation.`);
    if (status < 400) accepted();
    for (const [name, header] of Object.entries(response!.headers ?? {})) {
      if (header.required && !exchange.headers.has(name)) fail(`header ${name} is missing.`);
    }
    const content = response!.content;
    if (!content) {
      if (exchange.text !== '') fail('the document describes no body, but one came.');
      return;
    }
    const type = mediaType(exchange.headers.get('content-type'));
    const described = content[type];
    if (!described) {
      fail(`content-type "${type}" is not one of ${Object.keys(content).join(', ')}.`);
    }
    if (type !== JSON_TYPE) return;
    let body: unknown;
    try {
      body = JSON.parse(exchange.text);
    } catch {
      fail('the body is not JSON.');
    }
    const problem = this.validate(described!.schema, body);
    if (problem) fail(`response body: ${problem}.`);
  }

  /** The methods (upper case, sorted) the document lists for every template a path matches. */
  methodsAt(path: string): string[] {
    const methods = new Set<string>();
    for (const template of this.templates) {
      if (template.pattern.test(path)) {
        for (const method of Object.keys(template.operations)) methods.add(method.toUpperCase());
      }
    }
    return [...methods].sort();
  }

  /** The operation a request goes to, with its path parameters (undecoded), if any. */
  operationFor(
    method: string,
    path: string,
  ): { template: Template; operation: Operation; values: Record<string, string> } | undefined {
    const candidates = this.templates
      .filter((t) => t.operations[method.toLowerCase()] !== undefined && t.pattern.test(path))
      .sort((a, b) => b.literals - a.literals);
    const template = candidates[0];
    if (!template) return undefined;
    const match = template.pattern.exec(path)!;
    const values = Object.fromEntries(template.names.map((name, i) => [name, match[i + 1] ?? '']));
    return { template, operation: template.operations[method.toLowerCase()]!, values };
  }

  /** How a request strays from its operation's description (empty when it does not). */
  private requestProblems(
    operation: Operation,
    values: Record<string, string>,
    exchange: Exchange,
  ): string[] {
    const problems: string[] = [];
    for (const parameter of operation.parameters ?? []) {
      let value: string | undefined;
      if (parameter.in === 'path') {
        try {
          value = decodeURIComponent(values[parameter.name] ?? '');
        } catch {
          problems.push(`path parameter ${parameter.name} is not percent-encoded UTF-8`);
          continue;
        }
      } else if (parameter.in === 'query') {
        // Repeated keys: the last one counts, as the adapters read them (readQuery).
        value = exchange.query.getAll(parameter.name).at(-1);
      } else continue;
      if (value === undefined) {
        if (parameter.required)
          problems.push(`${parameter.in} parameter ${parameter.name} is missing`);
        continue;
      }
      const problem = this.validate(parameter.schema, value);
      if (problem) problems.push(`${parameter.in} parameter ${parameter.name}: ${problem}`);
    }
    const requestBody = operation.requestBody;
    if (!requestBody || exchange.body === null) return problems;
    const type = mediaType(exchange.contentType);
    const raw = Object.keys(requestBody.content).find(
      (accepted) =>
        accepted !== JSON_TYPE &&
        (accepted === type || (accepted.endsWith('/*') && type.startsWith(accepted.slice(0, -1)))),
    );
    if (raw) return problems;
    const json = requestBody.content[JSON_TYPE];
    if (!json) {
      problems.push(`content-type "${type}" is not one the operation accepts`);
      return problems;
    }
    // Any other label is read as JSON (functions/shared/http.ts readJson); no body counts as `{}`.
    let body: unknown = {};
    if (exchange.body !== undefined && exchange.body !== '') {
      try {
        body = JSON.parse(exchange.body);
      } catch {
        problems.push('the body is not JSON');
        return problems;
      }
    }
    const problem = this.validate(json.schema, body);
    if (problem) problems.push(`request body: ${problem}`);
    return problems;
  }

  /** A documented response, `$ref` resolved. */
  private responseFor(operation: Operation, status: number): ResponseObject | undefined {
    const response = operation.responses[String(status)];
    if (!response?.$ref) return response;
    return this.document.components.responses[response.$ref.split('/').pop()!];
  }

  private expectErrorBody(exchange: Exchange, fail: (problem: string) => never): void {
    if (mediaType(exchange.headers.get('content-type')) !== JSON_TYPE) {
      fail('an error must be JSON.');
    }
    let body: unknown;
    try {
      body = JSON.parse(exchange.text);
    } catch {
      fail('the error body is not JSON.');
    }
    const problem = this.validate({ $ref: '#/components/schemas/Error' }, body);
    if (problem) fail(`error body: ${problem}.`);
  }

  /** Ajv's complaint about `value`, or `undefined` when the schema accepts it. */
  validate(schema: Json, value: unknown): string | undefined {
    let validator = this.compiled.get(schema);
    if (!validator) {
      // The document's components travel along, so `#/components/...` references resolve.
      validator = this.ajv.compile({ ...schema, components: this.document.components });
      this.compiled.set(schema, validator);
    }
    if (validator(value)) return undefined;
    return (validator.errors ?? [])
      .map((e) => (e.instancePath ? `${e.instancePath} ${e.message}` : (e.message ?? 'invalid')))
      .join('; ');
  }
}

const clip = (text: string): string => (text.length > 400 ? `${text.slice(0, 400)}…` : text);

const deliberately = new AsyncLocalStorage<true>();

/**
 * Runs `send` as a test that means to call a path or method the document does not have (an
 * unknown route): its answers must still be the API's JSON errors.
 */
export function outsideTheDocument<T>(send: () => Promise<T>): Promise<T> {
  return deliberately.run(true, send);
}

/** The hosts whose traffic is checked, by API base URL, with their document (loaded once). */
const watched = new Map<string, () => Promise<ApiContract>>();
/** Per API base URL: answers that did not come from the app (a front's own 401), left unchecked. */
const notFromApp = new Map<string, (response: Response) => boolean>();

/** Options of {@link checkApiTraffic}. */
export interface TrafficCheckOptions {
  /**
   * Recognises answers something in front of the app gave itself (the Azure-mode front's 401 to
   * an unauthenticated request): those are not the app's and are not held against its document.
   */
  answeredInFront?: (response: Response) => boolean;
}
let unchecked: typeof fetch | undefined;

/**
 * From now on checks every `fetch` to `baseUrl` against the OpenAPI document served there.
 *
 * @returns a function that stops the checks (when the host stops).
 */
export function checkApiTraffic(baseUrl: string, options: TrafficCheckOptions = {}): () => void {
  if (!unchecked) {
    unchecked = globalThis.fetch;
    globalThis.fetch = checkedFetch;
  }
  const base = baseUrl.replace(/\/+$/, '');
  let contract: Promise<ApiContract> | undefined;
  const load = (): Promise<ApiContract> => (contract ??= loadContract(base));
  watched.set(base, load);
  if (options.answeredInFront) notFromApp.set(base, options.answeredInFront);
  else notFromApp.delete(base);
  return () => {
    // A later host may have been given the same port meanwhile.
    if (watched.get(base) === load) {
      watched.delete(base);
      notFromApp.delete(base);
    }
  };
}

/**
 * Checks an exchange that did not go through this process's `fetch` (a browser's) against the
 * document of the host at `baseUrl`.
 *
 * @throws {ApiContractError} naming what does not match.
 */
export async function checkExchange(baseUrl: string, exchange: Exchange): Promise<void> {
  const load = watched.get(baseUrl.replace(/\/+$/, ''));
  if (!load) throw new Error(`The traffic of ${baseUrl} is not checked (not a startHost host?).`);
  (await load()).check(exchange);
}

async function loadContract(base: string): Promise<ApiContract> {
  const response = await unchecked!(`${base}/openapi.json`);
  if (response.status !== 200) {
    throw new ApiContractError(`GET ${base}/openapi.json answered ${response.status}.`);
  }
  return new ApiContract((await response.json()) as OpenApiDocument);
}

/** The request body as text, `undefined` without one, `null` when it cannot be read twice. */
async function bodyText(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<string | null | undefined> {
  const body =
    init?.body ?? (input instanceof Request && init === undefined ? input.body : undefined);
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) {
    return Buffer.from(body instanceof ArrayBuffer ? new Uint8Array(body) : body).toString('utf8');
  }
  if (body instanceof URLSearchParams) return body.toString();
  if (input instanceof Request && init === undefined) return input.clone().text();
  return null;
}

async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const base = [...watched.keys()].find((b) => url.href === b || url.href.startsWith(`${b}/`));
  if (!base) return unchecked!(input, init);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const headers = new Headers(
    init?.headers ?? (input instanceof Request ? input.headers : undefined),
  );
  const body = await bodyText(input, init);
  const deliberate = deliberately.getStore() === true;
  const contract = await watched.get(base)!();
  const response = await unchecked!(input, init);
  if (notFromApp.get(base)?.(response)) return response;
  const text = await response.clone().text();
  contract.check(
    {
      method,
      path: url.pathname.slice(new URL(base).pathname.length) || '/',
      query: url.searchParams,
      // fetch labels a string body text/plain when the caller names no type.
      contentType:
        headers.get('content-type') ??
        (typeof body === 'string' ? 'text/plain;charset=UTF-8' : undefined),
      body,
      status: response.status,
      headers: response.headers,
      text,
      redirected: response.redirected,
    },
    deliberate,
  );
  return response;
}
