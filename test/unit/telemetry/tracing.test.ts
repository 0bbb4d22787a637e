/** Trace context in queue messages (src/telemetry/tracing.ts), with and without an SDK. */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import { newOutboxSequence, outboxSequenceTime } from '../../../src/directory/entities/outbox';
import {
  messageTraceparent,
  TRACEPARENT_FIELD_BYTES,
  withTraceparent,
} from '../../../src/telemetry/tracing';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('traceparent in messages', () => {
  it('leaves a message as it was when no SDK is registered (telemetry off)', () => {
    expect(withTraceparent({ v: 2, departments: ['Sales'] })).toEqual({
      v: 2,
      departments: ['Sales'],
    });
  });

  it("adds the active span's traceparent, within the room budgets keep for it", () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new TracerProvider());
    try {
      const span = trace.getTracer('test').startSpan('request');
      const message = context.with(trace.setSpan(context.active(), span), () =>
        withTraceparent({ v: 2, departments: ['Sales'] }),
      );
      const { traceId, spanId } = span.spanContext();
      expect(message.traceparent).toBe(`00-${traceId}-${spanId}-01`);
      const added =
        Buffer.byteLength(JSON.stringify(message)) -
        Buffer.byteLength(JSON.stringify({ v: 2, departments: ['Sales'] }));
      expect(added).toBe(TRACEPARENT_FIELD_BYTES);
    } finally {
      trace.disable();
      propagation.disable();
      context.disable();
    }
  });

  it('reads only a well-formed traceparent back', () => {
    expect(messageTraceparent({ v: 2, traceparent: TRACEPARENT })).toBe(TRACEPARENT);
    expect(messageTraceparent({ v: 2 })).toBeUndefined();
    expect(messageTraceparent({ traceparent: 'nonsense' })).toBeUndefined();
    expect(messageTraceparent('text')).toBeUndefined();
    expect(messageTraceparent(null)).toBeUndefined();
  });
});

describe('outbox sequence time (index lag)', () => {
  it('is when the sequence was made', () => {
    const at = Date.UTC(2026, 10, 26, 3, 0, 0, 123);
    expect(outboxSequenceTime(newOutboxSequence(at))).toBe(at);
  });

  it('is unknown for a sequence made otherwise', () => {
    expect(outboxSequenceTime('1')).toBeUndefined();
    expect(outboxSequenceTime('zzzzzzzzzxxxxxxxxxx')).toBeUndefined();
  });
});
