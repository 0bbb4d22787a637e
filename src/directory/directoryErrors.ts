/**
 * The directory's domain errors, phrased once.
 */
import {
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  ValidationError,
  type ContentionError,
} from '../errors';
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
