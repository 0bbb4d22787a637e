/**
 * The directory's domain errors, phrased once.
 */
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PreconditionFailedError,
  ValidationError,
  type ContentionError,
} from '../domainErrors';
import { contended } from '../storage/storageErrors';

/** 404: the department does not exist. */
export function departmentNotFound(department: string): NotFoundError {
  return new NotFoundError('DepartmentNotFound', `Department "${department}" does not exist.`);
}

/** 404: no such employee in that department. */
export function employeeNotFound(department: string, employeeId: string): NotFoundError {
  return new NotFoundError(
    'EmployeeNotFound',
    `Employee ${employeeId} does not exist in department "${department}".`,
  );
}

/** 404: no employee with that email in that department. */
export function emailNotFound(department: string, email: string): NotFoundError {
  return new NotFoundError(
    'EmployeeNotFound',
    `No employee with email ${JSON.stringify(email)} exists in department "${department}".`,
  );
}

/** 409: the employee id is taken. */
export function employeeExists(department: string, employeeId: string): ConflictError {
  return new ConflictError(
    'EmployeeExists',
    `Employee ${employeeId} already exists in department "${department}".`,
  );
}

/** 409: another employee of the department has that email (compared case-insensitively). */
export function emailTaken(department: string, email: string): ConflictError {
  return new ConflictError(
    'EmailTaken',
    `Email ${JSON.stringify(email)} is already used in department "${department}".`,
  );
}

/** 503: a write kept losing races on a shared entity (`what`, e.g. `Employee 000223`). */
export function contendedError(what: string, attempts: number): ContentionError {
  return contended(`${what} kept changing concurrently; try again shortly.`, attempts, 1);
}

/** 412: the caller's `If-Match` no longer matches. */
export function staleVersion(what: string): PreconditionFailedError {
  return new PreconditionFailedError(
    `${what} changed since it was read: the If-Match ETag no longer matches. Read it again and retry.`,
  );
}

/** 404: `If-Match` names a review the employee does not have. */
export function reviewNotFound(employeeId: string, year: number): NotFoundError {
  return new NotFoundError(
    'ReviewNotFound',
    `Employee ${employeeId} has no review for ${year} to match If-Match against.`,
  );
}

/** 400: `select` names something that is not a field (`fields` lists those that are). */
export function unknownSelectField(field: string, fields: readonly string[]): ValidationError {
  return new ValidationError(
    `query.select: unknown field "${field}"; use ${fields.join(', ')}.`,
    'query.select',
    'InvalidSelect',
  );
}

/** 400: more rows in one import than a call takes. */
export function tooManyImportRows(max: number): ValidationError {
  return new ValidationError(
    `body.employees: must hold at most ${max} employees per call.`,
    'body.employees',
    'TooManyRows',
  );
}

/** 400: a page size that is not a whole number from 1 to `max`. */
export function invalidPageSize(max: number): ValidationError {
  return new ValidationError(
    `query.pageSize: must be a whole number from 1 to ${max}.`,
    'query.pageSize',
    'InvalidPageSize',
  );
}

/** 400: a photo URL that is not absolute http(s) or is too long. */
export function invalidPhotoUrl(): ValidationError {
  return new ValidationError(
    'photoUrl must be an absolute http(s) URL of at most 2048 characters.',
    'photoUrl',
    'InvalidPhotoUrl',
  );
}

/** 403: creating a department is for the admin only. */
export function departmentCreateForbidden(name: string): ForbiddenError {
  return new ForbiddenError(`Only a DirectoryAdmin may create department "${name}".`);
}

/** 409: the last name's index entity holds `max` ids already. */
export function lastNameIndexFull(lastName: string, max: number): ConflictError {
  return new ConflictError(
    'LastNameIndexFull',
    `The last-name index of "${lastName}" in this department is full ` +
      `(at most ${max} employees per last name and department).`,
  );
}

/** 400: an email lookup of the wrong length. */
export function invalidEmailLookup(): ValidationError {
  return new ValidationError(
    'route.email: must be 1-254 characters.',
    'route.email',
    'InvalidEmail',
  );
}

/** 400: a listing asked for more than one kind of range. */
export function mixedRanges(): ValidationError {
  return new ValidationError(
    'query: use one kind of range at a time: fromId/toId, emailFrom/emailTo or emailPrefix.',
    'query',
    'InvalidRange',
  );
}

/** 400: a blank email range bound or prefix (`name`: the query parameter). */
export function blankRangeBound(name: string): ValidationError {
  return new ValidationError(`query.${name}: must not be blank.`, `query.${name}`, 'InvalidRange');
}

/** 400: an email range whose end sorts before its start. */
export function emailRangeReversed(): ValidationError {
  return new ValidationError(
    'query.emailTo: must not sort before emailFrom.',
    'query.emailTo',
    'InvalidRange',
  );
}

/** 400: an id range whose end is below its start. */
export function idRangeReversed(): ValidationError {
  return new ValidationError(
    'query.toId: must not be smaller than fromId.',
    'query.toId',
    'InvalidRange',
  );
}

/** 400: a blank last-name lookup. */
export function blankLastName(): ValidationError {
  return new ValidationError(
    'query.lastName: must not be blank.',
    'query.lastName',
    'InvalidLastName',
  );
}

/** A review year outside 1900-9999 (a bug: years come from validated keys). */
export function invalidReviewYear(year: number): RangeError {
  return new RangeError(`Review year ${year} is not an integer in 1900-9999.`);
}

/** An entity this call just wrote could not be read back (a bug, or the data deleted under it). */
export function vanishedAfterWrite(rowKey: string): Error {
  return new Error(`Entity ${rowKey} vanished right after it was written.`);
}

/** An outbox row must hold 1 change or more within `maxChars` characters (a bug in the caller). */
export function outboxRowTooSmall(maxChars: number): Error {
  return new Error(`An outbox row holds 1 change or more, in ${maxChars} characters.`);
}

/** The entity given as a review is not one of this employee (a bug in the caller). */
export function notAReviewOf(employeeId: string, rowKey: unknown): Error {
  return new Error(`Not a review of employee ${employeeId}: ${String(rowKey)}.`);
}

/** A transaction the service refused as a whole because one operation failed. */
export class TransactionFailure<Role> extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    /** The failing operation's index, when the service said. */
    readonly index: number | undefined,
    /** The failing operation's role, when the index is known. */
    readonly role: Role | undefined,
    options: { cause: unknown },
  ) {
    super(
      `Entity group transaction failed (${status} ${code ?? ''}) at operation ${index ?? '?'}.`,
      options,
    );
    this.name = 'TransactionFailure';
  }
}
