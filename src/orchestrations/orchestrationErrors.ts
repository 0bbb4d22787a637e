/**
 * The orchestrations' errors, phrased once (the move orchestration keeps its own refusals).
 */
import { NotFoundError, UnavailableError } from '../domainErrors';

/** 404: no orchestration instance has that id. */
export function orchestrationNotFound(id: string, cause: unknown): NotFoundError {
  return new NotFoundError('OrchestrationNotFound', `No orchestration with id ${id}.`, { cause });
}

/** 503: the Durable extension answered a status read with a server error. */
export function orchestrationStatusUnavailable(cause: unknown): UnavailableError {
  return new UnavailableError(
    'The orchestration status could not be read just now (the Durable extension answered with a server error); try again.',
    { cause },
  );
}

/** A chunk size that is not a positive integer (a bug in the orchestrator). */
export function invalidChunkSize(): RangeError {
  return new RangeError('chunk size must be ≥ 1');
}

/** The error an orchestrator throws for a refusal: its status then shows `<code>: <message>`. */
export function refusalFailure(code: string, message: string): Error {
  return new Error(`${code}: ${message}`);
}
