/**
 * HTTP trigger route templates in ASP.NET Core's syntax, as the Functions host reads them:
 * literal segments (matched case-insensitively), `{param}`, optional `{param?}`, defaults
 * `{param=value}`, inline constraints `{id:int}`, catch-all `{*rest}`, and complex segments such
 * as `{name}.{ext}`. Braces are escaped by doubling them.
 */
import { createConstraint, RouteConstraintError, type RouteConstraint } from './routeConstraints';

/** Literal text of a route segment. */
export interface LiteralPart {
  kind: 'literal';
  text: string;
}

/** A `{name}` parameter of a route segment (with its constraint, optional or catch-all). */
export interface ParameterPart {
  kind: 'parameter';
  name: string;
  optional: boolean;
  catchAll: boolean;
  defaultValue?: string;
  constraints: RouteConstraint[];
}

/** One part of a route segment. */
export type TemplatePart = LiteralPart | ParameterPart;

/** One `/`-separated segment of a route template. */
export interface TemplateSegment {
  parts: TemplatePart[];
  /** For complex segments: the anchored pattern matching the whole segment. */
  pattern?: RegExp;
}

/** A parsed route template. */
export interface RouteTemplate {
  /** The template as written, without leading or trailing slashes. */
  text: string;
  segments: TemplateSegment[];
}

/** The route template is malformed; the message says how. */
export class RouteTemplateError extends Error {
  constructor(template: string, reason: string) {
    super(`The route template '${template}' is invalid: ${reason}`);
    this.name = 'RouteTemplateError';
  }
}

/** What may follow a constraint: more constraints, then a default or the optional marker. */
const CONSTRAINT_TAIL = /^(?::[A-Za-z]+(?:\([^)]*\))?)*(?:=.*|\?)?$/s;

/**
 * Index of the ')' closing a constraint's arguments in `text` (which starts with '('). A regex
 * may contain parentheses itself, so its argument ends at the first ')' after which the rest of
 * the parameter still parses.
 */
function closingParenthesis(text: string, isRegex: boolean): number {
  if (!isRegex) return text.indexOf(')');
  for (let i = 1; i < text.length; i++) {
    if (text[i] === ')' && CONSTRAINT_TAIL.test(text.slice(i + 1))) return i;
  }
  return -1;
}

function parseParameter(template: string, body: string): ParameterPart {
  let rest = body;
  let catchAll = false;
  if (rest.startsWith('**')) {
    catchAll = true;
    rest = rest.slice(2);
  } else if (rest.startsWith('*')) {
    catchAll = true;
    rest = rest.slice(1);
  }
  const nameMatch = /^[^:=?]*/.exec(rest)!;
  const name = nameMatch[0];
  rest = rest.slice(name.length);
  if (!name || /[{}/*?]/.test(name)) {
    throw new RouteTemplateError(template, `'{${body}}' has no valid parameter name.`);
  }

  const constraints: RouteConstraint[] = [];
  while (rest.startsWith(':')) {
    rest = rest.slice(1);
    const constraintName = /^[A-Za-z]+/.exec(rest)?.[0];
    if (!constraintName)
      throw new RouteTemplateError(template, `parameter '${name}' has an empty constraint.`);
    rest = rest.slice(constraintName.length);
    let args: string | undefined;
    if (rest.startsWith('(')) {
      const close = closingParenthesis(rest, constraintName.toLowerCase() === 'regex');
      if (close < 0)
        throw new RouteTemplateError(
          template,
          `constraint '${constraintName}' of '${name}' is missing ')'.`,
        );
      args = rest.slice(1, close);
      rest = rest.slice(close + 1);
    }
    try {
      constraints.push(createConstraint(constraintName, args));
    } catch (error) {
      if (error instanceof RouteConstraintError)
        throw new RouteTemplateError(template, error.message);
      throw error;
    }
  }

  let optional = false;
  let defaultValue: string | undefined;
  if (rest.startsWith('=')) {
    defaultValue = rest.slice(1);
    rest = '';
    if (defaultValue.endsWith('?')) {
      throw new RouteTemplateError(
        template,
        `optional parameter '${name}' cannot have a default value.`,
      );
    }
  } else if (rest === '?') {
    optional = true;
    rest = '';
  }
  if (rest !== '') throw new RouteTemplateError(template, `'{${body}}' could not be parsed.`);
  if (catchAll && optional) {
    throw new RouteTemplateError(
      template,
      `catch-all parameter '${name}' cannot be marked optional.`,
    );
  }
  return { kind: 'parameter', name, optional, catchAll, defaultValue, constraints };
}

function parseSegment(template: string, text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '{' && text[i + 1] === '{') {
      literal += '{';
      i += 2;
    } else if (char === '}' && text[i + 1] === '}') {
      literal += '}';
      i += 2;
    } else if (char === '{') {
      let body = '';
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === '}' && text[j + 1] === '}') {
          body += '}';
          j++;
        } else if (text[j] === '{' && text[j + 1] === '{') {
          body += '{';
          j++;
        } else if (text[j] === '}') break;
        else body += text[j];
      }
      if (j >= text.length) throw new RouteTemplateError(template, `'{' without a matching '}'.`);
      if (literal) parts.push({ kind: 'literal', text: literal });
      literal = '';
      const previous = parts[parts.length - 1];
      if (previous?.kind === 'parameter') {
        throw new RouteTemplateError(
          template,
          'a path segment cannot contain two consecutive parameters.',
        );
      }
      parts.push(parseParameter(template, body));
      i = j + 1;
    } else if (char === '}') {
      throw new RouteTemplateError(template, `'}' without a matching '{'.`);
    } else if (char === '?') {
      throw new RouteTemplateError(template, `the literal section cannot contain '?'.`);
    } else {
      literal += char;
      i += 1;
    }
  }
  if (literal) parts.push({ kind: 'literal', text: literal });
  return parts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Parses a route template.
 *
 * @throws {RouteTemplateError} for malformed templates and unknown constraints.
 */
export function parseRouteTemplate(route: string): RouteTemplate {
  const text = route.replace(/^\/+|\/+$/g, '');
  if (text === '') return { text, segments: [] };
  if (text.startsWith('~')) throw new RouteTemplateError(route, `a route cannot start with '~'.`);
  const rawSegments = text.split('/');
  const names = new Set<string>();
  const segments = rawSegments.map((raw, index): TemplateSegment => {
    if (raw === '')
      throw new RouteTemplateError(route, `the separator '/' cannot appear consecutively.`);
    const parts = parseSegment(route, raw);
    for (const part of parts) {
      if (part.kind !== 'parameter') continue;
      const key = part.name.toLowerCase();
      if (names.has(key))
        throw new RouteTemplateError(route, `parameter '${part.name}' appears more than once.`);
      names.add(key);
      if (part.catchAll && (parts.length > 1 || index !== rawSegments.length - 1)) {
        throw new RouteTemplateError(
          route,
          `catch-all parameter '${part.name}' must be the whole last segment.`,
        );
      }
      if ((part.optional || part.defaultValue !== undefined) && parts.length > 1) {
        throw new RouteTemplateError(
          route,
          `optional or defaulted parameter '${part.name}' inside a complex segment is not supported by the local host.`,
        );
      }
    }
    if (parts.length === 1) return { parts };
    // Complex segment: earlier parameters take as much as they can, so literals bind to their
    // last occurrence, which is how ASP.NET matches complex segments (right to left).
    const source = parts
      .map((part) => (part.kind === 'literal' ? escapeRegExp(part.text) : '(.+)'))
      .join('');
    return { parts, pattern: new RegExp(`^${source}$`, 'i') };
  });

  // Only trailing segments may be optional (or defaulted, or catch-all).
  let seenOptional = false;
  for (const segment of segments) {
    const only = segment.parts.length === 1 ? segment.parts[0] : undefined;
    const isOptional =
      only?.kind === 'parameter' &&
      (only.optional || only.defaultValue !== undefined || only.catchAll);
    if (seenOptional && !isOptional) {
      throw new RouteTemplateError(
        route,
        'an optional parameter must be followed only by optional parameters.',
      );
    }
    seenOptional ||= isOptional;
  }
  return { text, segments };
}

/**
 * Splits a URL path (below the route prefix) into decoded segments. Like ASP.NET, an encoded
 * slash (`%2F`) stays encoded so it cannot create a segment; malformed escapes are kept as sent.
 */
export function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+/, '').replace(/\/$/, '');
  if (trimmed === '') return [];
  return trimmed.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment.replace(/%2f/gi, '%252F'));
    } catch {
      return segment;
    }
  });
}

function satisfies(part: ParameterPart, value: string): boolean {
  return part.constraints.every((constraint) => constraint.test(value));
}

/**
 * Matches decoded path segments against a template.
 *
 * @returns the route parameters (absent optional parameters are left out), or undefined.
 */
export function matchRoute(
  template: RouteTemplate,
  segments: string[],
): Record<string, string> | undefined {
  const values: Record<string, string> = {};
  for (let i = 0; i < template.segments.length; i++) {
    const segment = template.segments[i]!;
    const only = segment.parts.length === 1 ? segment.parts[0]! : undefined;

    if (only?.kind === 'parameter' && only.catchAll) {
      const rest = segments.slice(i).join('/');
      if (rest === '') {
        if (only.defaultValue !== undefined) values[only.name] = only.defaultValue;
      } else {
        if (!satisfies(only, rest)) return undefined;
        values[only.name] = rest;
      }
      return values;
    }

    const value = segments[i];
    if (value === undefined) {
      if (only?.kind === 'parameter' && (only.optional || only.defaultValue !== undefined)) {
        if (only.defaultValue !== undefined) values[only.name] = only.defaultValue;
        continue;
      }
      return undefined;
    }

    if (only?.kind === 'literal') {
      if (only.text.toLowerCase() !== value.toLowerCase()) return undefined;
    } else if (only?.kind === 'parameter') {
      if (value === '' || !satisfies(only, value)) return undefined;
      values[only.name] = value;
    } else {
      const match = segment.pattern!.exec(value);
      if (!match) return undefined;
      let group = 1;
      for (const part of segment.parts) {
        if (part.kind !== 'parameter') continue;
        const captured = match[group++]!;
        if (!satisfies(part, captured)) return undefined;
        values[part.name] = captured;
      }
    }
  }
  return segments.length <= template.segments.length ? values : undefined;
}
