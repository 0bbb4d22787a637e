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

/** 503: the Durable extension answered a start with a server error (its storage busy). */
export function orchestrationStartUnavailable(cause: unknown): UnavailableError {
  return new UnavailableError(
    'The orchestration could not be started just now (the Durable extension answered with a server error); try again.',
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

/**
 * A relocation failed before its switch and was rolled back: the department is `stable` in its
 * source again (the status shows the code first, then the step's failure).
 */
export function relocationRolledBack(department: string, from: string, reason: string): Error {
  return new Error(
    `RelocationRolledBack: department "${department}" is back in account "${from}" and takes writes; relocate it again. The relocation failed: ${reason}`,
  );
}

/** A relocation failed and found its placement taken over by another change: nothing undone. */
export function relocationLostFailure(department: string, reason: string): Error {
  return new Error(
    `RelocationLost: the placement of department "${department}" is no longer this relocation's; nothing was rolled back. The relocation failed: ${reason}`,
  );
}
