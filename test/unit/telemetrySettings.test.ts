/** Where telemetry goes, from the documented settings (src/config/telemetrySettings.ts). */
import {
  DEFAULT_METRIC_INTERVAL_MS,
  parseAuthenticationString,
  telemetrySettings,
} from '../../src/config/telemetrySettings';

const target = (env: Record<string, string>) => telemetrySettings(env).target;
const CONNECTION =
  'InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=https://x';

describe('telemetry settings', () => {
  it('exports nothing, and fails nothing, when neither destination is set', () => {
    expect(telemetrySettings({})).toEqual({
      target: { kind: 'off' },
      summary: false,
      serviceName: 'table-patterns-directory',
    });
  });

  it("names the worker's service after the site, as the host's telemetry is named", () => {
    // One role in Application Insights' map for the host and the worker (docs/telemetry.md).
    expect(telemetrySettings({ WEBSITE_SITE_NAME: 'func-abc123' }).serviceName).toBe('func-abc123');
  });

  it('sends to Application Insights with the managed identity the infra names', () => {
    expect(
      target({
        APPLICATIONINSIGHTS_CONNECTION_STRING: CONNECTION,
        APPLICATIONINSIGHTS_AUTHENTICATION_STRING: 'ClientId=abc-123;Authorization=AAD',
      }),
    ).toEqual({
      kind: 'azureMonitor',
      connectionString: CONNECTION,
      entra: { clientId: 'abc-123' },
    });
    expect(target({ APPLICATIONINSIGHTS_CONNECTION_STRING: CONNECTION })).toEqual({
      kind: 'azureMonitor',
      connectionString: CONNECTION,
    });
  });

  it('reads the authentication string as Microsoft documents it', () => {
    expect(parseAuthenticationString('Authorization=AAD')).toEqual({});
    expect(parseAuthenticationString('authorization=aad;clientid=x')).toEqual({ clientId: 'x' });
    expect(parseAuthenticationString('Authorization=Key')).toBeUndefined();
    expect(parseAuthenticationString('garbage')).toBeUndefined();
  });

  it('turns telemetry off, naming the setting, for a malformed one', () => {
    expect(
      target({
        APPLICATIONINSIGHTS_CONNECTION_STRING: CONNECTION,
        APPLICATIONINSIGHTS_AUTHENTICATION_STRING: 'Authorization=Key',
      }),
    ).toMatchObject({ kind: 'invalid', setting: 'APPLICATIONINSIGHTS_AUTHENTICATION_STRING' });
    expect(
      target({
        APPLICATIONINSIGHTS_CONNECTION_STRING: '@Microsoft.KeyVault(SecretUri=https://v/s)',
      }),
    ).toMatchObject({ kind: 'invalid', setting: 'APPLICATIONINSIGHTS_CONNECTION_STRING' });
    expect(target({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toMatchObject({
      kind: 'invalid',
      setting: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    });
    expect(
      target({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toMatchObject({ kind: 'invalid', setting: 'OTEL_EXPORTER_OTLP_PROTOCOL' });
    expect(
      target({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRIC_EXPORT_INTERVAL: 'soon' }),
    ).toMatchObject({ kind: 'invalid', setting: 'OTEL_METRIC_EXPORT_INTERVAL' });
  });

  it('exports over OTLP, http/protobuf unless http/json is asked for', () => {
    expect(target({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({
      kind: 'otlp',
      endpoint: 'http://c:4318',
      protocol: 'http/protobuf',
      metricIntervalMs: DEFAULT_METRIC_INTERVAL_MS,
    });
    expect(
      target({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRIC_EXPORT_INTERVAL: '1000',
      }),
    ).toMatchObject({ protocol: 'http/json', metricIntervalMs: 1000 });
  });

  it('prefers Application Insights when both are set, and keeps a summary on request', () => {
    const settings = telemetrySettings({
      APPLICATIONINSIGHTS_CONNECTION_STRING: CONNECTION,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      DIRECTORY_METRICS_SUMMARY: 'true',
    });
    expect(settings).toMatchObject({ target: { kind: 'azureMonitor' }, summary: true });
  });
});
