/**
 * The operations capability's errors, phrased once.
 */
import { ValidationError } from '../domainErrors';

/** 400: a queue that is not one of the app's (`known`: those that are). */
export function unknownQueue(queue: string, known: readonly string[]): ValidationError {
  return new ValidationError(
    `"${queue}" is not one of the app's queues (${known.join(', ')}).`,
    'queue',
    'UnknownQueue',
  );
}

/** 400: a poison queue was named where its main queue (`main`) is meant. */
export function poisonQueueNamed(queueName: string, main: string): ValidationError {
  return new ValidationError(
    `"${queueName}" is a poison queue; name the main queue (${main}).`,
    'queue',
    'PoisonQueueNamed',
  );
}
