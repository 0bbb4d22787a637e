/**
 * OpenTelemetry for the worker, as Microsoft's "Use OpenTelemetry with Azure Functions" guide sets
 * it up for Node (docs/telemetry.md "Setup"): the Azure Monitor distro with
 * `APPLICATIONINSIGHTS_CONNECTION_STRING`, else the OpenTelemetry Node SDK over OTLP with
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, else nothing (src/ records into the API's no-ops); in both, the
 * Azure SDK instrumentation and `AzureFunctionsInstrumentation` (the host's trace context).
 * Storage keys, blob names and addresses are redacted from every span (spanRedaction.ts).
 *
 * Started once by functions/shared/startup.ts, the first import of every entry point, so the
 * instrumentations are in place before the storage SDKs and `http`/`https` load. Settings come
 * from src/config only; a malformed one turns telemetry off with one log line.
 */
import { createRequire } from 'node:module';
import { metrics } from '@opentelemetry/api';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import { readTelemetry } from '../../src/config';
import type { TelemetrySettings, TelemetryTarget } from '../../src/config/telemetrySettings';
import type { SummaryReader } from './metricsSummary';
import { redactingExporter, spanRedactor } from './spanRedaction';

/**
 * The SDKs are loaded only by the setup that uses them: together they take seconds to load, which
 * a worker (or a local host) without telemetry should not pay at every cold start. Each is a
 * `require` of a literal name, so the deployment package's bundler (tools/package) bundles it and
 * still loads it only when called.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const sdk = {
  distro: (): typeof import('@azure/monitor-opentelemetry') =>
    require('@azure/monitor-opentelemetry'),
  functions: (): typeof import('@azure/functions-opentelemetry-instrumentation') =>
    require('@azure/functions-opentelemetry-instrumentation'),
  azureSdk: (): typeof import('@azure/opentelemetry-instrumentation-azure-sdk') =>
    require('@azure/opentelemetry-instrumentation-azure-sdk'),
  identity: (): typeof import('@azure/identity') => require('@azure/identity'),
  node: (): typeof import('@opentelemetry/sdk-node') => require('@opentelemetry/sdk-node'),
  http: (): typeof import('@opentelemetry/instrumentation-http') =>
    require('@opentelemetry/instrumentation-http'),
  metrics: (): typeof import('@opentelemetry/sdk-metrics') => require('@opentelemetry/sdk-metrics'),
  resources: (): typeof import('@opentelemetry/resources') => require('@opentelemetry/resources'),
  summary: (): typeof import('./metricsSummary') => require('./metricsSummary'),
};

/** What was started. */
export interface TelemetryState {
  /** `off`, `azureMonitor`, `otlp` or `invalid` (the setting was malformed: off). */
  kind: TelemetryTarget['kind'];
  /** Flushes and stops the exporters. */
  shutdown(): Promise<void>;
  /** The reader of the on-demand summary, when `DIRECTORY_METRICS_SUMMARY` asked for one. */
  summary?: SummaryReader;
}

const resource = (serviceName: string) =>
  sdk.resources().resourceFromAttributes({ 'service.name': serviceName });

/**
 * Outgoing requests only: an incoming request is the host's invocation span already (in Azure the
 * host records it; locally tools/host does, in this process). A second server span would split the
 * trace, and an ignored incoming request would run its handler with tracing suppressed.
 */
const httpOptions = { disableIncomingRequestInstrumentation: true };

type DistroOptions = NonNullable<
  Parameters<typeof import('@azure/monitor-opentelemetry').useAzureMonitor>[0]
>;

function otlpExporters(target: Extract<TelemetryTarget, { kind: 'otlp' }>) {
  // The exporters read OTEL_EXPORTER_OTLP_ENDPOINT (adding /v1/traces, /v1/metrics), the
  // per-signal endpoints, headers and timeouts themselves, as the specification says.
  // The http and proto packages export the same classes: one shape, two wire formats.
  const json = target.protocol === 'http/json';
  const traces: typeof import('@opentelemetry/exporter-trace-otlp-http') = json
    ? require('@opentelemetry/exporter-trace-otlp-http')
    : require('@opentelemetry/exporter-trace-otlp-proto');
  const metrics: typeof import('@opentelemetry/exporter-metrics-otlp-http') = json
    ? require('@opentelemetry/exporter-metrics-otlp-http')
    : require('@opentelemetry/exporter-metrics-otlp-proto');
  const metricExporter = new metrics.OTLPMetricExporter();
  // Gauges as observed (functions/shared/metricsSummary.ts), the rest as the exporter prefers.
  const select = metricExporter.selectAggregationTemporality.bind(metricExporter);
  metricExporter.selectAggregationTemporality = sdk.summary().gaugesAsObserved(select);
  return { traces: new traces.OTLPTraceExporter(), metrics: metricExporter };
}

/**
 * Re-requires the modules the instrumentations patch. Their hooks patch a module when it is
 * required; in Azure nothing of these is loaded before functions/shared/startup.ts, but the local
 * host (tools/host, the same process) loads the storage SDKs and `http` before the app, and a
 * later `require` of an already loaded module is patched all the same.
 */
function patchLoadedModules(): void {
  require('@azure/functions');
  require('node:http');
  require('node:https');
  // `@azure/core-tracing` is the storage SDKs' dependency, resolved from where they load it; in
  // the deployment package they are bundled and load the one copy the package keeps external.
  let fromSdks: NodeJS.Require = require;
  try {
    fromSdks = createRequire(require.resolve('@azure/data-tables'));
  } catch {
    // Bundled: no @azure/data-tables folder to resolve from.
  }
  fromSdks('@azure/core-tracing');
}
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * Sets up the exporters the settings ask for. Never throws: a failure to start is logged and
 * leaves telemetry off.
 */
export function startTelemetry(
  settings: TelemetrySettings = readTelemetry(),
  log: (line: string) => void = (line) => console.warn(line),
): TelemetryState {
  const { target } = settings;
  const summary = settings.summary ? new (sdk.summary().SummaryReader)() : undefined;
  const readers: MetricReader[] = summary ? [summary] : [];
  let shutdown = async (): Promise<void> => undefined;
  try {
    if (target.kind === 'invalid') {
      log(`Telemetry is off: setting ${target.setting} ${target.problem}.`);
    }
    if (target.kind === 'azureMonitor') {
      // No resource of ours: the distro detects the Functions resource (service.name is the
      // site's name, as the host's), so the worker's telemetry shares the host's role name.
      sdk.distro().useAzureMonitor({
        azureMonitorExporterOptions: {
          connectionString: target.connectionString,
          // The resource has local authentication off: only the app's identity's token is taken.
          credential: target.entra
            ? new (sdk.identity().ManagedIdentityCredential)(
                target.entra.clientId ? { clientId: target.entra.clientId } : {},
              )
            : undefined,
        },
        instrumentationOptions: { http: { enabled: true, ...httpOptions } },
        // The distro runs its own SDK 2.x; a reader of ours (SDK 3.x) plugs in through the
        // contract both share (setMetricProducer, collect): test/unit/telemetry/distro.test.ts.
        metricReaders: readers as unknown as DistroOptions['metricReaders'],
        // Personal data out of the spans before the distro's export processor sees them.
        spanProcessors: [spanRedactor()] as unknown as DistroOptions['spanProcessors'],
      });
      new (sdk.functions().AzureFunctionsInstrumentation)();
      shutdown = () => sdk.distro().shutdownAzureMonitor();
    } else if (target.kind === 'otlp') {
      const exporters = otlpExporters(target);
      readers.push(
        new (sdk.metrics().PeriodicExportingMetricReader)({
          exporter: exporters.metrics,
          exportIntervalMillis: target.metricIntervalMs,
        }),
      );
      const node = new (sdk.node().NodeSDK)({
        resource: resource(settings.serviceName),
        autoDetectResources: true,
        // Personal data out of the spans it exports (spanRedaction.ts).
        traceExporter: redactingExporter(exporters.traces),
        metricReaders: readers,
        instrumentations: [
          new (sdk.functions().AzureFunctionsInstrumentation)(),
          sdk.azureSdk().createAzureSdkInstrumentation(),
          new (sdk.http().HttpInstrumentation)(httpOptions),
        ],
      });
      node.start();
      shutdown = () => node.shutdown();
    } else if (summary) {
      // Metrics kept in the process for the summary only: no exporter, no traces.
      const provider = new (sdk.metrics().MeterProvider)({
        resource: resource(settings.serviceName),
        readers,
      });
      metrics.setGlobalMeterProvider(provider);
      shutdown = () => provider.shutdown();
    }
    if (target.kind === 'azureMonitor' || target.kind === 'otlp') patchLoadedModules();
  } catch (error) {
    log(`Telemetry is off: it could not start (${(error as Error).message}).`);
  }
  if (summary) {
    // On demand, one line on stdout (docs/telemetry.md); a signal the Functions host never sends.
    process.on('SIGUSR2', () => {
      void sdk
        .summary()
        .metricsSummary(summary)
        .then(
          (line) => console.log(line),
          (error: unknown) => log(`Metrics summary failed: ${String(error)}`),
        );
    });
  }
  return { kind: target.kind, shutdown, summary };
}

let started: TelemetryState | undefined;

/** Starts telemetry for this process once (functions/shared/startup.ts calls it on import). */
export function processTelemetry(): TelemetryState {
  started ??= startTelemetry();
  return started;
}
