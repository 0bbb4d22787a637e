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
import { allowEveryConsoleOrigin, describeInBrowser, launchChromium } from '../../support/chromium';
import { checkExchange } from '../../support/apiContract';
import { PROJECT_ROOT, startHost, type RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { pngImage } from '../../support/images';
import { employeePrincipal, telemetryPrincipal } from '../../support/principals';
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
/** When the lines were logged: the window reads their hour, even when a later one has begun. */
const loggedAt = new Date();
/** A telemetry writer's message that tries to draw a line of its own (issue 41, log forging). */
const forgedMessage = 'user signed in\n07:59:18.639  Critical    FORGED: admin disabled MFA';

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

/** The page's API requests that have not yet finished or failed. */
const inFlight = new WeakMap<Page, Set<Request>>();

/**
 * Closes the page's context once every API request it made has been answered and the answers
 * checked: a check reads the answer from the browser, which a closed context no longer has. A view
 * drawn again after an action may still be asking (`networkidle` does not wait for that: it was
 * reached once, at load), so this waits for no request in flight for a quiet moment.
 */
async function closeAfterChecks(page: Page): Promise<void> {
  const pending = inFlight.get(page) ?? new Set<Request>();
  for (let quiet = 0; quiet < 3;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    quiet = pending.size === 0 ? quiet + 1 : 0;
  }
  await Promise.all([...browserChecks]);
  await page.context().close();
}

describeInBrowser('the web console in Chromium', () => {
  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const built = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'console/build.mjs')], {
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`Console build failed: ${built.stderr}`);
    host = await startHost();
    await allowEveryConsoleOrigin();
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
        entries: [
          { at: loggedAt.toISOString(), level: 'Error', message: logMessage },
          { at: loggedAt.toISOString(), level: 'Information', message: forgedMessage },
        ],
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
    });
    browser = await launchChromium();
  });

  afterEach(async () => {
    await Promise.all(browserChecks.splice(0));
  });

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  /**
   * A fresh page on the console, signed in through the developer sign-in: the department and the
   * employee picked from the lists the form reads from the directory.
   */
  async function signIn(
    kind: 'employee' | 'reader' | 'editor' | 'admin',
    department = '',
    employeeId = '',
    viewport = { width: 1280, height: 900 },
  ): Promise<{ page: Page; requests: Request[] }> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const requests: Request[] = [];
    const pending = new Set<Request>();
    inFlight.set(page, pending);
    page.on('request', (request) => {
      requests.push(request);
      if (request.url().startsWith(`${host.baseUrl}/`)) pending.add(request);
    });
    page.on('requestfinished', (request) => pending.delete(request));
    page.on('requestfailed', (request) => pending.delete(request));
    page.on('response', (response) => {
      if (response.url().startsWith(`${host.baseUrl}/`)) {
        browserChecks.push(checkBrowserResponse(response));
      }
    });
    await page.goto(`${host.baseUrl}/console/`);
    await page.selectOption('#kind', kind);
    if (kind !== 'admin') {
      await page.waitForSelector(`#department option[value="${department}"]`, {
        state: 'attached',
      });
      await page.selectOption('#department', department);
    }
    if (kind === 'employee') {
      await page.waitForSelector(`#employee-id option[value="${employeeId}"]`, {
        state: 'attached',
      });
      await page.selectOption('#employee-id', employeeId);
    }
    // Keyboard only: focus the button and press Enter.
    await page.focus('#sign-in');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#view-title');
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
    await closeAfterChecks(page);
  });

  it("tells a reader who opens another department's link, in plain words, what it would need, and asks the API nothing it would refuse", async () => {
    const { page, requests } = await signIn('reader', dept);
    // Home is the one department the reader may open, with its people.
    await page.locator('#employees tbody tr', { hasText: 'Hopper' }).waitFor();
    expect(await page.locator('#nav').textContent()).toBe('My departmentSearch');
    // A link someone sent: the department's facts (any signed-in caller may read them) and why
    // its people are not listed, without the request the API would refuse.
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(otherDept)}`);
    await page.locator('#department-facts').waitFor();
    expect(await page.textContent('#people')).toContain(
      `Listing the employees of ${otherDept} needs the role DirectoryReader:${otherDept}`,
    );
    expect(requests.some((r) => r.url().includes(`/departments/${seg(otherDept)}/employees`))).toBe(
      false,
    );
    expect(await page.locator('#error').isHidden()).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'reader-other.png'), fullPage: true });
    await closeAfterChecks(page);
  });

  it('uploads a photo the valet-key way: a write SAS, one Put Blob straight to storage with progress, then the API adopts it', async () => {
    const blob = endpoint('BlobEndpoint');
    const { page, requests } = await signIn('employee', dept, id);
    await page.waitForSelector('#card img');
    const before = await page.getAttribute('#card img', 'src');
    await page.getByText('Upload a photo', { exact: true }).click();
    await page.setInputFiles('#photo-file', {
      name: 'me.png',
      mimeType: 'image/png',
      buffer: pngImage([200, 120, 40]),
    });
    await page.getByRole('button', { name: 'Upload photo' }).click();
    // The card is drawn again from the API, the action's message above it.
    await page.locator('#notice', { hasText: 'Photo updated.' }).waitFor();
    const put = requests.find((r) => r.method() === 'PUT' && r.url().startsWith(blob.origin));
    expect(put).toBeDefined();
    expect(put!.headers()['x-ms-blob-type']).toBe('BlockBlob');
    expect(new URL(put!.url()).searchParams.get('sp')).toBe('c');
    const adopt = requests.find(
      (r) => r.method() === 'PUT' && r.url().endsWith(`/employees/${id}/photo`),
    );
    expect(adopt?.postDataJSON()).toEqual({ blobName: expect.any(String) });
    // The card shows the new version, through a new read SAS.
    await page.waitForFunction((old) => {
      const img = (
        globalThis as unknown as { document: { querySelector(s: string): unknown } }
      ).document.querySelector('#card img') as { src: string; complete: boolean } | null;
      return img !== null && img.src !== old && img.complete;
    }, before);
    const after = await send(host.baseUrl, 'GET', `/departments/${seg(dept)}/employees/${id}`);
    expect((after.body as { photoUrl: string }).photoUrl).not.toBe('');
    await closeAfterChecks(page);
  });

  it('lets an admin read a log window straight from the blob endpoint', async () => {
    const blob = endpoint('BlobEndpoint');
    const { page, requests } = await signIn('admin');
    await page.getByRole('link', { name: 'Logs' }).click();
    // It opens on the current hour of the default source, read at once.
    await page.locator('#log-window p.muted', { hasText: 'from web between' }).waitFor();
    await page.fill('#log-source', logSource);
    await page.fill('#log-hour', `${loggedAt.toISOString().slice(0, 13)}:00`);
    await page.click('#read-logs');
    await page.locator('#log-lines', { hasText: logMessage }).waitFor();
    expect(page.url()).toContain(`#/logs?source=${logSource}&hour=`);
    // One element per entry, and a message's newline shown, not followed: the forged "Critical"
    // line stays inside the entry that carried it, and the window reads as two lines.
    const entries = page.locator('#log-lines .log-entry');
    expect(await entries.count()).toBe(2);
    const forged = (await entries.filter({ hasText: 'FORGED' }).innerText()).trim();
    expect(forged).toMatch(/Information\s+user signed in␊07:59:18\.639 {2}Critical {4}FORGED/);
    expect(forged).not.toContain('\n');
    expect((await page.locator('#log-lines').innerText()).trim().split('\n')).toHaveLength(2);
    const listing = requests.find(
      (r) => r.url().includes('comp=list') && r.url().includes(`prefix=${logSource}`),
    );
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
    await closeAfterChecks(page);
  });

  it("holds a new address to the API's email rule before sending, and mails a stored one as one recipient", async () => {
    const { page, requests } = await signIn('admin');
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(dept)}`);
    await page.getByText('Add an employee', { exact: true }).click();
    await page.getByLabel('Employee id', { exact: true }).fill('000077');
    await page.getByLabel('First name', { exact: true }).fill('Ada');
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace');
    const email = page.getByLabel('Email', { exact: true });
    // The browser's own type="email" takes `ada@lovelace`; the API's rule does not.
    await email.fill('ada@lovelace');
    await page.getByRole('button', { name: 'Add employee' }).click();
    expect(
      await email.evaluate(
        (input) => (input as unknown as { validationMessage: string }).validationMessage,
      ),
    ).toMatch(/domain with a dot/);
    expect(requests.some((r) => r.method() === 'POST' && r.url().endsWith('/employees'))).toBe(
      false,
    );

    // A row stored before the rule, with a mailto: query in its address: the card's link is one
    // recipient (the whole address encoded), with no `bcc` header.
    const legacy = 'ada%40contoso.com?bcc=attacker@evil.example';
    await email.fill(`ada.${Date.now()}@contoso.com`);
    await page.getByRole('button', { name: 'Add employee' }).click();
    await page.waitForURL(`**/console/#/departments/${seg(dept)}/employees/000077`);
    const table = testClients().table('Employees');
    await table.updateEntity(
      { partitionKey: dept, rowKey: employeeRowKey('000077'), Email: legacy },
      'Merge',
    );
    // Away and back within the page (a reload would drop the answers still being checked).
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(dept)}`);
    await page.locator('#view-title', { hasText: dept }).waitFor();
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(dept)}/employees/000077`);
    const link = page.locator('#employee-card .email a');
    await link.waitFor();
    expect(await link.textContent()).toBe(legacy);
    const href = (await link.getAttribute('href'))!;
    expect(href).toBe('mailto:ada%2540contoso.com%3Fbcc%3Dattacker@evil.example');
    expect(new URL(href).search).toBe('');
    await closeAfterChecks(page);
  });
});
