/**
 * One URL per view, in the page's fragment (`#/departments/Sales`), so Back, Forward, reloads and
 * links work without the server knowing the routes: the function app serves only the console's
 * files, by exact name. Pure: parsing and formatting only.
 */

/** A view and what it shows. */
export type Route =
  | { view: 'home' }
  | { view: 'departments'; pages?: number }
  | { view: 'department'; department: string; pages?: number }
  | { view: 'employee'; department: string; employeeId: string }
  | { view: 'search'; lastName: string; pages?: number }
  | { view: 'logs'; source?: string; hour?: string }
  | { view: 'operations' }
  | { view: 'notFound'; path: string };

/** Pages of a list shown ("Show more" pressed `pages - 1` times); at most this many restored. */
export const MAX_PAGES = 50;

/** `pages=` of a query: a whole number from 2 to {@link MAX_PAGES}, else none. */
function pagesOf(query: URLSearchParams): { pages?: number } {
  const raw = query.get('pages') ?? '';
  const pages = /^\d{1,3}$/.test(raw) ? Number(raw) : 0;
  return pages > 1 ? { pages: Math.min(pages, MAX_PAGES) } : {};
}

/** An hour as the log window names it (`2026-12-07T13`, UTC), or none when malformed. */
function hourOf(raw: string | null): string | undefined {
  if (!raw || !/^\d{4}-\d\d-\d\dT\d\d$/.test(raw)) return undefined;
  return Number.isNaN(Date.parse(`${raw}:00:00Z`)) ? undefined : raw;
}

const morePages = (pages: number | undefined): number | undefined =>
  pages !== undefined && pages > 1 ? pages : undefined;

/** A query string (`?a=b`) of the set entries, or nothing. */
function query(entries: Record<string, string | number | undefined>): string {
  const set = Object.entries(entries).filter(
    (e): e is [string, string | number] => e[1] !== undefined && e[1] !== '',
  );
  if (set.length === 0) return '';
  const pairs = set.map(([k, v]): [string, string] => [k, String(v)]);
  return `?${new URLSearchParams(pairs).toString()}`;
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route of a location fragment (`location.hash`, with or without its `#`). */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [pathPart = '', queryPart = ''] = raw.split('?', 2);
  const parts = pathPart.split('/').filter((p) => p !== '');
  const segments = parts.map(decode);
  const notFound: Route = { view: 'notFound', path: raw };
  const params = new URLSearchParams(queryPart);
  if (segments.some((s) => s === undefined || s === '')) return notFound;
  const [first, second, third, fourth, ...rest] = segments as string[];
  if (first === undefined) return { view: 'home' };
  if (first === 'departments') {
    if (second === undefined) return { view: 'departments', ...pagesOf(params) };
    if (third === undefined) return { view: 'department', department: second, ...pagesOf(params) };
    if (third === 'employees' && fourth !== undefined && rest.length === 0)
      return { view: 'employee', department: second, employeeId: fourth };
    return notFound;
  }
  if (second !== undefined) return notFound;
  if (first === 'search') {
    return { view: 'search', lastName: params.get('lastName') ?? '', ...pagesOf(params) };
  }
  if (first === 'logs') {
    const source = params.get('source')?.trim();
    const hour = hourOf(params.get('hour'));
    return { view: 'logs', ...(source ? { source } : {}), ...(hour ? { hour } : {}) };
  }
  if (first === 'operations') return { view: 'operations' };
  return notFound;
}

const seg = encodeURIComponent;

/** The fragment (`#/...`) of a route; {@link parseRoute} reads it back. */
export function href(route: Route): string {
  switch (route.view) {
    case 'home':
      return '#/';
    case 'departments':
      return `#/departments${query({ pages: morePages(route.pages) })}`;
    case 'department':
      return `#/departments/${seg(route.department)}${query({ pages: morePages(route.pages) })}`;
    case 'employee':
      return `#/departments/${seg(route.department)}/employees/${seg(route.employeeId)}`;
    case 'search':
      return `#/search${query({ lastName: route.lastName, pages: morePages(route.pages) })}`;
    case 'logs':
      return `#/logs${query({ source: route.source, hour: route.hour })}`;
    case 'operations':
      return '#/operations';
    case 'notFound':
      return `#/${route.path.replace(/^\//, '')}`;
  }
}
