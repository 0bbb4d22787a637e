/**
 * Where the front may send a browser after sign-in or sign-out (`post_login_redirect_uri`,
 * `post_logout_redirect_uri`): a path of the app itself, never another site (no open redirect).
 * App Service also accepts absolute URLs listed in `allowedExternalRedirectUrls`; the settings
 * list none, so the front accepts relative paths only.
 */

const BASE = 'http://front.invalid';

/**
 * The same-origin path `value` names, normalised, or `undefined` when it could leave the site.
 *
 * Refused: anything not starting with one `/` (absolute URLs, `//host`, `/\host`), any backslash
 * (browsers read it as `/`), control characters and whitespace.
 *
 * @param value - the query parameter; absent or empty means `/`.
 */
export function localRedirect(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return '/';
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u0020\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(`${BASE}${value}`);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
