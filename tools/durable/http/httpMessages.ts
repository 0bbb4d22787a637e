/**
 * The request and response plumbing of the durable HTTP API (httpApi.ts): reading and checking
 * bodies and query parameters, and writing JSON answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest accepted request body (inputs and event data). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A refusal with its HTTP status and error code, answered as `{"error":{"code","message"}}`. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A date query parameter as ISO text; `undefined` when absent or empty.
 *
 * @throws {HttpProblem} 400 `InvalidDate`.
 */
export function dateParam(url: URL, name: string): string | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime()))
    throw new HttpProblem(400, 'InvalidDate', `${name} is not a date: "${raw}".`);
  return date.toISOString();
}

/**
 * The body as JSON text (validated), or undefined when empty.
 *
 * @throws {HttpProblem} 400 `InvalidJson`.
 */
export function jsonBody(text: string, what: string): string | undefined {
  if (text.trim() === '') return undefined;
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    throw new HttpProblem(400, 'InvalidJson', `${what} must be JSON.`);
  }
}

/**
 * The whole request body.
 *
 * @throws {HttpProblem} 413 `TooLarge` past {@link MAX_BODY_BYTES}.
 */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      throw new HttpProblem(413, 'TooLarge', `The request body is over ${MAX_BODY_BYTES} bytes.`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Answers with a JSON body. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Answers with no body. */
export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'Content-Length': 0 });
  res.end();
}

/**
 * The origin the caller used, from its `Host` header (which the host checked): the management
 * URLs an answer carries name it, as Azure's name the app's public host name — never the port of
 * a host that sits behind a front. Undefined without one (the host's own origin is used).
 */
export function callerOrigin(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).origin;
  } catch {
    return undefined;
  }
}
