/**
 * The span the Functions host opens for each invocation (with `"telemetryMode": "OpenTelemetry"`
 * the host exports it itself): a server span continuing an HTTP request's `traceparent`, a
 * consumer span for a queue message, an internal one otherwise. Its context travels to the worker
 * in the invocation request's `traceContext`, where `AzureFunctionsInstrumentation` (registered
 * by the app, functions/shared/telemetry.ts) runs the handler in it — as in Azure. Only the
 * global `@opentelemetry/api`: with no SDK registered by the app, this is a no-op.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from '@opentelemetry/api';
import type { FunctionMetadata, RpcInvocationRequest } from './types';

const TRACER_NAME = 'local-functions-host';

/** The trigger binding's type (`httpTrigger`, `queueTrigger`, ...). */
function triggerType(metadata: FunctionMetadata): string | undefined {
  return Object.values(metadata.bindings).find((binding) => binding.type?.endsWith('Trigger'))
    ?.type as string | undefined;
}

/** The `traceparent`/`tracestate` headers of an HTTP trigger's request, if it has any. */
function incomingHeaders(request: RpcInvocationRequest): Record<string, string> {
  const headers = request.inputData?.[0]?.data?.http?.nullableHeaders ?? {};
  const carrier: Record<string, string> = {};
  for (const name of ['traceparent', 'tracestate']) {
    const value = headers[name]?.value;
    if (typeof value === 'string') carrier[name] = value;
  }
  return carrier;
}

const KINDS: Record<string, SpanKind> = {
  httpTrigger: SpanKind.SERVER,
  queueTrigger: SpanKind.CONSUMER,
};

/** An invocation's span and what the worker is told of it. */
export interface InvocationSpan {
  /** The RPC `traceContext` (empty when no SDK is registered). */
  traceContext: NonNullable<RpcInvocationRequest['traceContext']>;
  end(error?: unknown): void;
}

/** Starts the span of one invocation. */
export function startInvocationSpan(
  metadata: FunctionMetadata,
  request: RpcInvocationRequest,
): InvocationSpan {
  const trigger = triggerType(metadata) ?? 'unknown';
  const parent =
    trigger === 'httpTrigger'
      ? propagation.extract(ROOT_CONTEXT, incomingHeaders(request))
      : ROOT_CONTEXT;
  const span: Span = trace.getTracer(TRACER_NAME).startSpan(
    metadata.name,
    {
      kind: KINDS[trigger] ?? SpanKind.INTERNAL,
      attributes: {
        'faas.name': metadata.name,
        'faas.trigger': trigger,
        'faas.invocation_id': request.invocationId ?? '',
      },
    },
    parent,
  );
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return {
    traceContext: {
      traceParent: carrier.traceparent ?? null,
      traceState: carrier.tracestate ?? null,
      attributes: {},
    },
    end(error) {
      if (error !== undefined) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
