/**
 * The host's own endpoints (`/admin/*`, `/runtime/webhooks/durabletask/*`) run any function and
 * any orchestration operation with no identity; in Azure they need the system or master key.
 * Locally they answer without a key only while the host listens on loopback; otherwise, and behind
 * the Azure-mode front, every caller presents the key printed at startup (`x-functions-key` or
 * `code`, 401 without; API.md "The host's own endpoints").
 *
 * Behind the front the host serves only what carries the front's per-run secret header
 * ({@link FRONT_SECRET_HEADER}), so no other local process can hand the app a principal; the one
 * exception is a keyed request to the host's own endpoints (the app's Durable client, in-process).
 * More: docs/local-host.md "Who may drive it", docs/azure-mode.md.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Refusal } from './requestGuard';

/** Where the Durable extension's HTTP API lives (as in tools/durable/http/clientInput.ts). */
const WEBHOOKS = '/runtime/webhooks/durabletask';

/** The header a caller sends the key in (the query parameter is `code`), as in Azure. */
export const HOST_KEY_HEADER = 'x-functions-key';

/** The header the Azure-mode front adds to every request it forwards to the internal host. */
export const FRONT_SECRET_HEADER = 'x-local-front-secret';

/** A new key or secret: 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

function isHostPath(pathname: string): boolean {
  const lower = pathname.toLowerCase();
  return (
    lower === '/admin' ||
    lower.startsWith('/admin/') ||
    lower === WEBHOOKS ||
    lower.startsWith(`${WEBHOOKS}/`)
  );
}

/**
 * True for the host's own endpoints: the admin API and the Durable webhooks — judged on the path
 * as sent and as URL parsing resolves it (`/x/../admin/…`), so no spelling reaches them unchecked.
 */
export function isHostEndpoint(pathname: string): boolean {
  let resolved = pathname;
  try {
    resolved = new URL(pathname, 'http://host.invalid').pathname;
  } catch {
    // Not a path URL parsing takes: judged as sent.
  }
  return isHostPath(pathname) || isHostPath(resolved);
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Constant-time comparison of a presented value with the expected one. */
function matches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True when the request presents `key`: the `x-functions-key` header or the `code` parameter. */
export function presentsKey(
  key: string,
  headers: IncomingHttpHeaders,
  search: URLSearchParams,
): boolean {
  return (
    matches(firstValue(headers[HOST_KEY_HEADER]), key) ||
    matches(search.get('code') ?? undefined, key)
  );
}

/** What the server checks before anything else, when it has a key or sits behind a front. */
export interface HostAccess {
  /** The host key: required on the host's own endpoints. Absent: they answer without one. */
  key?: string;
  /** The Azure-mode front's secret: required on every request that does not present the key. */
  frontSecret?: string;
}

/**
 * Refuses a request the access rules do not admit (see the module comment).
 *
 * @returns 401 `HostKeyRequired` on a host endpoint without the key, 403 `NotThroughFront` on
 *   anything else that did not come through the front; undefined when the request may go on.
 */
export function hostAccessRefusal(
  access: HostAccess,
  pathname: string,
  search: URLSearchParams,
  headers: IncomingHttpHeaders,
): Refusal | undefined {
  if (isHostEndpoint(pathname) && access.key !== undefined) {
    if (presentsKey(access.key, headers, search)) return undefined;
    return {
      status: 401,
      code: 'HostKeyRequired',
      message:
        `${pathname} is one of the host's own endpoints: send the host key printed at startup ` +
        `(${HOST_KEY_HEADER} header or code query parameter), as Azure wants the system or master key.`,
    };
  }
  if (
    access.frontSecret !== undefined &&
    !matches(firstValue(headers[FRONT_SECRET_HEADER]), access.frontSecret)
  ) {
    return {
      status: 403,
      code: 'NotThroughFront',
      message:
        'This host runs behind the Azure-mode front and serves only what comes through it: call ' +
        'the front (the address npm start printed), not this internal port.',
    };
  }
  return undefined;
}
