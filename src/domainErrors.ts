/**
 * Domain errors. `src/` throws only these (or lets a bug surface as a plain Error); the function
 * adapters alone decide which HTTP status each one becomes.
 */
import type { z } from 'zod';

/** Base class: a stable machine-readable `code` plus a human sentence. */
export abstract class DomainError extends Error {
  abstract readonly kind:
    | 'invalid'
    | 'unauthenticated'
    | 'forbidden'
    | 'notFound'
    | 'conflict'
    | 'preconditionFailed'
    | 'tooLarge'
    | 'lengthRequired'
    | 'unsupportedMediaType'
    | 'throttled'
    | 'unavailable'
    | 'notConfigured';

  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One invalid field of the input and what is wrong with it, in plain words. */
export interface InputProblem {
  /** Where in the input, e.g. `body.email`, `query.pageSize`, `body.entries[3].level`. */
  readonly field: string;
  /** What is wrong, e.g. `is required`, `must be a number`. */
  readonly problem: string;
}

/** The caller's input is malformed or breaks a rule (nothing was stored). */
export class ValidationError extends DomainError {
  readonly kind = 'invalid';
  constructor(
    message: string,
    /** Where in the input the (first) problem is, e.g. `body.email` or `query.pageSize`. */
    readonly target?: string,
    code = 'InvalidInput',
    /** Every invalid field, when the input was checked as a whole (a schema's issues). */
    readonly details?: readonly InputProblem[],
  ) {
    super(code, message);
  }
}

/** One of zod's issues, as much of it as {@link describeIssues} reads. */
export interface InputIssue {
  readonly code?: string;
  readonly message: string;
  readonly path: readonly PropertyKey[];
  /** `unrecognized_keys`: the fields that are not accepted. */
  readonly keys?: readonly string[];
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list (JSON array)',
  object: 'an object',
  date: 'a date',
  null: 'null',
};

const quoted = (values: readonly unknown[]): string =>
  values.map((v) => JSON.stringify(v)).join(', ');

function bound(issue: Record<string, unknown>, side: 'min' | 'max'): string {
  const limit = String(side === 'min' ? issue.minimum : issue.maximum);
  const exact = issue.exact === true;
  const inclusive = issue.inclusive !== false;
  const relation = exact
    ? 'exactly'
    : side === 'min'
      ? inclusive
        ? 'at least'
        : 'more than'
      : inclusive
        ? 'at most'
        : 'less than';
  const one = limit === '1';
  switch (issue.origin) {
    case 'string':
      if (one && side === 'min' && inclusive && !exact) return 'must not be empty';
      return `must be ${relation} ${limit} character${one ? '' : 's'} long`;
    case 'array':
    case 'set':
      if (one && side === 'min' && inclusive && !exact) return 'must not be empty';
      return `must hold ${relation} ${limit} item${one ? '' : 's'}`;
    default:
      return `must be ${relation} ${limit}`;
  }
}

/**
 * zod's default messages ("Invalid input: expected string, received undefined") in plain words
 * ("is required", "must be text"). A schema's own messages win over this map (zod's precedence),
 * so it only fills in where a schema says nothing. Pass it to `safeParse(value, { error })`.
 */
export function plainWords(
  issue: { code?: string; input?: unknown } & Record<string, unknown>,
): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${TYPE_WORDS[String(issue.expected)] ?? String(issue.expected)}`;
    case 'too_small':
      return bound(issue, 'min');
    case 'too_big':
      return bound(issue, 'max');
    case 'invalid_value':
      return `must be one of ${quoted((issue.values as unknown[] | undefined) ?? [])}`;
    case 'invalid_format':
      return issue.format === 'regex'
        ? 'is not in the expected format'
        : `must be a valid ${String(issue.format)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return 'is not any of the accepted forms';
    case 'custom':
      return 'is invalid';
    default:
      return undefined;
  }
}

/** The field an issue path names under `where` (array positions in brackets). */
function fieldOf(where: string, path: readonly PropertyKey[]): string {
  let field = where;
  for (const segment of path) {
    field += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
  }
  return field;
}

/** Problems named in an error's message; `details` holds up to {@link MAX_PROBLEMS}. */
const MESSAGE_PROBLEMS = 10;
/** Problems listed in an error's `details` (a batch of 1,000 bad rows stays a small answer). */
export const MAX_PROBLEMS = 100;

/**
 * The problems of zod's issues, one per field: its first (a later check of the same field mostly
 * restates it: a date that is not a date is not in range either). An unknown key is a field too.
 */
export function inputProblems(issues: readonly InputIssue[], where: string): InputProblem[] {
  const problems = new Map<string, InputProblem>();
  const add = (field: string, problem: string): void => {
    if (!problems.has(field)) problems.set(field, { field, problem });
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) {
        add(fieldOf(where, [...issue.path, key]), 'is not an accepted field');
      }
      continue;
    }
    add(fieldOf(where, issue.path), issue.message);
  }
  return [...problems.values()];
}

/**
 * One {@link ValidationError} listing every one of zod's issues and where each is (array
 * positions in brackets): the message names them all (`body.firstName: is required; body.age: must
 * be a number.`; the first {@link MESSAGE_PROBLEMS}), `details` has one `{field, problem}` each (up
 * to {@link MAX_PROBLEMS}) and `target` is the first field.
 */
export function describeIssues(
  issues: readonly InputIssue[],
  where: string,
  code?: string,
): ValidationError {
  const problems = inputProblems(issues, where);
  if (problems.length === 0) problems.push({ field: where, problem: 'invalid value' });
  const named = problems.slice(0, MESSAGE_PROBLEMS).map((p) => `${p.field}: ${p.problem}`);
  const more = problems.length - named.length;
  const message = `${named.join('; ')}${more > 0 ? `; and ${more} more (see details)` : ''}.`;
  return new ValidationError(message, problems[0]!.field, code, problems.slice(0, MAX_PROBLEMS));
}

/** 400: a count option (page size, top, days) that is not a whole number from 1 to `max`. */
export function wholeNumberOutOfRange(target: string, max: number | string): ValidationError {
  return new ValidationError(`${target}: must be a whole number from 1 to ${max}.`, target);
}

/**
 * Validates `value` against `schema`, in plain words ({@link plainWords}).
 *
 * @param where - prefix naming where the value came from in messages (e.g. `body`, `query`).
 * @throws {ValidationError} naming every bad field.
 */
export function validateInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
): z.infer<S> {
  const result = schema.safeParse(value, { error: plainWords });
  if (result.success) return result.data;
  throw describeIssues(result.error.issues, where);
}

/** No identity where one is needed. */
export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor(message = 'This operation needs an authenticated caller.', code = 'Unauthenticated') {
    super(code, message);
  }
}

/** The caller is known but not allowed to do this. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  constructor(message: string, code = 'Forbidden') {
    super(code, message);
  }
}

/** The thing asked for does not exist (`new NotFoundError(code, message, {cause})`). */
export class NotFoundError extends DomainError {
  readonly kind = 'notFound';
}

/** It exists already, or the current state forbids the change (`(code, message, {cause})`). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

/** An `If-Match` ETag no longer matches. */
export class PreconditionFailedError extends DomainError {
  readonly kind = 'preconditionFailed';
  constructor(
    message = 'The resource changed since it was read (ETag mismatch).',
    code = 'PreconditionFailed',
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** The input is larger than a storage or API limit allows. */
export class TooLargeError extends DomainError {
  readonly kind = 'tooLarge';
  constructor(message: string, code = 'TooLarge') {
    super(code, message);
  }
}

/**
 * A body was sent without its length (chunked): Azure Functions does not pass such a body to
 * the app, so it is refused rather than read as empty.
 */
export class LengthRequiredError extends DomainError {
  readonly kind = 'lengthRequired';
  constructor(message: string, code = 'LengthRequired') {
    super(code, message);
  }
}

/** The request body is of a content type the operation does not take. */
export class UnsupportedMediaTypeError extends DomainError {
  readonly kind = 'unsupportedMediaType';
  constructor(message: string, code = 'UnsupportedMediaType') {
    super(code, message);
  }
}

/** Storage kept throttling or timing out after the SDK's retries. */
export class ThrottledError extends DomainError {
  readonly kind = 'throttled';
  constructor(
    message: string,
    /** Seconds the caller should wait before trying again. */
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown; code?: string },
  ) {
    super(options?.code ?? 'StorageBusy', message, options);
  }
}

/**
 * An optimistic write kept losing the race for a shared entity or blob and gave up
 * (storage/optimisticRetry.ts). Throttled, not a conflict: nothing is wrong with the request, so
 * the caller waits `retryAfterSeconds` and tries again.
 */
export class ContentionError extends ThrottledError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    /** Attempts made before giving up. */
    readonly attempts: number,
  ) {
    super(message, retryAfterSeconds);
  }
}

/** Storage cannot be reached at all. */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super('StorageUnavailable', message, options);
  }
}

/** A feature needs a setting (e.g. an account key) that this deployment does not have. */
export class NotConfiguredError extends DomainError {
  readonly kind = 'notConfigured';
  constructor(message: string, code = 'NotConfigured') {
    super(code, message);
  }
}

/**
 * A feature needs a setting that this instance cannot use: malformed, missing, or a Key Vault
 * reference the platform did not resolve. Only that feature is off; health lists the setting.
 */
export class SettingUnavailableError extends DomainError {
  readonly kind = 'unavailable';
  constructor(
    readonly setting: string,
    readonly problem: 'missing' | 'malformed' | 'keyVaultReference',
    message: string,
  ) {
    super(
      problem === 'keyVaultReference'
        ? 'KeyVaultReferenceUnresolved'
        : problem === 'missing'
          ? 'SettingMissing'
          : 'SettingInvalid',
      message,
    );
  }
}
