/**
 * A small reader of the project's bicep files, for tests that cannot run the bicep compiler.
 *
 * It understands what infra/ uses: comments, single-quoted strings with `${}` interpolation,
 * nested brackets, and top-level `param`, `var`, `resource` and `module` declarations. Object
 * bodies are read into key/value-text entries so tests can look up `properties.minimumTlsVersion`.
 */
import fs from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const INFRA_DIR = path.join(REPO_ROOT, 'infra');

const CLOSERS: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** Index just past the closing quote of a string whose body starts at `i`. */
function skipString(text: string, i: number): number {
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === "'") return i + 1;
    else if (c === '$' && text[i + 1] === '{') i = skipCode(text, i + 2, '}');
    else i += 1;
  }
  return i;
}

/** Index just past `closer`, skipping strings and nested brackets, starting at `i`. */
function skipCode(text: string, i: number, closer: string): number {
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") i = skipString(text, i + 1);
    else if (c in CLOSERS) i = skipCode(text, i + 1, CLOSERS[c]!);
    else if (c === closer) return i + 1;
    else i += 1;
  }
  return i;
}

/** The text with `//` and `/* *\/` comments blanked (strings, e.g. URLs, are left alone). */
export function stripComments(source: string): string {
  const out = source.split('');
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k += 1) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === "'") {
      i = skipString(source, i + 1);
    } else if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else {
      i += 1;
    }
  }
  return out.join('');
}

/** The text inside the bracket opening at `open` (exclusive of both brackets). */
export function bracketBody(text: string, open: number): string {
  const closer = CLOSERS[text[open]!];
  if (!closer) throw new Error(`No bracket at ${open}: "${text.slice(open, open + 20)}"`);
  const end = skipCode(text, open + 1, closer);
  return text.slice(open + 1, end - 1);
}

/** Top-level `key: value` entries of an object body (newline- or comma-separated). */
export function objectEntries(body: string): Map<string, string> {
  const starts: { key: string; valueStart: number; entryStart: number }[] = [];
  const keyPattern = /^[ \t\r\n]*('(?:[^'\\]|\\.)*'|[A-Za-z_$][\w$]*)[ \t]*:(?!:)/;
  let i = 0;
  let entryBoundary = true;
  while (i < body.length) {
    if (entryBoundary) {
      entryBoundary = false;
      const match = keyPattern.exec(body.slice(i));
      if (match) {
        const raw = match[1]!;
        const key = raw.startsWith("'") ? raw.slice(1, -1) : raw;
        starts.push({ key, entryStart: i, valueStart: i + match[0].length });
        i += match[0].length;
        continue;
      }
    }
    const c = body[i]!;
    if (c === "'") i = skipString(body, i + 1);
    else if (c in CLOSERS) i = skipCode(body, i + 1, CLOSERS[c]!);
    else {
      if (c === '\n' || c === ',') entryBoundary = true;
      i += 1;
    }
  }
  const entries = new Map<string, string>();
  starts.forEach((entry, index) => {
    const end = index + 1 < starts.length ? starts[index + 1]!.entryStart : body.length;
    entries.set(entry.key, body.slice(entry.valueStart, end).trim().replace(/,$/, '').trim());
  });
  return entries;
}

/** The value text at a dotted path inside an object body, e.g. `properties.sku.name`. */
export function valueAt(body: string, dottedPath: string): string | undefined {
  let current: string | undefined = body;
  for (const key of dottedPath.split('.')) {
    if (current === undefined) return undefined;
    const inner: string = current.trim().startsWith('{') ? bracketBody(current.trim(), 0) : current;
    current = objectEntries(inner).get(key);
  }
  return current;
}

/** Bodies of the outermost `{...}` object literals of an expression (e.g. both ternary branches). */
export function objectLiterals(expression: string): string[] {
  const bodies: string[] = [];
  let i = 0;
  while (i < expression.length) {
    const c = expression[i]!;
    if (c === "'") i = skipString(expression, i + 1);
    else if (c === '{') {
      const body = bracketBody(expression, i);
      bodies.push(body);
      i += body.length + 2;
    } else i += 1;
  }
  return bodies;
}

/** The string literals of an array value text such as `['a', 'b']` or a multi-line array. */
export function stringLiterals(arrayText: string): string[] {
  return [...arrayText.matchAll(/'((?:[^'\\$]|\\.)*)'/g)].map((m) => m[1]!);
}

export interface ParamDeclaration {
  name: string;
  type: string;
  defaultText?: string;
  /** Values of `@allowed([...])`, as written (quotes removed from strings). */
  allowed?: string[];
}

export interface ResourceDeclaration {
  symbol: string;
  type: string;
  apiVersion: string;
  existing: boolean;
  /** `[for <loopVariable> in <loopSource>: ...]` */
  loopVariable?: string;
  loopSource?: string;
  condition?: string;
  /** The object body, without its braces. */
  body: string;
}

export interface ModuleDeclaration {
  symbol: string;
  path: string;
  condition?: string;
  body: string;
}

/** One bicep file, comments stripped, with its declarations. */
export class BicepFile {
  readonly text: string;
  readonly raw: string;

  constructor(readonly relativePath: string) {
    this.raw = fs.readFileSync(path.join(INFRA_DIR, relativePath), 'utf8');
    this.text = stripComments(this.raw);
  }

  params(): ParamDeclaration[] {
    const params: ParamDeclaration[] = [];
    const pattern = /^param[ \t]+(\w+)[ \t]+([\w[\]]+)([ \t]*=[ \t]*(.*))?$/gm;
    let previousEnd = 0;
    for (const match of this.text.matchAll(pattern)) {
      const decorators = this.text.slice(previousEnd, match.index);
      previousEnd = match.index + match[0].length;
      const allowedAt = decorators.lastIndexOf('@allowed(');
      const allowed =
        allowedAt === -1
          ? undefined
          : bracketBody(decorators, allowedAt + '@allowed'.length)
              .replace(/^\s*\[|\]\s*$/g, '')
              .split(/[\n,]/)
              .map((item) => item.trim().replace(/^'|'$/g, ''))
              .filter((item) => item !== '');
      params.push({
        name: match[1]!,
        type: match[2]!,
        defaultText: match[4]?.trim(),
        allowed,
      });
    }
    return params;
  }

  param(name: string): ParamDeclaration {
    const found = this.params().find((p) => p.name === name);
    if (!found) throw new Error(`infra/${this.relativePath} declares no param "${name}"`);
    return found;
  }

  /** The full expression text of `var <name> = ...` (multi-line values and ternaries included). */
  variable(name: string): string {
    const match = new RegExp(`^var[ \\t]+${name}[ \\t]*=[ \\t]*`, 'm').exec(this.text);
    if (!match) throw new Error(`infra/${this.relativePath} declares no var "${name}"`);
    return this.expressionAt(match.index + match[0].length);
  }

  variableNames(): string[] {
    return [...this.text.matchAll(/^var[ \t]+(\w+)/gm)].map((m) => m[1]!);
  }

  resources(): ResourceDeclaration[] {
    const pattern = /^resource[ \t]+(\w+)[ \t]+'([^'@]+)@([^']+)'([ \t]+existing)?[ \t]*=[ \t]*/gm;
    return [...this.text.matchAll(pattern)].map((match) => {
      const headerEnd = match.index + match[0].length;
      const open = this.text.indexOf('{', headerEnd);
      const header = this.text.slice(headerEnd, open);
      const loop = /^\[\s*for\s+(\w+)\s+in\s+(\w+)\s*:/.exec(header);
      const condition = /if\s*\((.*)\)\s*$/s.exec(header)?.[1]?.trim();
      return {
        symbol: match[1]!,
        type: match[2]!,
        apiVersion: match[3]!,
        existing: match[4] !== undefined,
        loopVariable: loop?.[1],
        loopSource: loop?.[2],
        condition,
        body: bracketBody(this.text, open),
      };
    });
  }

  resourcesOfType(type: string): ResourceDeclaration[] {
    return this.resources().filter((r) => r.type.toLowerCase() === type.toLowerCase());
  }

  resource(symbol: string): ResourceDeclaration {
    const found = this.resources().find((r) => r.symbol === symbol);
    if (!found) throw new Error(`infra/${this.relativePath} declares no resource "${symbol}"`);
    return found;
  }

  modules(): ModuleDeclaration[] {
    const pattern = /^module[ \t]+(\w+)[ \t]+'([^']+)'[ \t]*=[ \t]*/gm;
    return [...this.text.matchAll(pattern)].map((match) => {
      const headerEnd = match.index + match[0].length;
      const open = this.text.indexOf('{', headerEnd);
      const condition = /if\s*\((.*)\)\s*$/s.exec(this.text.slice(headerEnd, open))?.[1]?.trim();
      return {
        symbol: match[1]!,
        path: match[2]!,
        condition,
        body: bracketBody(this.text, open),
      };
    });
  }

  /** Reads one expression from `start` to the end of its statement. */
  private expressionAt(start: number): string {
    let i = start;
    while (i < this.text.length) {
      const c = this.text[i]!;
      if (c === "'") i = skipString(this.text, i + 1);
      else if (c in CLOSERS) i = skipCode(this.text, i + 1, CLOSERS[c]!);
      else if (c === '\n') {
        // A line starting with `?` or `:` continues a multi-line ternary.
        if (/^[ \t]*[?:]/.test(this.text.slice(i + 1))) i += 1;
        else break;
      } else i += 1;
    }
    return this.text.slice(start, i).trim();
  }
}

/** Every .bicep file under infra/, relative to it. */
export function allBicepFiles(): BicepFile[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(INFRA_DIR, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.bicep')) found.push(relative);
    }
  };
  walk('');
  return found.sort().map((relative) => new BicepFile(relative));
}

/** Reads a repository file as text. */
export function readRepoFile(relativePath: string): string {
  return fs.readFileSync(path.join(REPO_ROOT, relativePath), 'utf8');
}
