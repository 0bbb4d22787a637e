/** Starting telemetry (functions/shared/telemetry.ts) when it has nowhere to go. */
import { metrics, trace } from '@opentelemetry/api';
import { startTelemetry } from '../../../functions/shared/telemetry';

afterEach(() => {
  metrics.disable();
  trace.disable();
});

it('sets nothing up, and logs nothing, when no destination is set', async () => {
  const log = jest.fn();
  const state = startTelemetry(
    { target: { kind: 'off' }, summary: false, serviceName: 'test' },
    log,
  );
  expect(state.kind).toBe('off');
  expect(log).not.toHaveBeenCalled();
  // The API's no-op tracer: nothing is recorded, nothing is exported.
  expect(trace.getTracer('x').startSpan('s').isRecording()).toBe(false);
  await state.shutdown();
});

it('turns telemetry off with one line naming a malformed setting', () => {
  const log = jest.fn();
  const state = startTelemetry(
    {
      target: { kind: 'invalid', setting: 'OTEL_EXPORTER_OTLP_PROTOCOL', problem: 'is grpc' },
      summary: false,
      serviceName: 'test',
    },
    log,
  );
  expect(state.kind).toBe('invalid');
  expect(log).toHaveBeenCalledTimes(1);
  expect(log.mock.calls[0]![0]).toBe(
    'Telemetry is off: setting OTEL_EXPORTER_OTLP_PROTOCOL is grpc.',
  );
  expect(trace.getTracer('x').startSpan('s').isRecording()).toBe(false);
});
