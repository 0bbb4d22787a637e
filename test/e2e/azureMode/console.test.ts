/**
 * The web console as deployed, in Chromium: the app with Flex Consumption's environment behind the
 * imitation of App Service authentication (test/support/azureMode.ts).
 * - Before sign-in the console's files load (excludedPaths `/api/console`, `/api/console/*`) and no
 *   developer sign-in is offered; the browser signs in through `/.auth/login/aad` and the issuer's
 *   page, and the console learns who it is from `GET /api/me` (the token store is off).
 * - Cross-site request forgery: with the admin signed in (the session cookie is `SameSite=None`,
 *   so the browser attaches it to requests from any site), a page on another site fires
 *   `fetch(..., {mode: 'no-cors', credentials: 'include'})` writes and a form POST at the app
 *   (`no-cors` allows no other method than GET, HEAD and POST: a DELETE never leaves the page). The
 *   cookie rides and the front lets them through (their answers are the app's JSON, not the
 *   front's 401), and the app refuses every one (403 CrossSiteRequest): nothing changes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import type { BrowserContext } from 'playwright-core';
import { describeInBrowser, launchChromiumProfile } from '../../support/chromium';
import { startAzureMode, type AzureMode } from '../../support/azureMode';
import { PROJECT_ROOT } from '../../support/host';
import { eventually, seg, uniqueDepartment } from '../acceptance/client';

const ARTIFACTS = path.join(PROJECT_ROOT, 'test-artifacts', 'console');
const dept = uniqueDepartment('AzureConsole');
const id = '000042';
const admin = { userId: 'console-admin', roles: ['DirectoryAdmin'] };

let azure: AzureMode;
let profile: string | undefined;
/** A page of another site: `localhost` while the app answers on 127.0.0.1. */
let attacker: http.Server;
let attackerPage = '';

async function call(method: string, p: string, json?: unknown): Promise<Response> {
  return fetch(
    `${azure.baseUrl}${p}`,
    await azure.as(admin, {
      method,
      ...(json === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }),
    }),
  );
}

const employee = (employeeId: string) => ({
  employeeId,
  firstName: 'Mallory',
  lastName: 'Forger',
  email: `forged.${employeeId}.${Date.now()}@example.com`,
});

describeInBrowser('the web console as deployed (Azure mode), in Chromium', () => {
  let context: BrowserContext;

  beforeAll(async () => {
    azure = await startAzureMode();
    expect(
      (await call('PUT', `/departments/${seg(dept)}`, { description: 'As deployed' })).status,
    ).toBe(201);
    expect((await call('POST', `/departments/${seg(dept)}/employees`, employee(id))).status).toBe(
      201,
    );
    const target = `${azure.baseUrl}/departments/${seg(dept)}`;
    // What a foreign page can send without a CORS preflight: no-cors fetches (no body, a text/plain
    // body holding JSON) and a form POST whose text/plain encoding smuggles a JSON body.
    const smuggled = JSON.stringify(employee('000778')).slice(0, -1) + ',"pad":"';
    attackerPage = `<!doctype html><title>Win a prize</title>
<iframe name="sink"></iframe>
<form id="forged" method="POST" enctype="text/plain" target="sink" action="${target}/employees">
<input name='${smuggled}' value='"}'></form>
<script>
(async () => {
  const send = (url, init) =>
    fetch(url, { mode: 'no-cors', credentials: 'include', ...init }).catch(() => undefined);
  await send(${JSON.stringify(`${target}/archive`)}, { method: 'POST' });
  await send(${JSON.stringify(`${target}/employees`)}, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: ${JSON.stringify(JSON.stringify(employee('000777')))},
  });
  document.getElementById('forged').submit();
})();
</script>`;
    attacker = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(attackerPage);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    // A profile of its own, not an incognito-like context: incognito blocks third-party cookies,
    // which would keep the session cookie off the forged requests and test the browser, not the app.
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'azure-console-'));
    context = await launchChromiumProfile(profile, { viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await context?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
    await new Promise((resolve) => attacker?.close(resolve));
    await azure?.stop();
  });

  it('loads before sign-in, signs in through App Service authentication and shows an admin the departments', async () => {
    const page = await context.newPage();
    const files: { url: string; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(`${azure.baseUrl}/console/`)) {
        files.push({ url: response.url(), status: response.status() });
      }
    });
    await page.goto(`${azure.baseUrl}/console/`);
    const signInLink = page.locator('a[href^="/.auth/login/aad"]');
    await signInLink.waitFor();
    // The page, its script, its styles and config.json: all served anonymously.
    expect(files.map((f) => new URL(f.url).pathname.split('/').pop())).toEqual(
      expect.arrayContaining(['', 'config.json']),
    );
    expect(files.length).toBeGreaterThanOrEqual(4);
    expect(files.filter((f) => f.status !== 200)).toEqual([]);
    // No developer sign-in where App Service authentication decides who the caller is.
    expect(await page.locator('#kind').count()).toBe(0);
    expect(await page.textContent('body')).not.toContain('Developer sign-in');

    await signInLink.click();
    await page.locator('button', { hasText: 'DirectoryAdmin' }).click();
    await page.locator(`a[data-department="${dept}"]`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/api/console/');
    expect(new URL(page.url()).hash).toBe('#/departments');
    expect(await page.textContent('#who')).toContain('Ada Admin');
    await page.screenshot({ path: path.join(ARTIFACTS, 'azure-admin.png'), fullPage: true });
    await page.close();
  });

  it('refuses every write a page of another site makes with the signed-in session: nothing changes', async () => {
    const page = await context.newPage();
    // A no-cors answer is opaque even to the test's browser hooks (no body, no headers); its status
    // says who answered: the front refuses a request without a session with 401, never 403.
    const answers: { method: string; path: string; status: number }[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin !== azure.origin) return;
      answers.push({
        method: response.request().method(),
        path: url.pathname,
        status: response.status(),
      });
    });
    const { port } = attacker.address() as AddressInfo;
    // Another site: `localhost` is not `127.0.0.1`, whatever the port.
    await page.goto(`http://localhost:${port}/`);
    await eventually(async () => (answers.length >= 3 ? true : undefined));
    expect(answers.map((a) => `${a.method} ${a.path}`).sort()).toEqual(
      [
        `POST /api/departments/${seg(dept)}/archive`,
        `POST /api/departments/${seg(dept)}/employees`,
        `POST /api/departments/${seg(dept)}/employees`,
      ].sort(),
    );
    for (const answer of answers) {
      // The cookie rode along and the front let it through: a refusal behind it (the app's, which
      // test/integration/http/crossSite.test.ts proves in process, and the local host's own).
      expect(answer.status).toBe(403);
    }
    await page.close();

    // Nothing changed: the employee is there, no forged one was created, nothing is archived.
    const employees = (await (
      await call('GET', `/departments/${seg(dept)}/employees?fromId=000000&toId=999999`)
    ).json()) as { items: { employeeId: string }[] };
    expect(employees.items.map((e) => e.employeeId)).toEqual([id]);
    expect((await call('GET', `/archive/departments/${seg(dept)}/employees/${id}`)).status).toBe(
      404,
    );
  });
});
