/** What a queue trigger hands over, as the handlers need it. */
import type { InvocationContext } from '@azure/functions';
import { whileBusy } from '../../src/storage/busyRetry';
import { decodeQueueMessage } from '../../src/storage/queue';
import { continueTrace, messageTraceparent } from '../../src/telemetry/tracing';

/** The payload: parsed JSON, or the text decoded when the host did not parse it. */
function queuePayload(queueEntry: unknown): unknown {
  if (typeof queueEntry !== 'string') return queueEntry;
  try {
    return JSON.parse(queueEntry);
  } catch {
    return decodeQueueMessage(queueEntry);
  }
}

/** The delivery count of the triggering message (1 on the first delivery). */
export function dequeueCount(context: InvocationContext): number {
  const count = Number(context.triggerMetadata?.dequeueCount ?? 1);
  return Number.isInteger(count) && count > 0 ? count : 1;
}

/** The delivery count and, when the host says, when the message becomes visible again. */
export function delivery(context: InvocationContext): {
  dequeueCount: number;
  nextVisibleTime?: Date;
} {
  const nextVisible = context.triggerMetadata?.nextVisibleTime;
  return {
    dequeueCount: dequeueCount(context),
    nextVisibleTime:
      typeof nextVisible === 'string' || nextVisible instanceof Date
        ? new Date(nextVisible)
        : undefined,
  };
}

/**
 * Runs a queue handler's work on the parsed payload in the trace of the request that sent the
 * message (its optional `traceparent`), linked to the invocation's span.
 *
 * Storage refusing for load (Azure's targets) is waited out within the invocation, with growing
 * jittered waits (src/storage/busyRetry.ts), before the delivery fails: a message has five
 * deliveries five seconds apart (host.json), so work failing at once would be poisoned by a burst
 * of half a minute. Running the work again is safe: a delivery may always be repeated.
 *
 * @throws whatever `work` throws (storage busy past the waits as a `ThrottledError`).
 */
export function inMessageTrace<T>(
  queueName: string,
  queueEntry: unknown,
  work: (payload: unknown) => Promise<T>,
): Promise<T> {
  const payload = queuePayload(queueEntry);
  return continueTrace(
    queueName,
    messageTraceparent(payload),
    { 'messaging.system': 'azure_queue', 'messaging.destination.name': queueName },
    () => whileBusy(() => work(payload)),
  );
}
