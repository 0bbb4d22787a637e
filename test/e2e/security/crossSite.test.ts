/**
 * Cross-site writes (API.md "Cross-site requests"), through the local host: an unsafe method from
 * another site is refused before anything is read or stored, whoever the caller is; reads and
 * same-origin writes are unaffected. The browser-driven version, with App Service's session cookie,
 * runs in Azure mode (test/e2e/azureMode).
 */
import { startHost, type RunningHost } from '../../support/host';
import { expectError, expectJson, send, seg, uniqueDepartment } from '../acceptance/client';

let host: RunningHost;
beforeAll(async () => {
  host = await startHost();
});
afterAll(async () => {
  await host?.stop();
});

const createDepartment = (dept: string, headers: Record<string, string>) =>
  send(host.baseUrl, 'PUT', `/departments/${seg(dept)}`, { json: {}, headers });

async function departmentExists(dept: string): Promise<boolean> {
  return (await send(host.baseUrl, 'GET', `/departments/${seg(dept)}`)).status === 200;
}

describe('a write from another site', () => {
  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['an Origin on another port of the same host', { origin: 'http://127.0.0.1:1' }],
    ['an opaque Origin (null)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])(
    'with %s is 403 CrossSiteRequest and stores nothing, even for an admin',
    async (_, headers) => {
      const dept = uniqueDepartment('CrossSite');
      expectError(await createDepartment(dept, headers), 403, 'CrossSiteRequest');
      expect(await departmentExists(dept)).toBe(false);
    },
  );

  it('is refused before authentication: an anonymous cross-site write is 403, not 401', async () => {
    const dept = uniqueDepartment('CrossSite');
    const reply = await send(host.baseUrl, 'PUT', `/departments/${seg(dept)}`, {
      json: {},
      principal: null,
      headers: { origin: 'https://evil.example' },
    });
    expectError(reply, 403, 'CrossSiteRequest');
  });
});

describe('what still works', () => {
  it('a write from the app’s own origin (Sec-Fetch-Site same-origin) is served', async () => {
    const dept = uniqueDepartment('SameSite');
    const reply = await createDepartment(dept, {
      origin: host.origin,
      'sec-fetch-site': 'same-origin',
    });
    expectJson(reply, 201);
    expect(await departmentExists(dept)).toBe(true);
  });

  it('a read from another site is served (CORS, not this check, keeps the answer from the page)', async () => {
    const reply = await send(host.baseUrl, 'GET', '/departments', {
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expectJson(reply, 200);
  });
});
