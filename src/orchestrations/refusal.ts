/**
 * Permanent refusals of an activity, as values.
 *
 * An activity that throws is retried (`callActivityWithRetry`): right for a storage fault, wrong
 * for "the id is taken in the target", which no retry will change. So activities turn the
 * directory's permanent domain errors (invalid input, not found, conflict) into a {@link Refusal}
 * value, and the orchestrator fails the orchestration with its reason. Anything else still throws
 * and is retried.
 */
import { DomainError } from '../domainErrors';
import { refusalFailure } from './orchestrationErrors';

/** An activity's answer when the work can never succeed as asked. */
export interface Refusal {
  refused: { code: string; message: string };
}

/** True for a {@link Refusal}. */
export function isRefusal(value: unknown): value is Refusal {
  return (
    typeof value === 'object' &&
    value !== null &&
    'refused' in value &&
    typeof (value as Refusal).refused?.message === 'string'
  );
}

/** A refusal with a code and a sentence. */
export function refusal(code: string, message: string): Refusal {
  return { refused: { code, message } };
}

const PERMANENT_KINDS = new Set<DomainError['kind']>(['invalid', 'notFound', 'conflict']);

/**
 * Runs `work`; a permanent domain error becomes a {@link Refusal}, anything else is rethrown.
 *
 * @throws whatever `work` throws that is not a permanent domain error (transient: retried).
 */
export async function refuseOnPermanentError<T>(work: () => Promise<T>): Promise<T | Refusal> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && PERMANENT_KINDS.has(error.kind)) {
      return refusal(error.code, error.message);
    }
    throw error;
  }
}

/** The error an orchestrator throws for a refusal: the status then shows `<code>: <message>`. */
export function refusalError(value: Refusal): Error {
  return refusalFailure(value.refused.code, value.refused.message);
}
