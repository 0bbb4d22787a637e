/**
 * Trace context across queues (W3C Trace Context): a message an operation sends carries the
 * `traceparent` of the span it was sent from, and the work a queue trigger does for that message
 * continues the trace — so an employee create, the drain its nudge causes and the index writes of
 * that drain are one trace. Only `@opentelemetry/api`: with no SDK registered nothing is injected
 * (messages stay as they were) and every span is a no-op.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Span,
} from '@opentelemetry/api';

/** Tracer (and instrumentation scope) name of the app's own spans. */
const TRACER_NAME = 'table-patterns-directory';

/** A W3C `traceparent`: version 00, trace id, parent span id, flags. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * Bytes the optional `"traceparent"` field adds to a JSON message (`,"traceparent":"…"`, 55
 * characters of value): message builders keep this much room under the 64 KiB limit.
 */
export const TRACEPARENT_FIELD_BYTES = Buffer.byteLength(`,"traceparent":"${'0'.repeat(55)}"`);

/** The `traceparent` of the active span, or undefined when there is none (or no SDK). */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const traceparent = carrier.traceparent;
  return traceparent !== undefined && TRACEPARENT.test(traceparent) ? traceparent : undefined;
}

/** The payload with the active span's `traceparent` added (unchanged when there is none). */
export function withTraceparent<T extends object>(payload: T): T & { traceparent?: string } {
  const traceparent = currentTraceparent();
  return traceparent === undefined ? payload : { ...payload, traceparent };
}

/** The `traceparent` a queue payload carries, if it is a well-formed one. */
export function messageTraceparent(payload: unknown): string | undefined {
  const value = (payload as { traceparent?: unknown } | null | undefined)?.traceparent;
  return typeof value === 'string' && TRACEPARENT.test(value) ? value : undefined;
}

function tracer() {
  return trace.getTracer(TRACER_NAME);
}

async function runInSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(context.active(), span), work);
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs the work a queue message asks for in a `process` span whose parent is the span that sent
 * the message (its `traceparent`), linked to the invocation's own span: the trace of the request
 * that caused the message goes on. A message without one (sent before this version, or with
 * telemetry off) gets a span under the invocation's.
 *
 * @throws whatever `work` throws (recorded on the span).
 */
export function continueTrace<T>(
  name: string,
  traceparent: string | undefined,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  const invocation = trace.getSpanContext(context.active());
  const links: Link[] = invocation ? [{ context: invocation }] : [];
  const parent =
    traceparent === undefined
      ? context.active()
      : propagation.extract(ROOT_CONTEXT, { traceparent });
  const span = tracer().startSpan(
    `${name} process`,
    {
      kind: SpanKind.CONSUMER,
      links: traceparent === undefined ? [] : links,
      attributes: { 'messaging.operation.type': 'process', ...attributes },
    },
    parent,
  );
  return runInSpan(span, work);
}

/**
 * Runs `work` in an internal span of the app (a drain, a drain round, a flush).
 *
 * @throws whatever `work` throws (recorded on the span).
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
): Promise<T> {
  return runInSpan(tracer().startSpan(name, { attributes }), work);
}
