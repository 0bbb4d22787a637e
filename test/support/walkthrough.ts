/**
 * The README's walkthrough as data: the fenced `bash` blocks between `<!-- walkthrough` and
 * `<!-- /walkthrough -->` are its steps, and a `json` or `text` block right after a step (only
 * prose between) is what that step prints. Outputs compare loosely where runs differ:
 *
 * - `…` stands for any text (in a JSON string value, or anywhere in a line of text);
 * - a JSON object matches when each key shown matches (the README may leave fields out); arrays
 *   match item by item and must have the same length;
 * - text matches line by line (trailing spaces and carriage returns ignored).
 */

/** One step: the commands and, if the README shows it, their output. */
export interface WalkthroughStep {
  /** 1-based position among the steps. */
  index: number;
  commands: string;
  expected?: { kind: 'json' | 'text'; text: string };
}

const START = /<!-- walkthrough\b[^>]*-->/;
const END = '<!-- /walkthrough -->';

/**
 * The steps of the README's walkthrough.
 *
 * @throws {Error} when the markers are missing or an output block follows no step.
 */
export function walkthroughSteps(readme: string): WalkthroughStep[] {
  const start = START.exec(readme);
  const end = readme.indexOf(END);
  if (!start || end < start.index) throw new Error('README.md has no walkthrough markers.');
  const section = readme.slice(start.index + start[0].length, end);
  const steps: WalkthroughStep[] = [];
  for (const block of section.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm)) {
    const [, kind, body] = block;
    if (kind === 'bash') {
      steps.push({ index: steps.length + 1, commands: body! });
    } else if (kind === 'json' || kind === 'text') {
      const last = steps.at(-1);
      if (!last || last.expected) {
        throw new Error(`A ${kind} output block of the walkthrough follows no step:\n${body}`);
      }
      last.expected = { kind, text: body! };
    }
  }
  return steps;
}

const ELLIPSIS = '…';

function wildcard(pattern: string): RegExp {
  const source = pattern
    .split(ELLIPSIS)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}$`);
}

/** Where `actual` strays from `expected` (JSON values), or `undefined` when it does not. */
export function jsonMismatch(expected: unknown, actual: unknown, at = '$'): string | undefined {
  if (typeof expected === 'string' && expected.includes(ELLIPSIS)) {
    if (expected === ELLIPSIS) return undefined;
    return typeof actual === 'string' && wildcard(expected).test(actual)
      ? undefined
      : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) {
      return `${at}: expected ${expected.length} items, got ${actual.length}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const problem = jsonMismatch(expected[i], actual[i], `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    }
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${at}.${key}: missing`;
      const problem = jsonMismatch(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  }
  return Object.is(expected, actual)
    ? undefined
    : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.replace(/[\s\r]+$/, ''))
    .join('\n')
    .trim()
    .split('\n');

/** Where a step's printed output strays from what the README shows, or `undefined`. */
export function outputMismatch(
  expected: NonNullable<WalkthroughStep['expected']>,
  actual: string,
): string | undefined {
  if (expected.kind === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(actual);
    } catch {
      return `the output is not JSON: ${actual}`;
    }
    return jsonMismatch(JSON.parse(expected.text), parsed);
  }
  const want = lines(expected.text);
  const got = lines(actual);
  if (got.length !== want.length) {
    return `expected ${want.length} lines, got ${got.length}:\n${got.join('\n')}`;
  }
  for (let i = 0; i < want.length; i++) {
    if (!wildcard(want[i]!).test(got[i]!)) {
      return `line ${i + 1}: expected\n  ${want[i]}\ngot\n  ${got[i]}`;
    }
  }
  return undefined;
}
