/**
 * One URL per view, in the page's fragment (`#/departments/Sales`), so Back, Forward, reloads and
 * links work without the server knowing the routes: the function app serves only the console's
 * files, by exact name. Pure: parsing and formatting only.
 */

/** A view and what it shows. */
export type Route =
  | { view: 'home' }
  | { view: 'departments' }
  | { view: 'department'; department: string }
  | { view: 'employee'; department: string; employeeId: string }
  | { view: 'search'; lastName: string }
  | { view: 'logs' }
  | { view: 'operations' }
  | { view: 'notFound'; path: string };

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
  if (segments.some((s) => s === undefined || s === '')) return notFound;
  const [first, second, third, fourth, ...rest] = segments as string[];
  if (first === undefined) return { view: 'home' };
  if (first === 'departments') {
    if (second === undefined) return { view: 'departments' };
    if (third === undefined) return { view: 'department', department: second };
    if (third === 'employees' && fourth !== undefined && rest.length === 0)
      return { view: 'employee', department: second, employeeId: fourth };
    return notFound;
  }
  if (second !== undefined) return notFound;
  if (first === 'search') {
    return { view: 'search', lastName: new URLSearchParams(queryPart).get('lastName') ?? '' };
  }
  if (first === 'logs') return { view: 'logs' };
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
      return '#/departments';
    case 'department':
      return `#/departments/${seg(route.department)}`;
    case 'employee':
      return `#/departments/${seg(route.department)}/employees/${seg(route.employeeId)}`;
    case 'search':
      return route.lastName
        ? `#/search?${new URLSearchParams({ lastName: route.lastName }).toString()}`
        : '#/search';
    case 'logs':
      return '#/logs';
    case 'operations':
      return '#/operations';
    case 'notFound':
      return `#/${route.path.replace(/^\//, '')}`;
  }
}
