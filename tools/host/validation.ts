/**
 * What the Functions host refuses at startup: invalid or duplicate function names, routes in the
 * host's reserved space (`admin`, `runtime`), and HTTP routes that conflict. Azure marks such a
 * function "in error" and leaves it out; the local host refuses to start, so the mistake cannot
 * go unnoticed before a deployment.
 */

/** The host's function-name rule: a letter, then letters, digits, `_`, `-` (≤ 128); not "host". */
const FUNCTION_NAME = /^[a-z][a-z0-9_-]{0,127}$/i;

/** Problems found at startup; the host lists them all and exits. */
export class HostStartupError extends Error {
  constructor(readonly problems: string[]) {
    super(
      problems.length === 1
        ? problems[0]!
        : `The local host cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'HostStartupError';
  }
}

/** Why a function name is refused, or undefined when it is fine. */
export function functionNameProblem(name: string): string | undefined {
  if (!FUNCTION_NAME.test(name) || name.toLowerCase() === 'host') {
    return `'${name}' is not a valid function name (a letter, then up to 127 letters, digits, '_' or '-').`;
  }
  if (name.toLowerCase().startsWith('admin')) {
    return `Function '${name}': function names starting with 'admin' are reserved by the Functions host.`;
  }
  return undefined;
}

/** Names that appear more than once, compared case-insensitively as the host does. */
export function duplicateNames(names: string[]): string[] {
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  for (const name of names) {
    const key = name.toLowerCase();
    if (seen.has(key)) duplicates.push(name);
    else seen.set(key, name);
  }
  return duplicates;
}

/** True for routes in the host's own space (`/admin/...`, `/runtime/...`). */
export function isReservedRoute(route: string): boolean {
  const normalized = route.replace(/^\/+|\/+$/g, '').toLowerCase();
  return normalized.startsWith('admin') || normalized.startsWith('runtime');
}

/** A route as a function declares it (for the checks before start). */
export interface RouteDeclaration {
  functionName: string;
  route: string;
  /** Upper-cased; empty = every method. */
  methods: string[];
}

/**
 * The host's conflict rule: two routes conflict when their templates are equal (ignoring case
 * and outer slashes) and their methods overlap (no methods = all methods).
 */
export function routesConflict(a: RouteDeclaration, b: RouteDeclaration): boolean {
  const normalize = (route: string): string => route.replace(/^\/+|\/+$/g, '').toLowerCase();
  if (normalize(a.route) !== normalize(b.route)) return false;
  if (a.methods.length === 0 || b.methods.length === 0) return true;
  return a.methods.some((method) => b.methods.includes(method));
}

/** Every naming problem of an app's functions: invalid names and case-insensitive duplicates. */
export function namingProblems(names: string[]): string[] {
  const problems = names.map(functionNameProblem).filter((p): p is string => p !== undefined);
  for (const duplicate of duplicateNames(names)) {
    problems.push(
      `The function name '${duplicate}' must be unique within the function app (names ignore case).`,
    );
  }
  return problems;
}
