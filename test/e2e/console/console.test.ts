/**
 * The web console in a real browser: Debian's Chromium driven by playwright-core, against the
 * local host over the shared test Azurite (with the console's CORS rule, as `npm start` sets it).
 * - an employee signs in and sees its own newest expenses arrive from the table endpoint (the
 *   request goes to Azurite's table port with the SAS, not to the API) and the 24-hour chart drawn;
 * - a reader of one department is refused another department, with the API's message on screen;
 * - an admin reads a log window straight from the blob endpoint with the logs SAS.
 * Every answer the page gets from the API is held against the OpenAPI document
 * (test/support/apiContract.ts). Screenshots land in test-artifacts/console/ (gitignored).
 *
 * Without Chromium these tests are skipped and say so loudly; with CI set, a missing Chromium fails
 * the run (test/support/chromium.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  type Browser,
  type Page,
  type Request,
  type Response as BrowserResponse,
} from 'playwright-core';
import { describeInBrowser, launchChromium } from '../../support/chromium';
import { allowConsoleOrigins } from '../../../tools/storageCors';
import { checkExchange } from '../../support/apiContract';
import { PROJECT_ROOT, startHost, type RunningHost } from '../../support/host';
import { pngImage } from '../../support/images';
import { employeePrincipal, readerPrincipal, telemetryPrincipal } from '../../support/principals';
import { eventually, send, seg, uniqueDepartment } from '../acceptance/client';

const ARTIFACTS = path.join(PROJECT_ROOT, 'test-artifacts', 'console');

/** The blob and table endpoints of the test storage (from its connection string). */
function endpoint(name: 'BlobEndpoint' | 'TableEndpoint'): URL {
  const match = new RegExp(`${name}=([^;]+)`).exec(process.env.AzureWebJobsStorage ?? '');
  if (!match) throw new Error(`AzureWebJobsStorage has no ${name}.`);
  return new URL(match[1]!);
}

const dept = uniqueDepartment('Console');
const otherDept = uniqueDepartment('ConsoleOther');
const id = '000042';
const logSource = `console${Date.now().toString(36)}`;
const logMessage = `Console log line ${Date.now()}`;

let host: RunningHost;
let browser: Browser;

/**
 * The page's API calls do not go through this process's `fetch`: each answer is held against the
 * OpenAPI document here, and the test that made it fails in `afterEach` when one does not match.
 */
const browserChecks: Promise<void>[] = [];

async function checkBrowserResponse(response: BrowserResponse): Promise<void> {
  const request = response.request();
  const url = new URL(response.url());
  const status = response.status();
  // A browser keeps no body of a redirect.
  const text = status >= 300 && status < 400 ? '' : (await response.body()).toString('utf8');
  await checkExchange(host.baseUrl, {
    method: request.method(),
    path: url.pathname.slice(new URL(host.baseUrl).pathname.length),
    query: url.searchParams,
    contentType: (await request.allHeaders())['content-type'],
    body: request.postData() ?? undefined,
    status,
    headers: new Headers(await response.allHeaders()),
    text,
    redirected: false,
  });
}

describeInBrowser('the web console in Chromium', () => {
  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const built = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'console/build.mjs')], {
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`Console build failed: ${built.stderr}`);
    host = await startHost();
    await allowConsoleOrigins(process.env.AzureWebJobsStorage!, [host.origin]);
    const call = (method: string, p: string, json: unknown, principal?: string) =>
      send(host.baseUrl, method, p, { json, ...(principal ? { principal } : {}) });
    for (const d of [dept, otherDept]) {
      expect((await call('PUT', `/departments/${seg(d)}`, { description: 'Console' })).status).toBe(
        201,
      );
    }
    const e = `/departments/${seg(dept)}/employees/${id}`;
    expect(
      (
        await call('POST', `/departments/${seg(dept)}/employees`, {
          employeeId: id,
          firstName: 'Grace',
          lastName: 'Hopper',
          email: `grace.${Date.now()}@example.com`,
        })
      ).status,
    ).toBe(201);
    const me = employeePrincipal(dept, id);
    const photo = await send(host.baseUrl, 'PUT', `${e}/photo`, {
      raw: pngImage([40, 110, 200]),
      headers: { 'content-type': 'image/png' },
      principal: me,
    });
    expect(photo.status).toBe(200);
    for (const [i, description] of [
      'Taxi to the airport',
      'Hotel night',
      'Conference ticket',
    ].entries()) {
      const submittedAt = new Date(Date.now() - (3 - i) * 3_600_000).toISOString();
      const reply = await call(
        'POST',
        `${e}/expenses`,
        { amount: 10 + i, currency: 'EUR', description, submittedAt },
        me,
      );
      expect(reply.status).toBe(201);
    }
    for (const hoursAgo of [0, 2, 5, 9]) {
      const at = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
      const reply = await call(
        'POST',
        `${e}/messages`,
        { at, count: 3 + hoursAgo },
        telemetryPrincipal,
      );
      expect(reply.status).toBe(204);
    }
    const logged = await call(
      'POST',
      '/logs',
      {
        source: logSource,
        entries: [{ at: new Date().toISOString(), level: 'Error', message: logMessage }],
      },
      telemetryPrincipal,
    );
    expect(logged.status).toBe(202);
    await eventually(async () => {
      const from = new Date(Date.now() - 3_600_000).toISOString();
      const to = new Date(Date.now() + 60_000).toISOString();
      const reply = await send(
        host.baseUrl,
        'GET',
        `/logs?source=${logSource}&from=${from}&to=${to}`,
      );
      return JSON.stringify(reply.body).includes(logMessage) ? true : undefined;
    }, 30_000);
    browser = await launchChromium();
  });

  afterEach(async () => {
    await Promise.all(browserChecks.splice(0));
  });

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  /** A fresh page on the console, signed in through the developer sign-in. */
  async function signIn(
    kind: 'employee' | 'reader' | 'admin',
    department = '',
    employeeId = '',
  ): Promise<{ page: Page; requests: Request[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    page.on('response', (response) => {
      if (response.url().startsWith(`${host.baseUrl}/`)) {
        browserChecks.push(checkBrowserResponse(response));
      }
    });
    await page.goto(`${host.baseUrl}/console/`);
    await page.selectOption('#kind', kind);
    if (kind !== 'admin') await page.fill('#department', department);
    if (kind === 'employee') await page.fill('#employee-id', employeeId);
    // Keyboard only: focus the button and press Enter.
    await page.focus('#sign-in');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#departments ul, #departments .muted');
    return { page, requests };
  }

  it('shows an employee its card with the photo from its read SAS, its newest expenses read from the table endpoint, and the 24-hour chart', async () => {
    const table = endpoint('TableEndpoint');
    const api = new URL(host.baseUrl);
    const { page, requests } = await signIn('employee', dept, id);
    await page.waitForSelector('#expenses-table tbody tr');
    const request = requests.find((r) => r.url().includes('/EmployeeExpenses()'))!;
    expect(request).toBeDefined();
    const url = new URL(request.url());
    expect(url.host).toBe(table.host);
    expect(url.port).toBe(table.port);
    expect(url.port).not.toBe(api.port);
    expect(url.searchParams.get('$top')).toBe('10');
    expect(url.searchParams.get('sig')).toBeTruthy();
    expect(request.headers().accept).toBe('application/json;odata=nometadata');
    // The API handed out the SAS; the rows themselves never went through it.
    expect(requests.some((r) => r.url().includes('/api/sas/expenses/'))).toBe(true);
    expect(
      requests.some((r) => /\/api\/departments\/[^/]+\/employees\/\d+\/expenses/.test(r.url())),
    ).toBe(false);
    const rows = await page.locator('#expenses-table tbody tr').allTextContents();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('Conference ticket'); // newest first: the log tail
    expect(rows[2]).toContain('Taxi to the airport');

    // The photo: an <img> on the blob endpoint through its read SAS, decoded by the browser.
    const blob = endpoint('BlobEndpoint');
    await page.waitForSelector('#card img');
    const img = await page.$eval('#card img', (el) => {
      const image = el as unknown as { src: string; complete: boolean; naturalWidth: number };
      return { src: image.src, complete: image.complete, width: image.naturalWidth };
    });
    expect(new URL(img.src).host).toBe(blob.host);
    expect(new URL(img.src).searchParams.get('sp')).toBe('r');
    await page.waitForFunction(() => {
      const image = (
        globalThis as unknown as { document: { querySelector(s: string): unknown } }
      ).document.querySelector('#card img') as { complete: boolean; naturalWidth: number };
      return image.complete && image.naturalWidth > 0;
    });

    await page.waitForSelector('#hourly canvas');
    const drawn = await page.$eval('#hourly canvas', (canvas) => {
      // (The browser's canvas; the test's TypeScript has no DOM types.)
      const c = canvas as unknown as {
        width: number;
        height: number;
        getContext(kind: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
        };
      };
      const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let painted = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted++;
      return { width: c.width, painted };
    });
    expect(drawn.width).toBeGreaterThan(200);
    expect(drawn.painted).toBeGreaterThan(500);
    await page.waitForSelector('#heat .heat span.l4');
    await page.screenshot({ path: path.join(ARTIFACTS, 'employee.png'), fullPage: true });
    await page.context().close();
  });

  it("refuses a department's reader another department, with the API's message on screen", async () => {
    const refused = await send(
      host.baseUrl,
      'GET',
      `/departments/${seg(otherDept)}/employees?pageSize=100`,
      {
        principal: readerPrincipal(dept),
      },
    );
    expect(refused.status).toBe(403);
    const message = (refused.body as { error: { message: string } }).error.message;

    const { page } = await signIn('reader', dept);
    await page.waitForSelector('#people table');
    expect(await page.textContent('#people')).toContain('Hopper');
    await page.locator(`button[data-department="${otherDept}"]`).focus();
    await page.keyboard.press('Enter');
    const alert = page.locator('#error');
    await alert.waitFor({ state: 'visible' });
    expect(await alert.getAttribute('role')).toBe('alert');
    const shown = (await alert.textContent())!.trim();
    expect(shown.replace(/\.$/, '')).toBe(message.trim().replace(/\.$/, ''));
    expect(shown).toMatch(/^[A-Z].*[.!?]$/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'reader-refused.png'), fullPage: true });
    await page.context().close();
  });

  it('lets an admin read a log window straight from the blob endpoint', async () => {
    const blob = endpoint('BlobEndpoint');
    const { page, requests } = await signIn('admin');
    await page.fill('#log-source', logSource);
    await page.click('#read-logs');
    await page.waitForSelector('#log-lines');
    expect(await page.textContent('#log-lines')).toContain(logMessage);
    const listing = requests.find((r) => r.url().includes('comp=list'));
    expect(listing).toBeDefined();
    const listed = new URL(listing!.url());
    expect(listed.host).toBe(blob.host);
    expect(listed.searchParams.get('prefix')).toMatch(
      new RegExp(`^${logSource}/\\d{4}/\\d\\d/\\d\\d/\\d\\d00/$`),
    );
    expect(
      requests.some((r) => r.url().startsWith(`${blob.origin}`) && /\/\d{6}\.log\?/.test(r.url())),
    ).toBe(true);
    expect(requests.some((r) => r.url().includes('/api/logs?'))).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'admin-logs.png'), fullPage: true });
    await page.context().close();
  });
});
