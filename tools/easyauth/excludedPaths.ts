/**
 * Which requests App Service authentication lets through without an identity
 * (`globalValidation.excludedPaths`), as Microsoft documents the setting: an entry matches its
 * exact path, case-insensitively, whatever the query string; an entry ending in `/*` matches every
 * path below that prefix. No other character is a wildcard.
 *
 * The front decides on the path the app will route, so it first normalises the request target as
 * a URL parser does ({@link normalizeRequestTarget}: `.`/`..` segments resolved, also when written
 * `%2e`, backslashes read as `/`) and forwards that normalised path. `/api/console/../departments`
 * is therefore `/api/departments` both for the exclusion and for the app: no exclusion can be
 * reached around, and no path the app sees differs from the one that was judged.
 */

/** A request target in origin form, normalised: what the front judges and forwards. */
export interface NormalizedTarget {
  /** The path, dot segments resolved, percent-encoding kept (`%2F` stays data, not a separator). */
  pathname: string;
  /** The query string with its `?`, or `''`. */
  search: string;
}

/** A base for parsing targets; never contacted. The target is appended, not resolved (`//x`). */
const BASE = 'http://front.invalid';

/**
 * Normalises a request target (`request.url`) as a WHATWG URL parser, like the one in front of
 * the Functions host, would.
 *
 * @returns `undefined` when the target is not in origin form (absolute-form, `*`, empty) or does
 *   not parse; the front answers 400 to those.
 */
export function normalizeRequestTarget(target: string): NormalizedTarget | undefined {
  if (!target.startsWith('/')) return undefined;
  let url: URL;
  try {
    url = new URL(`${BASE}${target}`);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  return { pathname: url.pathname, search: url.search };
}

/** Percent-encodings of unreserved characters mean the character itself (RFC 3986 §6.2.2.2). */
function canonical(path: string): string {
  return path
    .replace(/%([0-9a-f]{2})/gi, (encoded: string, hex: string) => {
      const char = String.fromCharCode(parseInt(hex, 16));
      return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${hex.toUpperCase()}`;
    })
    .toLowerCase();
}

/**
 * Whether a normalised path is excluded from authentication.
 *
 * @param excludedPaths - the setting's entries (`/api/health`, `/api/console/*`).
 * @param pathname - a path from {@link normalizeRequestTarget} (no query).
 */
export function isExcludedPath(excludedPaths: readonly string[], pathname: string): boolean {
  const path = canonical(pathname);
  return excludedPaths.some((entry) => {
    const rule = canonical(entry);
    // `/api/console/*` covers `/api/console/` and everything below it, not `/api/consoleX`.
    return rule.endsWith('/*') ? path.startsWith(rule.slice(0, -1)) : path === rule;
  });
}
