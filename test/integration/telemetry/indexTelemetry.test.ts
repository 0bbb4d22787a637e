/**
 * Telemetry of the index outbox, in process with in-memory exporters (no cloud, no collector):
 *
 * - one write, one trace: a create made inside a request span sends a nudge carrying its
 *   `traceparent`; the queue handler's work continues that trace, and the drain and its index
 *   writes (the Azure SDK's dependency spans) are in it;
 * - the metrics move when a backlog is made on purpose: writes whose drain is paused after its
 *   read show as pending outbox rows with an age, and once the drain goes on, as index lag and a
 *   committed round, with the backlog back to zero.
 */
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { createAzureSdkInstrumentation } from '@azure/opentelemetry-instrumentation-azure-sdk';
import { formatMetricsSummary, SummaryReader } from '../../../functions/shared/metricsSummary';
import { inMessageTrace } from '../../../functions/shared/queuePayload';
import { handleIndexUpdateMessage } from '../../../src/indexing/queue/indexUpdates';
import { drainOutbox } from '../../../src/indexing/drain/outboxDrain';
import { decodeQueueMessage } from '../../../src/storage/queue';
import { DirectoryMetrics, MetricNames } from '../../../src/telemetry/metrics';
import {
  createIndexingFixture,
  employeeBody,
  pauseAfter,
  type IndexingFixture,
} from '../indexing/fixture';

const spans = new InMemorySpanExporter();
const reader = new SummaryReader();

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }),
  );
  // The Azure SDK instrumentation patches @azure/core-tracing when Node's `require` loads it;
  // jest's module loader bypasses that hook, so the patch is applied to the module here.
  const definition = (
    createAzureSdkInstrumentation() as unknown as { init(): { patch(exports: unknown): unknown } }
  ).init();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDKs' own copy
  definition.patch(require('@azure/core-tracing'));
  metricsApi().setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});
afterAll(() => {
  trace.disable();
  context.disable();
  propagation.disable();
  metricsApi().disable();
});

function metricsApi() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the same API instance
  return (require('@opentelemetry/api') as typeof import('@opentelemetry/api')).metrics;
}

let fx: IndexingFixture;
beforeEach(async () => {
  fx = createIndexingFixture();
  spans.reset();
});
afterEach(() => fx.cleanup());

/** Handles the nudges on the fixture's queue as the queue function does, trace and all. */
async function runQueueFunction(): Promise<number> {
  const queue = fx.clients.queue(fx.names.queue);
  // The nudge lingers a moment before it is sent (and its queue created).
  await queue.createIfNotExists();
  let handled = 0;
  for (let idle = 0; idle < 20;) {
    const { receivedMessageItems } = await queue.receiveMessages({ numberOfMessages: 32 });
    if (receivedMessageItems.length === 0) {
      if (handled > 0) return handled;
      idle++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    for (const item of receivedMessageItems) {
      const invocation = trace.getTracer('test-host').startSpan('indexUpdates', {
        kind: SpanKind.CONSUMER,
      });
      await context.with(trace.setSpan(context.active(), invocation), () =>
        inMessageTrace(fx.names.queue, decodeQueueMessage(item.messageText), (payload) =>
          handleIndexUpdateMessage(fx.drains, payload),
        ),
      );
      invocation.end();
      await queue.deleteMessage(item.messageId, item.popReceipt);
      handled++;
    }
  }
  return handled;
}

it('puts a create, its nudge, the drain and the index writes in one trace', async () => {
  await fx.directory.departments.put('Sales', {});
  const requestName = 'POST /api/departments/Sales/employees';
  const request = trace.getTracer('test-host').startSpan(requestName, {
    kind: SpanKind.SERVER,
  });
  await context.with(trace.setSpan(context.active(), request), () =>
    fx.directory.employees.create('Sales', employeeBody(1)),
  );
  request.end();
  expect(await runQueueFunction()).toBeGreaterThan(0);

  const traceId = request.spanContext().traceId;
  const finished = spans.getFinishedSpans();
  const byId = new Map(finished.map((s) => [s.spanContext().spanId, s]));
  const parentOf = (span: ReadableSpan) => byId.get(span.parentSpanContext?.spanId ?? '');
  const processing = finished.find((s) => s.name === `${fx.names.queue} process`);
  expect(processing?.spanContext().traceId).toBe(traceId);
  expect(processing && parentOf(processing)?.name).toBe(requestName);
  // Linked to the queue function's own invocation span, a trace of its own.
  expect(processing?.links[0]?.context.traceId).not.toBe(traceId);

  const drain = finished.find((s) => s.name === 'directory.outbox.drain');
  expect(drain && parentOf(drain)).toBe(processing);
  const writes = finished.filter(
    (s) => s.name === 'TableTransaction.submitTransaction' && parentOf(s) === drain,
  );
  expect(writes.length).toBeGreaterThan(0);
  expect(writes.every((s) => s.spanContext().traceId === traceId)).toBe(true);
  // The nudge's send is a dependency of the request.
  const send = finished.find((s) => s.name === 'QueueClient-sendMessage');
  expect(send?.spanContext().traceId).toBe(traceId);
});

/** The data points of one instrument, as attribute sets and values. */
async function points(
  name: string,
): Promise<{ attributes: Record<string, unknown>; value: unknown }[]> {
  const { resourceMetrics } = await reader.collect();
  return collected(resourceMetrics, name);
}

function collected(metrics: ResourceMetrics, name: string) {
  return metrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) =>
      (metric.dataPoints as { attributes: Record<string, unknown>; value: unknown }[]).map(
        (point) => ({ attributes: point.attributes, value: point.value }),
      ),
    );
}

it('shows a backlog made on purpose, then its drain, in the metrics', async () => {
  const department = `Backlog${Date.now()}`;
  await fx.directory.departments.put(department, {});
  for (const n of [1, 2, 3]) await fx.directory.employees.create(department, employeeBody(n));
  // Seen from a minute later, the backlog's oldest row is at least a minute old.
  const metrics = new DirectoryMetrics({ now: () => Date.now() + 60_000 });

  const paused = pauseAfter('read');
  const draining = drainOutbox({ ...fx.stores, metrics }, department, {
    afterStep: paused.afterStep,
  });
  await paused.reached;
  const ours = { department };
  expect(await points(MetricNames.outboxPending)).toContainEqual({ attributes: ours, value: 3 });
  const [age] = (await points(MetricNames.outboxOldestAge)).filter(
    (p) => p.attributes.department === department,
  );
  expect(age?.value).toBeGreaterThanOrEqual(60);

  paused.release();
  expect((await draining).rows).toBe(3);
  expect(await points(MetricNames.outboxPending)).toContainEqual({ attributes: ours, value: 0 });
  const [lag] = (await points(MetricNames.indexLag)).filter(
    (p) => p.attributes.department === department,
  );
  expect((lag?.value as { count: number }).count).toBe(3);
  expect((lag?.value as { min: number }).min).toBeGreaterThanOrEqual(60_000);
  const rounds = await points(MetricNames.drainRounds);
  expect(rounds.find((p) => p.attributes.outcome === 'committed')?.value).toBeGreaterThan(0);

  const { resourceMetrics } = await reader.collect();
  expect(formatMetricsSummary(resourceMetrics)).toMatch(
    new RegExp(`directory\\.outbox\\.pending\\{department=${department}\\}=0`),
  );
});
