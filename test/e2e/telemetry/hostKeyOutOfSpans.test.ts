/**
 * No secret in the exported spans, as deployed: in Azure mode the host's own endpoints want the
 * host key, so the Durable client's URLs carry it as `code=` (tools/durable/http/clientInput.ts),
 * and a move calls them (start, then status reads). The host's spans, exported over OTLP to a
 * collector, name those calls but never the key (src/telemetry/redaction.ts).
 */
import { startAzureMode, type AzureMode } from '../../support/azureMode';
import { startOtlpCollector, type OtlpCollector } from '../../support/otlpCollector';
import { WAIT_MS } from '../../support/waits';
import { bearerTransport, expectJson, send, type SendOptions } from '../acceptance/client';
import { isolatedSettings } from '../orchestrations/support';

let azure: AzureMode;
let collector: OtlpCollector;

beforeAll(async () => {
  collector = await startOtlpCollector();
  azure = await startAzureMode({
    env: {
      ...isolatedSettings(),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
  });
});
afterAll(async () => {
  await azure?.stop();
  await collector?.close();
});

it('exports the spans of a move without the host key the Durable client URLs carry', async () => {
  const key = azure.host.key;
  if (!key) throw new Error('Azure mode started a host without a host key.');
  const options = (json?: unknown): SendOptions => ({
    transport: bearerTransport(azure),
    ...(json === undefined ? {} : { json }),
  });
  for (const department of ['Spans', 'SpansTo']) {
    expectJson(await send(azure.baseUrl, 'PUT', `/departments/${department}`, options({})), 201);
  }
  expectJson(
    await send(
      azure.baseUrl,
      'POST',
      '/departments/Spans/employees',
      options({ employeeId: '000401', firstName: 'Ada', lastName: 'Keyless', email: 'ak@x.com' }),
    ),
    201,
  );
  const started = expectJson(
    await send(
      azure.baseUrl,
      'POST',
      '/departments/Spans/employees/000401/move',
      options({ toDepartment: 'SpansTo' }),
    ),
    202,
  );
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const status = expectJson(
      await send(azure.origin, 'GET', String(started.statusUri), options()),
      200,
    );
    if (status.runtimeStatus === 'Completed') break;
    if (Date.now() > deadline || ['Failed', 'Terminated'].includes(String(status.runtimeStatus))) {
      throw new Error(`The move ended ${JSON.stringify(status)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  // The Durable client's calls to the webhook API (the start, the status reads), exported: their
  // paths redacted (no instance id), their queries kept but for the secrets.
  const webhookCalls = () =>
    collector.spans.filter((s) => String(s.attributes['url.full']).includes('/runtime/webhooks/'));
  const until = Date.now() + WAIT_MS;
  while (!webhookCalls().some((s) => s.attributes['http.request.method'] === 'POST')) {
    if (Date.now() > until) throw new Error('No span of the move’s start reached the collector.');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // They are named, the key is not (in any form it may take in a URL).
  for (const call of webhookCalls()) {
    expect(String(call.attributes['url.full'])).toMatch(/[?&]taskHub=[^&]+&.*\bcode=redacted\b/);
  }
  const exported = JSON.stringify(collector.spans);
  for (const form of new Set([key, encodeURIComponent(key)])) {
    expect(exported).not.toContain(form);
  }
});
