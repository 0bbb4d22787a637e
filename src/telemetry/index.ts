/**
 * Telemetry: the OpenTelemetry metrics (metrics.ts), the poison-queue gauge, trace context carried
 * across queues (tracing.ts), and the redaction of what must not leave in telemetry.
 *
 * Description only: other folders import the modules (docs/architecture.md "Entries").
 */
export {};
