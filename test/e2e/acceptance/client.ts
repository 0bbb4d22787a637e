/**
 * A small HTTP client for the acceptance tests: sends requests to the local host the way an API
 * client would and checks the conventions every response of API.md shares. Its `fetch` goes
 * through the OpenAPI checks `startHost` installs (test/support/apiContract.ts), so every request
 * and response is also held against the served document.
 */
import { randomBytes } from 'node:crypto';
import { adminPrincipal, PRINCIPAL_HEADER } from '../../support/principals';

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
}

/** Sends one request to `baseUrl + path` (as admin unless told) and reads the whole answer. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Reply> {
  const principal = options.principal === undefined ? adminPrincipal : options.principal;
  const headers: Record<string, string> = {
    ...(principal === null ? {} : { [PRINCIPAL_HEADER]: principal }),
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
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`No result within ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
