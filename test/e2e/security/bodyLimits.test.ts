/**
 * Request bodies are measured while they stream in: a chunked body (no length up front) past the
 * host's `FUNCTIONS_REQUEST_BODY_SIZE_LIMIT` is refused with a bare 413 by the host — never buffered
 * whole first, never a 500. Under that limit, the host passes a chunked body to the app as
 * nothing (as Azure's does), and the app answers 411 rather than act on an empty body.
 */
import { startHost, type RunningHost } from '../../support/host';
import { PRINCIPAL_HEADER, telemetryPrincipal } from '../../support/principals';

const HOST_LIMIT = 256 * 1024;
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({
    env: { FUNCTIONS_REQUEST_BODY_SIZE_LIMIT: String(HOST_LIMIT), LOG_MAX_BATCH_BYTES: '65536' },
  });
});
afterAll(async () => {
  await host?.stop();
});

/** A body sent in chunks of 64 KiB, `total` bytes in all (`transfer-encoding: chunked`). */
function chunked(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(64 * 1024, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
}

async function post(path: string, principal: string, body: ReadableStream<Uint8Array> | string) {
  const response = await fetch(`${host.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: principal },
    body,
    ...(typeof body === 'string' ? {} : { duplex: 'half' }),
  } as RequestInit);
  const text = await response.text();
  return {
    status: response.status,
    body: (text === '' ? {} : JSON.parse(text)) as { error?: { code: string } },
    text,
  };
}

it('the host refuses a chunked body past FUNCTIONS_REQUEST_BODY_SIZE_LIMIT with 413', async () => {
  const reply = await post('/logs', telemetryPrincipal, chunked(8 * HOST_LIMIT));
  expect(reply.status).toBe(413);
  // The host's own 413 is bare, as Azure's (the app's 413s below are JSON).
  expect(reply.text).toBe('');
});

it('a chunked body under the host limit reaches the app empty, which answers 411', async () => {
  const reply = await post('/logs', telemetryPrincipal, chunked(2 * 65536));
  expect(reply.status).toBe(411);
  expect(reply.body.error?.code).toBe('LengthRequired');
});

it('a route refuses a body past its own limit with 413, under the host limit', async () => {
  // POST /logs takes at most LOG_MAX_BATCH_BYTES (64 KiB here); the host would take 256 KiB.
  const reply = await post('/logs', telemetryPrincipal, ' '.repeat(2 * 65536));
  expect(reply.status).toBe(413);
  expect(reply.body.error?.code).toBe('TooLarge');
});
