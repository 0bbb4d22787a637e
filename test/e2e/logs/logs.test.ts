/**
 * The log pipeline through the local Functions host: `POST /api/logs` answers 202, the host's
 * `log-batches` queue trigger flushes the batches into hour blobs, and `GET /api/logs` returns
 * them within seconds.
 */
import { startHost, type RunningHost } from '../../support/host';
import { asAdmin, asTelemetry } from '../../support/principals';
import { testClients, uniqueName } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';

const names = { LOG_QUEUE: uniqueName('logq'), LOGS_CONTAINER: uniqueName('logs') };
const clients = testClients();
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env: names });
});

afterAll(async () => {
  await host?.stop();
  await clients.container(names.LOGS_CONTAINER).deleteIfExists();
});

/** Logs are posted by a telemetry service and read by an admin. */
function post(body: unknown): Promise<Response> {
  return fetch(
    `${host.baseUrl}/logs`,
    asTelemetry({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

async function query(params: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(
    `${host.baseUrl}/logs?${new URLSearchParams(params).toString()}`,
    asAdmin(),
  );
  return { status: response.status, body: await response.json() };
}

test('accepted entries become queryable within seconds, each exactly once', async () => {
  const message = 'Zahlung fehlgeschlagen; retry\nstack: at pay() — 東京 🚀';
  for (let b = 0; b < 6; b++) {
    const entries = Array.from({ length: 10 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 10, 22, 14, 58 + b, i)).toISOString(),
      level: i % 2 === 0 ? 'Error' : 'Information',
      message: `${message} #${b}-${i}`,
      orderId: `o-${b}-${i}`,
    }));
    const response = await post({ source: 'checkout', entries });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ entries: 10, messages: 1 });
  }

  const window = {
    source: 'checkout',
    from: '2026-11-22T14:00:00Z',
    to: '2026-11-22T16:00:00Z',
    level: 'Error',
  };
  const deadline = Date.now() + WAIT_MS;
  let items: Array<Record<string, unknown>> = [];
  while (Date.now() < deadline) {
    const result = await query(window);
    expect(result.status).toBe(200);
    items = (result.body as { items: Array<Record<string, unknown>> }).items;
    if (items.length >= 30) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  expect(items).toHaveLength(30);
  expect(new Set(items.map((i) => i.orderId)).size).toBe(30);
  expect(items[0]).toEqual({
    at: '2026-11-22T14:58:00.000Z',
    level: 'Error',
    message: `${message} #0-0`,
    orderId: 'o-0-0',
  });
  const times = items.map((i) => Date.parse(i.at as string));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  // Entries on both sides of 15:00 went to their own hour's blob.
  const blobNames: string[] = [];
  for await (const blob of clients.container(names.LOGS_CONTAINER).listBlobsFlat())
    blobNames.push(blob.name);
  expect(blobNames.some((n) => n.startsWith('checkout/2026/11/22/1400/'))).toBe(true);
  expect(blobNames.some((n) => n.startsWith('checkout/2026/11/22/1500/'))).toBe(true);
  // An hour prefix holds only its NNNNNN.log blobs; the ledgers live under _pipeline/ledgers/.
  const underSource = blobNames.filter((n) => n.startsWith('checkout/'));
  expect(underSource.every((n) => /^checkout\/2026\/11\/22\/1[45]00\/\d{6}\.log$/.test(n))).toBe(
    true,
  );
  const ledgers = blobNames.filter((n) => n.startsWith('_pipeline/ledgers/checkout/'));
  expect(ledgers.sort()).toEqual(
    underSource.map((n) => `_pipeline/ledgers/${n.slice(0, -'.log'.length)}.tags`).sort(),
  );
});

test('a batch over one queue message is staged, flushed whole and its staging blob removed', async () => {
  const entries = Array.from({ length: 80 }, (_, i) => ({
    at: new Date(Date.UTC(2026, 10, 22, 15, 30, i)).toISOString(),
    level: 'Warning',
    message: `large-${i}`,
    payload: 'ä'.repeat(1000),
  }));
  const response = await post({ source: 'bulk', entries });
  expect(response.status).toBe(202);
  expect(await response.json()).toMatchObject({ entries: 80, messages: 1, staged: true });

  const window = { source: 'bulk', from: '2026-11-22T15:00:00Z', to: '2026-11-22T16:00:00Z' };
  const deadline = Date.now() + WAIT_MS;
  let items: Array<Record<string, unknown>> = [];
  let staged = 1;
  while (Date.now() < deadline) {
    items = ((await query(window)).body as { items: Array<Record<string, unknown>> }).items;
    staged = 0;
    for await (const blob of clients
      .container(names.LOGS_CONTAINER)
      .listBlobsFlat({ prefix: '_pipeline/staging/' })) {
      if (blob.name) staged++;
    }
    if (items.length >= 80 && staged === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(items.map((i) => i.message)).toEqual(entries.map((e) => e.message));
  expect(staged).toBe(0);
});

test('a batch with a bad entry is refused with 400 and never appears', async () => {
  const response = await post({
    source: 'refused',
    entries: [
      { at: '2026-11-22T15:00:00Z', level: 'Error', message: 'fine' },
      { at: '2026-11-22T15:00:01Z', level: 'Error' },
    ],
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({
    error: { code: 'InvalidLogEntry', target: 'body.entries[1].message' },
  });
  const result = await query({
    source: 'refused',
    from: '2026-11-22T15:00:00Z',
    to: '2026-11-22T16:00:00Z',
  });
  expect(result).toEqual({ status: 200, body: { items: [], continuationToken: null } });
});

test('a query window over 24 hours is read like any other, and a bad page size is refused', async () => {
  const result = await query({
    source: 'checkout',
    from: '2026-11-21T15:00:00Z',
    to: '2026-11-22T15:00:01Z',
  });
  expect(result.status).toBe(200);
  const tooBig = await query({
    source: 'checkout',
    from: '2026-11-21T15:00:00Z',
    to: '2026-11-22T15:00:01Z',
    pageSize: '5001',
  });
  expect(tooBig.status).toBe(400);
});
