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

/**
 * An orchestration waited out a relocation's frozen window for longer than it allows (the status
 * shows the code first): the relocation itself stopped while the department was frozen.
 */
export function relocationOutlasted(activity: string, seconds: number, reason: string): Error {
  return new Error(
    `RelocationOutlasted: ${activity} waited ${seconds} s for a relocation to finish; ${reason}`,
  );
}
