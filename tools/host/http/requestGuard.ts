/**
 * Who may drive the local host: the checks its server makes before it serves anything (pure, so
 * they are unit-tested with awkward input). Loopback keeps other machines out but not pages in the
 * developer's own browser: DNS rebinding ({@link hostRefusal}) and any page's writes to the admin
 * API and the Durable webhooks ({@link localWriteRefusal}). Cross-site writes to function routes
 * are the app's to refuse, as in Azure, whose host checks no `Origin`. The threats and the rules:
 * docs/local-host.md "Who may drive it".
 */
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';

/** A refused request: the status and the API's JSON error. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** RFC 9110's safe methods; every other method may change something. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** True for methods that may change something (POST, PUT, PATCH, DELETE and unknown ones). */
export function isUnsafeMethod(method: string | undefined): boolean {
  return !SAFE_METHODS.has((method ?? 'GET').toUpperCase());
}

const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/i;

/**
 * A `Host` header (or a bare host name or address) as URLs write it: `hostname` lower-cased, an
 * IPv4 address in dotted decimal, IPv6 bracketed and compressed; `host` adds a non-default port.
 *
 * @returns undefined for anything that is not `name[:port]` (user info, paths, spaces, several
 *   values, non-ASCII, a port over 65535).
 */
export function parseHost(
  value: string | undefined,
): { hostname: string; host: string } | undefined {
  if (value === undefined) return undefined;
  // A bare IPv6 address (a --listen value, an interface address) gets its brackets.
  const text = !value.startsWith('[') && value.split(':').length > 2 ? `[${value}]` : value;
  const match = HOST_PATTERN.exec(text);
  if (!match || (match[2] !== undefined && Number(match[2]) > 65535)) return undefined;
  try {
    const url = new URL(`http://${text}`);
    return { hostname: url.hostname, host: url.host };
  } catch {
    return undefined;
  }
}

/** True for `localhost`, 127.0.0.0/8 and `[::1]` (as {@link parseHost} writes them). */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** A listen address that binds every interface. */
export function isWildcardHostname(hostname: string): boolean {
  return hostname === '0.0.0.0' || hostname === '[::]';
}

/**
 * This machine's own names: its host name and the address of each network interface (what a
 * client on the network may put in `Host` when the host listens on every interface).
 */
export function machineHostnames(): string[] {
  const names = [os.hostname()];
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const info of addresses ?? []) names.push(info.address);
  }
  return names;
}

/** The names the host answers to besides loopback ones. */
export interface HostPolicy {
  /** The address the server listens on (its own name is accepted unless it is a wildcard). */
  listenAddress: string;
  /** Names given with `--allowed-host` (a port, if any, is ignored). */
  allowedHosts?: readonly string[];
  /** This machine's names, asked only when listening on every interface. */
  machineNames?: () => readonly string[];
}

const SHOWN_LENGTH = 80;

function shown(value: string): string {
  return JSON.stringify(value.length > SHOWN_LENGTH ? `${value.slice(0, SHOWN_LENGTH)}…` : value);
}

/**
 * Refuses a request whose `Host` is not a name of this host: a loopback name (any port), the
 * listen address, a name of `allowedHosts`, or — when listening on every interface — one of the
 * machine's own names and addresses. This is what defeats DNS rebinding.
 *
 * @returns a 421 `MisdirectedRequest`, or undefined when the host may answer.
 */
export function hostRefusal(
  hostHeader: string | undefined,
  policy: HostPolicy,
): Refusal | undefined {
  const hostname = parseHost(hostHeader)?.hostname;
  if (hostname !== undefined && isLoopbackHostname(hostname)) return undefined;
  if (hostname !== undefined) {
    const listen = parseHost(policy.listenAddress)?.hostname;
    const names = [...(policy.allowedHosts ?? [])];
    if (listen !== undefined && isWildcardHostname(listen))
      names.push(...(policy.machineNames ?? machineHostnames)());
    else if (listen !== undefined) names.push(listen);
    if (names.some((name) => parseHost(name)?.hostname === hostname)) return undefined;
  }
  return {
    status: 421,
    code: 'MisdirectedRequest',
    message:
      hostHeader === undefined
        ? 'The request has no Host header; this local host answers only to the names it serves.'
        : `This local host does not answer to the Host ${shown(hostHeader)}: only to loopback names ` +
          '(localhost, 127.0.0.1, [::1]), its listen address and names given with --allowed-host. ' +
          '(A page that made its own name resolve to this machine is refused this way.)',
  };
}

/**
 * An `Origin` header as browsers serialise it (`scheme://host[:port]`, nothing else).
 *
 * @returns undefined for `null`, several values, or anything not in that exact form.
 */
export function parseOrigin(
  value: string,
): { protocol: string; hostname: string; host: string } | undefined {
  try {
    const url = new URL(value);
    if (url.origin !== value) return undefined;
    return { protocol: url.protocol, hostname: url.hostname, host: url.host };
  } catch {
    return undefined;
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function crossSite(message: string): Refusal {
  return { status: 403, code: 'CrossSiteRequest', message };
}

/** Browsers send `Sec-Fetch-Site` on every request; `cross-site` is a page of another site. */
function markedCrossSite(headers: IncomingHttpHeaders): Refusal | undefined {
  return firstValue(headers['sec-fetch-site'])?.trim().toLowerCase() === 'cross-site'
    ? crossSite('The browser marked this request as cross-site (Sec-Fetch-Site).')
    : undefined;
}

/** True when `value` is the media type `application/json` (parameters such as charset allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  return value?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * The stricter rule of the admin API and the Durable webhooks, for unsafe methods: an `Origin`,
 * if any, must be a loopback one; a cross-site `Sec-Fetch-Site` is refused; a body must be
 * `Content-Type: application/json`.
 *
 * @returns 403 `CrossSiteRequest`, 415 `UnsupportedMediaType`, or undefined.
 */
export function localWriteRefusal(
  method: string | undefined,
  headers: IncomingHttpHeaders,
  bodyLength: number,
): Refusal | undefined {
  if (!isUnsafeMethod(method)) return undefined;
  const marked = markedCrossSite(headers);
  if (marked) return marked;
  const origin = firstValue(headers.origin);
  if (origin !== undefined) {
    const from = parseOrigin(origin);
    if (!from || !isLoopbackHostname(from.hostname))
      return crossSite(
        `The origin ${shown(origin)} may not call this endpoint: only loopback pages and clients ` +
          'that send no Origin may.',
      );
  }
  if (bodyLength > 0 && !isJsonContentType(firstValue(headers['content-type']))) {
    return {
      status: 415,
      code: 'UnsupportedMediaType',
      message: 'A request body here must be sent with Content-Type: application/json.',
    };
  }
  return undefined;
}
