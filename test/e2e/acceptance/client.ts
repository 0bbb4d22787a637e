/**
 * A small HTTP client for the acceptance tests: sends requests to the app the way an API client
 * would and checks the conventions every response of API.md shares. Its `fetch` goes through the
 * OpenAPI checks `startHost` and `startAzureMode` install (test/support/apiContract.ts), so every
 * request and response is also held against the served document.
 *
 * Callers are described once, as `x-ms-client-principal` values (test/support/principals.ts); a
 * {@link CallerTransport} says how such a caller proves who it is to the server called: by the
 * header itself to the local host ({@link principalHeaderTransport}), by a bearer token to the
 * Azure-mode front ({@link bearerTransport}).
 */
import { randomBytes } from 'node:crypto';
import { expectPlatformRefusal, type AzureMode } from '../../support/azureMode';
import { adminPrincipal, PRINCIPAL_HEADER } from '../../support/principals';
import { claimsForPrincipal } from '../../../tools/easyauth/tokenClaims';
import { WAIT_MS } from '../../support/waits';

/** What a test looks at in a response. */
export interface Reply {
  status: number;
  headers: Headers;
  etag: string | null;
  text: string;
  /** The parsed body (`undefined` when there is none). */
  body: unknown;
}

/** A JSON object body (what almost every route answers). */
export type JsonObject = Record<string, unknown>;

/** Options of one request. */
export interface SendOptions {
  /** A value sent as JSON (with `content-type: application/json`). */
  json?: unknown;
  /** A raw body, sent as is (content type from `headers`). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /**
   * The caller's `x-ms-client-principal` value (test/support/principals.ts); default the admin
   * principal, `null` sends none (an anonymous caller).
   */
  principal?: string | null;
  /** How the caller proves who it is (default {@link principalHeaderTransport}). */
  transport?: CallerTransport;
}

/** How a caller proves who it is to the server a test calls, and how that server refuses nobody. */
export interface CallerTransport {
  /** The request headers that make the app see `principal` (a principal header value) as the caller. */
  identify(principal: string): Promise<Record<string, string>>;
  /**
   * Asserts the refusal of a caller that brings no usable identity: the app's JSON 401 (with
   * `code`, when given) where nothing stands in front of it; behind App Service authentication the
   * platform's own 401, which the app never sees.
   */
  expectUnauthenticated(reply: Reply, code?: string): void;
}

/** The local host: the principal header is sent by hand, and the app itself refuses nobody. */
export const principalHeaderTransport: CallerTransport = {
  identify: (principal) => Promise.resolve({ [PRINCIPAL_HEADER]: principal }),
  expectUnauthenticated: (reply, code) => void expectError(reply, 401, code),
};

/**
 * The Azure-mode front (test/support/azureMode.ts): the caller sends `Authorization: Bearer` with
 * a token whose claims make the platform hand the app that principal (one token per principal).
 * A value that decodes to no principal (`'not base64!'`) is sent as the token itself: a credential
 * the platform cannot read, as the header was one the app cannot read.
 */
export function bearerTransport(azure: Pick<AzureMode, 'tokenFor'>): CallerTransport {
  const tokens = new Map<string, Promise<string>>();
  const readable = (principal: string): boolean => {
    try {
      claimsForPrincipal(principal);
      return true;
    } catch {
      return false;
    }
  };
  const tokenOf = (principal: string): Promise<string> => {
    let token = tokens.get(principal);
    if (!token) {
      token = readable(principal) ? azure.tokenFor(principal) : Promise.resolve(principal);
      tokens.set(principal, token);
    }
    return token;
  };
  return {
    identify: async (principal) => ({ authorization: `Bearer ${await tokenOf(principal)}` }),
    expectUnauthenticated: (reply) => expectPlatformRefusal(reply),
  };
}

/** Sends one request to `baseUrl + path` (as admin unless told) and reads the whole answer. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Reply> {
  const principal = options.principal === undefined ? adminPrincipal : options.principal;
  const transport = options.transport ?? principalHeaderTransport;
  const headers: Record<string, string> = {
    ...(principal === null ? {} : await transport.identify(principal)),
    ...options.headers,
  };
  let body: string | Uint8Array | undefined = options.raw;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  return {
    status: response.status,
    headers: response.headers,
    etag: response.headers.get('etag'),
    text,
    body: parsed,
  };
}

/**
 * A caller of the app whose base URL `baseUrl` gives when called (a test's host starts after the
 * caller is made): an optional JSON body, as admin unless a principal is given.
 */
export function callerOf(
  baseUrl: () => string,
): (method: string, path: string, json?: unknown, principal?: string) => Promise<Reply> {
  return (method, path, json, principal) =>
    send(baseUrl(), method, path, {
      ...(json === undefined ? {} : { json }),
      ...(principal ? { principal } : {}),
    });
}

/** The body as an object (fails the test when it is not one). */
export function obj(reply: Reply): JsonObject {
  expect(typeof reply.body).toBe('object');
  expect(reply.body).not.toBeNull();
  return reply.body as JsonObject;
}

/** Asserts a JSON success response with the given status and returns its body. */
export function expectJson(reply: Reply, status: number): JsonObject {
  if (reply.status !== status) {
    throw new Error(`Expected ${status}, got ${reply.status}: ${reply.text}`);
  }
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  return obj(reply);
}

/**
 * Asserts API.md's error response: the status, `content-type: application/json` and exactly
 * `{"error": {"code", "message", "target"?}}` with a non-empty code and message.
 */
export function expectError(
  reply: Reply,
  status: number,
  code?: string,
): { code: string; message: string } {
  if (reply.status !== status) {
    throw new Error(`Expected ${status}, got ${reply.status}: ${reply.text}`);
  }
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  const body = obj(reply);
  expect(Object.keys(body)).toEqual(['error']);
  const error = body.error as { code: string; message: string };
  expect(typeof error.code).toBe('string');
  expect(error.code.length).toBeGreaterThan(0);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  if (code !== undefined) expect(error.code).toBe(code);
  return error;
}

/** A department name no other test uses (API.md: letters, digits, space, `-`, `_`). */
export function uniqueDepartment(prefix: string): string {
  return `${prefix} ${randomBytes(5).toString('hex')}`;
}

/** A path segment, percent-encoded (a department name with a space, an email with `/`...). */
export const seg = encodeURIComponent;

/** Polls `probe` until it returns a value (not `undefined`) or the time runs out. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`No result within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Posts one Warning line from `source` as a telemetry client and waits until `GET /logs` reads it
 * back (the line goes through the log queue and the flush first).
 */
export async function logLineAndWait(
  baseUrl: string,
  source: string,
  message: string,
  principal: string,
): Promise<void> {
  const entries = [{ at: new Date().toISOString(), level: 'Warning', message }];
  const logged = await send(baseUrl, 'POST', '/logs', { json: { source, entries }, principal });
  if (logged.status !== 202) throw new Error(`POST /logs answered ${logged.status}.`);
  await eventually(async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const reply = await send(baseUrl, 'GET', `/logs?source=${source}&from=${from}&to=${to}`);
    return JSON.stringify(reply.body).includes(message) ? true : undefined;
  });
}
