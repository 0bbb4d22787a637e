/**
 * A tiny OTLP/HTTP collector for tests: accepts `http/json` exports on `/v1/traces`,
 * `/v1/metrics` and `/v1/logs` and keeps the spans and metric names it received.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received span, flattened. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
}

interface JsonAttribute {
  key: string;
  value: Record<string, unknown>;
}

function attributes(list: JsonAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map((a) => [a.key, Object.values(a.value ?? {})[0]] as const),
  );
}

export interface OtlpCollector {
  /** `http://127.0.0.1:<port>`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  endpoint: string;
  spans: CollectedSpan[];
  /** Names of the metrics received, with the attribute sets of their data points. */
  metrics: Map<string, Record<string, unknown>[]>;
  /** Content types of the requests received (the protocol the exporters used). */
  contentTypes: Set<string>;
  close(): Promise<void>;
}

/** Starts the collector on a free port. */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const metrics = new Map<string, Record<string, unknown>[]>();
  const contentTypes = new Set<string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      contentTypes.add(String(request.headers['content-type']));
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
        if (request.url === '/v1/traces') collectSpans(body, spans);
        if (request.url === '/v1/metrics') collectMetrics(body, metrics);
      } catch {
        // Not JSON (another protocol): kept out; the test asserts the protocol.
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    metrics,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OTLP/JSON as received, checked by the tests
type Json = Record<string, any>;

function collectSpans(body: Json, into: CollectedSpan[]): void {
  for (const resource of (body.resourceSpans as Json[] | undefined) ?? []) {
    for (const scope of (resource.scopeSpans as Json[] | undefined) ?? []) {
      for (const span of (scope.spans as Json[] | undefined) ?? []) {
        into.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          kind: span.kind,
          scope: (scope.scope as { name: string } | undefined)?.name ?? '',
          attributes: attributes(span.attributes),
          links: ((span.links as Json[] | undefined) ?? []).map((l) => ({
            traceId: l.traceId,
            spanId: l.spanId,
          })),
        });
      }
    }
  }
}

function collectMetrics(body: Json, into: Map<string, Record<string, unknown>[]>): void {
  for (const resource of (body.resourceMetrics as Json[] | undefined) ?? []) {
    for (const scope of (resource.scopeMetrics as Json[] | undefined) ?? []) {
      for (const metric of (scope.metrics as Json[] | undefined) ?? []) {
        const data = (metric.sum ?? metric.gauge ?? metric.histogram ?? {}) as Json;
        const points = ((data.dataPoints as Json[] | undefined) ?? []).map((p) =>
          attributes(p.attributes),
        );
        into.set(metric.name, [...(into.get(metric.name) ?? []), ...points]);
      }
    }
  }
}
