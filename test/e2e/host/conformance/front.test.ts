/**
 * What Azure's front and host answer themselves, whatever the app does:
 * - no answer within 230 s is cut by the front whatever functionTimeout (Azure Load Balancer's
 *   idle timeout; learn.microsoft.com azure-functions/functions-scale, "Function app timeout
 *   duration"), while the function runs on; shortened here with HOST_HTTP_RESPONSE_LIMIT_MS;
 * - the host's own 404 (no route) and 413 (over FUNCTIONS_REQUEST_BODY_SIZE_LIMIT) have no body
 *   (ASP.NET Core routing and Kestrel's limit; the API's JSON shape is the app's);
 * - the front adds X-Forwarded-Proto/-For (learn.microsoft.com azure/app-service/
 *   configure-language-nodejs, "Detect HTTPS session"), `http` locally: the scheme really used.
 */
import { startHostApp, type HostApp } from '../hostApp';

let app: HostApp;

beforeAll(async () => {
  app = await startHostApp({
    HOST_HTTP_RESPONSE_LIMIT_MS: '500',
    FUNCTIONS_REQUEST_BODY_SIZE_LIMIT: '1024',
  });
});
afterAll(async () => {
  await app?.host.stop();
});

it('an answer later than the front limit is a 502 from the front; the function runs on', async () => {
  const started = Date.now();
  const response = await fetch(`${app.host.baseUrl}/worker/wait/2000`);
  expect(response.status).toBe(502);
  expect(await response.text()).toBe('');
  expect(Date.now() - started).toBeLessThan(2000);
  await app.waitForRecords((r) => r.some((x) => x.fn === 'workerWait' && x.event === 'finished'));
});

it('a path no function takes is a bare 404, inside the route prefix and outside it', async () => {
  for (const url of [`${app.host.baseUrl}/no/such/route`, `${app.host.origin}/elsewhere`]) {
    const response = await fetch(url);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  }
  // A method the route does not take: the same bare 404.
  const mismatch = await fetch(`${app.host.baseUrl}/echo/x`, { method: 'DELETE' });
  expect([mismatch.status, await mismatch.text()]).toEqual([404, '']);
});

it('a body over the host limit is a bare 413', async () => {
  const response = await fetch(`${app.host.baseUrl}/echo/x`, {
    method: 'POST',
    body: 'x'.repeat(2048),
  });
  expect(response.status).toBe(413);
  expect(await response.text()).toBe('');
});

it('the function sees the front headers, never a client copy of them', async () => {
  const response = await fetch(`${app.host.baseUrl}/worker/headers`, {
    headers: { 'x-forwarded-proto': 'https', 'x-client-ip': '203.0.113.9' },
  });
  const headers = (await response.json()) as Record<string, string>;
  expect(headers['x-forwarded-proto']).toBe('http');
  expect(headers['x-forwarded-for']).toMatch(
    /^(127\.0\.0\.1|\[::1\]|\[::ffff:127\.0\.0\.1\]):\d+$/,
  );
  expect(headers['x-client-ip']).not.toBe('203.0.113.9');
  expect(headers['x-original-url']).toBe('/api/worker/headers');
});
