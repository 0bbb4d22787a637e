/**
 * Where telemetry goes, read from the settings Microsoft and OpenTelemetry document (pure):
 *
 * - `APPLICATIONINSIGHTS_CONNECTION_STRING`: Application Insights through the Azure Monitor
 *   OpenTelemetry distro; with `APPLICATIONINSIGHTS_AUTHENTICATION_STRING`
 *   (`Authorization=AAD;ClientId=<id>`, as infra/app/api.bicep sets it) with an Entra token of
 *   that managed identity (the resource accepts no other: local authentication is off).
 * - `OTEL_EXPORTER_OTLP_ENDPOINT`: any OTLP collector, over `OTEL_EXPORTER_OTLP_PROTOCOL`
 *   (`http/protobuf` by default, or `http/json`); the exporters read the other standard `OTEL_*`
 *   variables (headers, timeouts, per-signal endpoints) themselves.
 * - neither: nothing is exported and nothing fails.
 *
 * A malformed telemetry setting turns telemetry off, never the app: {@link TelemetrySettings} then
 * says why, for one log line.
 */
import { isKeyVaultReference, type Env } from './readSetting';

/** The OTLP protocols this app exports with (gRPC is not bundled). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Where telemetry goes, and whether the process keeps a metrics summary to print. */
export interface TelemetrySettings {
  target: TelemetryTarget;
  /**
   * `DIRECTORY_METRICS_SUMMARY=true` (the local host's `--metrics-summary` sets it): keep the
   * metrics in the process too, and print a one-line summary on `SIGUSR2`, exporter or not.
   */
  summary: boolean;
  /**
   * `service.name` of the worker's telemetry over OTLP: the site's name (`WEBSITE_SITE_NAME`, the
   * host's own), else {@link DEFAULT_SERVICE_NAME}; `OTEL_SERVICE_NAME` still wins (the SDK's own
   * detector). The Azure Monitor distro detects it itself.
   */
  serviceName: string;
}

/** `service.name` outside Azure (no `WEBSITE_SITE_NAME`). */
const DEFAULT_SERVICE_NAME = 'table-patterns-directory';

/** Where telemetry goes. */
export type TelemetryTarget =
  | { kind: 'off' }
  | {
      kind: 'azureMonitor';
      connectionString: string;
      /** Entra authentication: the managed identity's client id (undefined: system-assigned). */
      entra?: { clientId?: string };
    }
  | { kind: 'otlp'; endpoint: string; protocol: OtlpProtocol; metricIntervalMs: number }
  | { kind: 'invalid'; setting: string; problem: string };

/** Default of `OTEL_METRIC_EXPORT_INTERVAL` (the OpenTelemetry specification's). */
export const DEFAULT_METRIC_INTERVAL_MS = 60_000;

function value(env: Env, name: string): string | undefined {
  const text = env[name]?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/**
 * Reads `APPLICATIONINSIGHTS_AUTHENTICATION_STRING`: `Authorization=AAD` (case-insensitive), with
 * an optional `ClientId=<id>` of a user-assigned identity, in any order.
 *
 * @returns undefined when the text is not such a string.
 */
export function parseAuthenticationString(text: string): { clientId?: string } | undefined {
  const pairs = new Map<string, string>();
  for (const part of text.split(';')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    if (at <= 0) return undefined;
    pairs.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  if (pairs.get('authorization')?.toLowerCase() !== 'aad') return undefined;
  const clientId = pairs.get('clientid');
  return clientId ? { clientId } : {};
}

/** Reads the telemetry settings. Never throws: a malformed target yields `kind: 'invalid'`. */
export function telemetrySettings(env: Env): TelemetrySettings {
  return {
    target: telemetryTarget(env),
    summary: value(env, 'DIRECTORY_METRICS_SUMMARY')?.toLowerCase() === 'true',
    serviceName: value(env, 'WEBSITE_SITE_NAME') ?? DEFAULT_SERVICE_NAME,
  };
}

function telemetryTarget(env: Env): TelemetryTarget {
  const connectionString = value(env, 'APPLICATIONINSIGHTS_CONNECTION_STRING');
  if (connectionString !== undefined) {
    if (isKeyVaultReference(connectionString)) {
      return invalid(
        'APPLICATIONINSIGHTS_CONNECTION_STRING',
        'holds an unresolved Key Vault reference',
      );
    }
    const authentication = value(env, 'APPLICATIONINSIGHTS_AUTHENTICATION_STRING');
    if (authentication === undefined) return { kind: 'azureMonitor', connectionString };
    const entra = parseAuthenticationString(authentication);
    if (!entra) {
      return invalid(
        'APPLICATIONINSIGHTS_AUTHENTICATION_STRING',
        'is not "Authorization=AAD" with an optional "ClientId=<client id>"',
      );
    }
    return { kind: 'azureMonitor', connectionString, entra };
  }
  const endpoint = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (endpoint === undefined) return { kind: 'off' };
  if (!/^https?:\/\/[^\s]+$/i.test(endpoint)) {
    return invalid('OTEL_EXPORTER_OTLP_ENDPOINT', 'is not an http(s) URL');
  }
  const protocol = value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    return invalid(
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      `"${protocol}" is not http/protobuf or http/json`,
    );
  }
  const interval = value(env, 'OTEL_METRIC_EXPORT_INTERVAL') ?? String(DEFAULT_METRIC_INTERVAL_MS);
  const metricIntervalMs = Number(interval);
  if (!Number.isInteger(metricIntervalMs) || metricIntervalMs < 100) {
    return invalid('OTEL_METRIC_EXPORT_INTERVAL', 'is not a whole number of milliseconds ≥ 100');
  }
  return { kind: 'otlp', endpoint, protocol, metricIntervalMs };
}

function invalid(setting: string, problem: string): TelemetryTarget {
  return { kind: 'invalid', setting, problem };
}
