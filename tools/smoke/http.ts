/**
 * The read-only HTTP of the smoke checks (checks.ts): one GET with a timeout, and reading what
 * came back.
 */
/** An answer, read in full within the timeout. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** GET `url` without following redirects; rejects with a readable message on timeout. */
export async function get(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Answer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    // globalThis.fetch at call time: the e2e tests' contract checks wrap it.
    const response = await globalThis.fetch(url, { headers, redirect: 'manual', signal });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new Error(`no answer from GET ${url} within ${timeoutMs} ms`, { cause: error });
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(
      `GET ${url} failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      { cause: error },
    );
  }
}

/** `text` as JSON; `undefined` when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** At most 200 characters of `text`, on one line, for a message. */
export const clip = (text: string): string =>
  text.length > 200 ? `${text.slice(0, 200)}…` : text.replace(/\s+/g, ' ');

/** The app's JSON error code (`{"error":{"code"}}`), when the body is one. */
export function appErrorCode(text: string): string | undefined {
  const body = parseJson(text) as { error?: { code?: unknown } } | undefined;
  return typeof body?.error?.code === 'string' ? body.error.code : undefined;
}
