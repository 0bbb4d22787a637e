/**
 * Both wirings of the span redaction (functions/shared/spanRedaction.ts) with a real SDK and an
 * in-memory exporter: a processor ahead of the export processor (as the Azure Monitor distro
 * runs it), and an exporter that redacts what it exports (as the OTLP setup runs it). A storage
 * dependency span and a failed invocation carry an employee id, an e-mail address and a user id;
 * what is exported carries none of them.
 */
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { redactingExporter, spanRedactor } from '../../../functions/shared/spanRedaction';

const SECRETS = ['000223', 'ada.trace@example.com', 'ada.trace%40example.com', 'user-42'];

function emitSpans(provider: TracerProvider): void {
  const tracer = provider.getTracer('test');
  const read = tracer.startSpan(
    "GET /devstoreaccount1/Employees(PartitionKey='Eng',RowKey='email_ada.trace%40example.com')",
  );
  read.setAttribute(
    'url.full',
    "http://127.0.0.1:10002/devstoreaccount1/Employees(PartitionKey='Eng',RowKey='empid_000223')",
  );
  read.setAttribute('http.request.method', 'GET');
  read.end();
  const login = tracer.startSpan('TableClient.createEntity');
  login.setAttribute(
    'url.full',
    "http://127.0.0.1:10002/devstoreaccount1/LoginAttempts20261127(PartitionKey='user-42',RowKey='1')",
  );
  login.end();
  const failed = tracer.startSpan('createEmployee');
  failed.recordException(new Error('EmailTaken: ada.trace@example.com is taken in "Eng".'));
  failed.end();
}

function exportedText(spans: ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
  );
}

it.each<[string, (memory: InMemorySpanExporter) => SpanProcessor[]]>([
  [
    'a processor ahead of the export processor (Azure Monitor)',
    (memory) => [
      spanRedactor() as unknown as SpanProcessor,
      new SimpleSpanProcessor({ exporter: memory }),
    ],
  ],
  [
    'an exporter that redacts what it exports (OTLP)',
    (memory) => [new SimpleSpanProcessor({ exporter: redactingExporter(memory) })],
  ],
])('%s: nothing exported names an employee, an address or a user', async (_how, processors) => {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: processors(memory) });
  emitSpans(provider);
  await provider.forceFlush();

  const spans = memory.getFinishedSpans();
  expect(spans).toHaveLength(3);
  const text = exportedText(spans);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  // What names the dependency stays, and the copies are still whole spans.
  expect(spans[0]!.attributes['url.full']).toBe(
    "http://127.0.0.1:10002/devstoreaccount1/Employees(PartitionKey='redacted',RowKey='redacted')",
  );
  expect(spans[0]!.attributes['http.request.method']).toBe('GET');
  expect(spans[1]!.name).toBe('TableClient.createEntity');
  expect(spans[2]!.events[0]!.attributes?.['exception.message']).toBe(
    'EmailTaken: redacted is taken in "Eng".',
  );
  expect(spans[0]!.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
  await provider.shutdown();
});
