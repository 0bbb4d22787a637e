/**
 * OpenTelemetry for the worker, as Microsoft's "Use OpenTelemetry with Azure Functions" guide sets
 * it up for Node (host.json has `"telemetryMode": "OpenTelemetry"` for the host's own part):
 *
 * - `APPLICATIONINSIGHTS_CONNECTION_STRING`: the Azure Monitor distro (`useAzureMonitor`, which
 *   includes the Azure SDK instrumentation: every storage call is a dependency), with the managed
 *   identity's Entra token when `APPLICATIONINSIGHTS_AUTHENTICATION_STRING` says so;
 * - `OTEL_EXPORTER_OTLP_ENDPOINT`: the OpenTelemetry Node SDK exporting traces and metrics over
 *   OTLP (`http/protobuf` or `http/json`), with the same Azure SDK instrumentation;
 * - in both, `AzureFunctionsInstrumentation`, which runs each invocation in the trace context the
 *   host passes (the host's request span);
 * - neither: nothing is set up; src/ records into the API's no-ops.
 *
 * Started once, when functions/shared/services.ts is first imported (every function file imports
 * it). The settings come from src/config.ts only; a malformed one turns telemetry off with one
 * log line and leaves the app alone.
 */
import { createRequire } from 'node:module';
import { metrics } from '@opentelemetry/api';
import { AzureFunctionsInstrumentation } from '@azure/functions-opentelemetry-instrumentation';
import { ManagedIdentityCredential } from '@azure/identity';
import { useAzureMonitor } from '@azure/monitor-opentelemetry';
import { createAzureSdkInstrumentation } from '@azure/opentelemetry-instrumentation-azure-sdk';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricReader,
} from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { readTelemetry } from '../../src/config';
import { METER_NAME } from '../../src/telemetry/metrics';
import type { TelemetrySettings, TelemetryTarget } from '../../src/telemetry/settings';
import { metricsSummary, SummaryReader } from './metricsSummary';

/** What was started. */
export interface TelemetryState {
  /** `off`, `azureMonitor`, `otlp` or `invalid` (the setting was malformed: off). */
  kind: TelemetryTarget['kind'];
  /** Flushes and stops the exporters. */
  shutdown(): Promise<void>;
  /** The reader of the on-demand summary, when `DIRECTORY_METRICS_SUMMARY` asked for one. */
  summary?: SummaryReader;
}

const resource = () => resourceFromAttributes({ 'service.name': METER_NAME });

function otlpExporters(target: Extract<TelemetryTarget, { kind: 'otlp' }>) {
  // The exporters read OTEL_EXPORTER_OTLP_ENDPOINT (adding /v1/traces, /v1/metrics), the
  // per-signal endpoints, headers and timeouts themselves, as the specification says.
  const json = target.protocol === 'http/json';
  return {
    traces: json ? new JsonTraceExporter() : new ProtoTraceExporter(),
    metrics: json ? new JsonMetricExporter() : new ProtoMetricExporter(),
  };
}

/**
 * Re-requires the modules the instrumentations patch. Their hooks patch a module when it is
 * required, and a function file may have loaded the Azure SDK (and `@azure/functions`) before
 * this module ran; a later `require` of an already loaded module is patched all the same.
 */
function patchLoadedModules(): void {
  createRequire(__filename)('@azure/functions');
  // `@azure/core-tracing` is the storage SDKs' dependency, resolved from where they load it.
  createRequire(require.resolve('@azure/data-tables'))('@azure/core-tracing');
}

/**
 * Sets up the exporters the settings ask for. Never throws: a failure to start is logged and
 * leaves telemetry off.
 */
export function startTelemetry(
  settings: TelemetrySettings = readTelemetry(),
  log: (line: string) => void = (line) => console.warn(line),
): TelemetryState {
  const { target } = settings;
  const summary = settings.summary ? new SummaryReader() : undefined;
  const readers: MetricReader[] = summary ? [summary] : [];
  let shutdown = async (): Promise<void> => undefined;
  try {
    if (target.kind === 'invalid') {
      log(`Telemetry is off: setting ${target.setting} ${target.problem}.`);
    }
    if (target.kind === 'azureMonitor') {
      useAzureMonitor({
        resource: resource(),
        azureMonitorExporterOptions: {
          connectionString: target.connectionString,
          // The resource has local authentication off: only the app's identity's token is taken.
          credential: target.entra
            ? new ManagedIdentityCredential(
                target.entra.clientId ? { clientId: target.entra.clientId } : {},
              )
            : undefined,
        },
        metricReaders: readers,
      });
      new AzureFunctionsInstrumentation();
      shutdown = async () => {
        const { shutdownAzureMonitor } = await import('@azure/monitor-opentelemetry');
        await shutdownAzureMonitor();
      };
    } else if (target.kind === 'otlp') {
      const exporters = otlpExporters(target);
      readers.push(
        new PeriodicExportingMetricReader({
          exporter: exporters.metrics,
          exportIntervalMillis: target.metricIntervalMs,
        }),
      );
      const sdk = new NodeSDK({
        resource: resource(),
        autoDetectResources: true,
        traceExporter: exporters.traces,
        metricReaders: readers,
        instrumentations: [new AzureFunctionsInstrumentation(), createAzureSdkInstrumentation()],
      });
      sdk.start();
      shutdown = () => sdk.shutdown();
    } else if (summary) {
      // Metrics kept in the process for the summary only: no exporter, no traces.
      const provider = new MeterProvider({ resource: resource(), readers });
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
      void metricsSummary(summary).then(
        (line) => console.log(line),
        (error: unknown) => log(`Metrics summary failed: ${String(error)}`),
      );
    });
  }
  return { kind: target.kind, shutdown, summary };
}

let started: TelemetryState | undefined;

/** Starts telemetry for this process once (functions/shared/services.ts calls it on import). */
export function processTelemetry(): TelemetryState {
  started ??= startTelemetry();
  return started;
}
