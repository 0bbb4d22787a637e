/**
 * The archive capability's errors, phrased once.
 */
import { NotFoundError, type ContentionError } from '../domainErrors';
import { contended } from '../storage/storageErrors';

/** 404: the employee has no archived record (yet: archiving is eventually consistent). */
export function archivedEmployeeNotFound(department: string, employeeId: string): NotFoundError {
  return new NotFoundError(
    'ArchivedEmployeeNotFound',
    `Employee ${employeeId} of department "${department}" is not in the archive (yet).`,
  );
}

/** 503: the employee kept changing while it was archived (the message is retried). */
export function archiveContended(employeeId: string, attempts: number): ContentionError {
  return contended(`Employee ${employeeId} kept changing while it was archived.`, attempts, 5);
}

/** More employees in one page than a page may hold (a bug in the orchestration). */
export function archivePageTooLarge(max: number): RangeError {
  return new RangeError(`A page holds at most ${max} employees.`);
}

/** A queue message that is not an archive request (`problem`: what the schema found). */
export function invalidArchiveRequest(problem: string): Error {
  return new Error(`Not an archive request: ${problem}`);
}
