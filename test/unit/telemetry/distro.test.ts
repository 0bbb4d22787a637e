/**
 * The Azure Monitor distro (OpenTelemetry SDK 2.x inside) and the app (API 1.10, SDK 3.x) share
 * one `@opentelemetry/api` (package.json overrides): the providers the distro registers are the
 * ones the app's spans and metrics reach, and a reader of ours plugs into its meter provider.
 * Nothing leaves the machine: the connection string points at a closed local port.
 */
import { metrics, trace } from '@opentelemetry/api';
import { startTelemetry } from '../../../functions/shared/telemetry';
import { DirectoryMetrics, MetricNames } from '../../../src/telemetry/metrics';

// The distro's default sampler lets 5 traces a second through, rated over the time since it
// started: a span in its first ~200 ms is dropped on a fast machine and kept on a slow one. The
// sampler is chosen as a deployment chooses it (docs/telemetry.md) so the probe does not depend
// on speed.
process.env.OTEL_TRACES_SAMPLER = 'always_on';
// Statsbeat (the exporter's own usage reports) runs on timers that shutdownAzureMonitor does not
// stop; one firing after this file, in the same jest worker, crashed that worker mid-run in CI
// (a dynamic import inside a torn-down test environment). The legacy switch turns all of it off.
process.env.APPLICATION_INSIGHTS_NO_STATSBEAT = 'true';

it('records the app spans and metrics through the providers the distro registered', async () => {
  const log = jest.fn();
  const state = startTelemetry(
    {
      target: {
        kind: 'azureMonitor',
        connectionString:
          'InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=http://127.0.0.1:9/',
      },
      summary: true,
      serviceName: 'unused',
    },
    log,
  );
  try {
    expect(log).not.toHaveBeenCalled();
    expect(state.kind).toBe('azureMonitor');
    const span = trace.getTracer('table-patterns-directory').startSpan('probe');
    expect(span.isRecording()).toBe(true);
    span.end();

    new DirectoryMetrics().recordSasIssued('expenses');
    const { resourceMetrics } = await state.summary!.collect();
    const names = resourceMetrics.scopeMetrics.flatMap((s) =>
      s.metrics.map((m) => m.descriptor.name),
    );
    expect(names).toContain(MetricNames.sasIssued);
  } finally {
    await state.shutdown();
    metrics.disable();
    trace.disable();
  }
});
