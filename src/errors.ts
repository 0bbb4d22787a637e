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

/** The caller's input is malformed or breaks a rule (nothing was stored). */
export class ValidationError extends DomainError {
  readonly kind = 'invalid';
  constructor(
    message: string,
    /** Where in the input the problem is, e.g. `body.email` or `query.pageSize`. */
    readonly target?: string,
    code = 'InvalidInput',
  ) {
    super(code, message);
  }
}

/** One of zod's issues, as much of it as {@link describeIssues} reads. */
export interface InputIssue {
  readonly message: string;
  readonly path: readonly PropertyKey[];
}

/**
 * One {@link ValidationError} naming the first of zod's issues and where it is, e.g.
 * `body.entries[3].level: Invalid option.` (array positions in brackets).
 */
export function describeIssues(
  issues: readonly InputIssue[],
  where: string,
  code?: string,
): ValidationError {
  const issue = issues[0];
  let field = where;
  for (const segment of issue?.path ?? []) {
    field += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
  }
  return new ValidationError(`${field}: ${issue?.message ?? 'invalid value'}.`, field, code);
}

/** 400: a count option (page size, top, days) that is not a whole number from 1 to `max`. */
export function wholeNumberOutOfRange(target: string, max: number | string): ValidationError {
  return new ValidationError(`${target}: must be a whole number from 1 to ${max}.`, target);
}

/**
 * Validates `value` against `schema`.
 *
 * @param where - prefix naming where the value came from in messages (e.g. `body`, `query`).
 * @throws {ValidationError} naming the first bad field.
 */
export function validateInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
): z.infer<S> {
  const result = schema.safeParse(value);
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
