/**
 * The identity capability's errors, phrased once: who the caller is (401) and what it may do (403).
 */
import { ForbiddenError, UnauthenticatedError } from '../domainErrors';

/** 401: no identity where the rule needs one (`reason` says why, when the default does not). */
export function unauthenticated(reason?: string): UnauthenticatedError {
  return new UnauthenticatedError(reason);
}

/** 401: the principal header (`header`) cannot be read as an App Service principal. */
export function invalidPrincipal(header: string, reason: string): UnauthenticatedError {
  return new UnauthenticatedError(
    `The ${header} header is not a valid App Service principal (${reason}).`,
    'InvalidPrincipal',
  );
}

/**
 * 403: the caller is known but lacks every role (`needed`, as Entra writes them) that admits it.
 */
export function forbidden(needed: string): ForbiddenError {
  return new ForbiddenError(`This needs ${needed}.`);
}
