/** The URLs the smoke checks call, derived from what they are given (pure). */

/**
 * The API base of a base URL: an origin (or `/`) gets the default route prefix `/api`; a URL with
 * a path is taken as the API base itself. No trailing slash.
 *
 * @throws {TypeError} when `baseUrl` is not an absolute http(s) URL.
 */
export function apiBaseUrl(baseUrl: string): string {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError(`The base URL must be http or https, got "${baseUrl}".`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/api' : path}`;
}

/**
 * The scripts (`<script src>`) and stylesheets (`<link rel="stylesheet" href>`) an HTML page
 * references, resolved against the page's URL, same-origin ones only (the console loads nothing
 * from elsewhere; its CSP would refuse it), each once.
 */
export function consoleAssetUrls(html: string, pageUrl: string): string[] {
  const found: string[] = [];
  const attribute = (tag: string, name: string): string | undefined =>
    new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
      .exec(tag)
      ?.slice(1)
      .find((value) => value !== undefined);
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, 'src');
    if (src) found.push(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    const href = attribute(tag, 'href');
    if (href && rel.includes('stylesheet')) found.push(href);
  }
  const origin = new URL(pageUrl).origin;
  return [...new Set(found.map((ref) => new URL(ref, pageUrl).href))].filter(
    (url) => new URL(url).origin === origin,
  );
}
