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
import { WAIT_MS } from '../../support/waits';
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

/**
 * Closes the page's context once the checks of the answers it received are done: a check reads the
 * answer from the browser, which a closed context no longer has.
 */
async function closeAfterChecks(page: Page): Promise<void> {
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
          { at: new Date().toISOString(), level: 'Error', message: logMessage },
          { at: new Date().toISOString(), level: 'Information', message: forgedMessage },
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
    page.on('request', (request) => requests.push(request));
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
    await page.locator('#upload-photo .form-status', { hasText: 'Photo updated.' }).waitFor();
    expect(await page.getAttribute('#photo-progress', 'value')).toBe('1');
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

  it('lets an admin work on a card: edit, review, expense, manager, then move and archive, each through the API', async () => {
    const from = uniqueDepartment('Work');
    const to = uniqueDepartment('Moved');
    for (const d of [from, to]) {
      expect((await send(host.baseUrl, 'PUT', `/departments/${seg(d)}`, { json: {} })).status).toBe(
        201,
      );
    }
    const path = `/departments/${seg(from)}/employees`;
    for (const [n, first] of [
      [1, 'Kwame'],
      [2, 'Mei'],
    ] as const) {
      const made = await send(host.baseUrl, 'POST', path, {
        json: {
          employeeId: `00000${n}`,
          firstName: first,
          lastName: 'Mensah',
          email: `${first.toLowerCase()}.${Date.now()}@example.com`,
        },
      });
      expect(made.status).toBe(201);
    }
    const { page, requests } = await signIn('admin');
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(from)}/employees/000001`);
    await page.locator('#view-title', { hasText: 'Kwame Mensah' }).waitFor();
    const done = (form: string, text: string) =>
      page.locator(`#${form} .form-status`, { hasText: text }).waitFor();

    await page.locator('summary', { hasText: 'Edit details' }).click();
    await page.getByLabel('Last name', { exact: true }).fill('Mensah-Owusu');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await done('edit-employee', 'Saved.');
    await page.locator('#view-title', { hasText: 'Kwame Mensah-Owusu' }).waitFor();

    await page.locator('summary', { hasText: 'Write a review' }).click();
    await page.getByLabel('Year', { exact: true }).fill('2025');
    await page.getByLabel('Manager rating (0–10)').fill('8.5');
    await page.getByLabel('Peer rating (0–10)').fill('9');
    await page.getByLabel('Comments').fill('Calm in every storm.');
    await page.getByRole('button', { name: 'Save review' }).click();
    await done('write-review', 'Saved the review of 2025.');
    expect(await page.textContent('#reviews-table')).toContain('Calm in every storm.');

    await page.locator('summary', { hasText: 'Add an expense' }).click();
    await page.getByLabel('Amount', { exact: true }).fill('42.50');
    await page.getByLabel('Currency', { exact: true }).selectOption('GBP');
    await page.getByLabel('Description', { exact: true }).fill('Train to Leeds');
    await page.getByRole('button', { name: 'Add expense' }).click();
    await done('add-expense', 'Added.');
    expect(await page.textContent('#expenses-table tbody tr')).toContain('Train to Leeds');

    await page.locator('summary', { hasText: 'Make manager' }).click();
    await page.getByRole('button', { name: 'Make manager' }).click();
    await done('make-manager', `Kwame now manages ${from}.`);

    const api = (p: string) => send(host.baseUrl, 'GET', p);
    expect((await api(`${path}/000001`)).body).toMatchObject({ lastName: 'Mensah-Owusu' });
    expect((await api(`${path}/000001/reviews`)).body).toMatchObject({
      items: [{ year: 2025, managerRating: 8.5, peerRating: 9, comments: 'Calm in every storm.' }],
    });
    expect((await api(`/departments/${seg(from)}`)).body).toMatchObject({
      manager: { employeeId: '000001', lastName: 'Mensah-Owusu' },
    });

    // The other employee moves (an orchestration, followed to its end), then the first is archived.
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(from)}/employees/000002`);
    await page.locator('#view-title', { hasText: 'Mei Mensah' }).waitFor();
    await page.locator('summary', { hasText: 'Move to another department' }).click();
    await page.waitForSelector(`#move-to option[value="${to}"]`, { state: 'attached' });
    await page.getByLabel('Move to', { exact: true }).selectOption(to);
    await page.getByRole('button', { name: 'Move employee' }).click();
    await page.locator('#move-employee [data-status="Completed"]').waitFor({ timeout: WAIT_MS });
    expect(await page.textContent('#move-employee .orchestration')).toContain(
      `Done: moved to ${to}.`,
    );
    await page.getByRole('link', { name: `Open the card in ${to}` }).click();
    await page.locator('#view-title', { hasText: 'Mei Mensah' }).waitFor();
    expect((await api(`/departments/${seg(to)}/employees/000002`)).status).toBe(200);

    await page.goto(`${host.baseUrl}/console/#/departments/${seg(from)}/employees/000001`);
    await page.locator('summary', { hasText: 'Archive' }).click();
    // Unticked, the form does not submit (the box is required): nothing is sent.
    await page.getByRole('button', { name: 'Archive employee' }).click();
    expect(requests.some((r) => r.url().endsWith('/000001/archive'))).toBe(false);
    await page.getByLabel('Yes, archive Kwame Mensah-Owusu').check();
    await page.getByRole('button', { name: 'Archive employee' }).click();
    await done('archive-employee', 'is archived and no longer in the directory.');
    expect((await api(`${path}/000001`)).status).toBe(404);
    await closeAfterChecks(page);
  });

  it('archives a department after its name is typed, showing the orchestration until it is done', async () => {
    const doomed = uniqueDepartment('Doomed');
    expect(
      (await send(host.baseUrl, 'PUT', `/departments/${seg(doomed)}`, { json: {} })).status,
    ).toBe(201);
    const imported = await send(
      host.baseUrl,
      'POST',
      `/departments/${seg(doomed)}/employees/import`,
      {
        json: {
          employees: [1, 2, 3].map((n) => ({
            employeeId: `00000${n}`,
            firstName: 'Temp',
            lastName: `Worker${n}`,
            email: `temp${n}.${doomed.replace(/\W/g, '').toLowerCase()}@example.com`,
          })),
        },
      },
    );
    expect((imported.body as { created: number }).created).toBe(3);
    const { page, requests } = await signIn('admin');
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(doomed)}`);
    await page.locator('#employees-count', { hasText: '3 of 3 employees' }).waitFor();
    await page.locator('summary', { hasText: 'Archive department' }).click();
    // Without the name typed, nothing starts.
    await page.getByLabel(`Type “${doomed}” to confirm`).fill('wrong');
    await page.getByRole('button', { name: 'Archive department' }).click();
    await page.locator('#archive-department .form-status.bad').waitFor();
    expect(requests.some((r) => r.url().endsWith('/archive'))).toBe(false);
    await page.getByLabel(`Type “${doomed}” to confirm`).fill(doomed);
    await page.getByRole('button', { name: 'Archive department' }).click();
    const watch = page.locator('#archive-department-progress .orchestration');
    await page.locator('#archive-department-progress [data-status="Completed"]').waitFor({
      timeout: WAIT_MS,
    });
    expect(await watch.textContent()).toContain('Done: 3 of 3 employees archived.');
    expect(await page.getAttribute('#archive-department-progress progress', 'value')).toBe('1');
    expect(requests.some((r) => /\/api\/orchestrations\/[0-9a-f]{32}$/.test(r.url()))).toBe(true);
    const gone = await send(host.baseUrl, 'GET', `/departments/${seg(doomed)}`);
    expect((gone.body as { employeeCount: number }).employeeCount).toBe(0);
    await closeAfterChecks(page);
  });

  it('lets an admin read a log window straight from the blob endpoint', async () => {
    const blob = endpoint('BlobEndpoint');
    const { page, requests } = await signIn('admin');
    await page.getByRole('link', { name: 'Logs' }).click();
    await page.fill('#log-source', logSource);
    await page.click('#read-logs');
    await page.waitForSelector('#log-lines');
    expect(await page.textContent('#log-lines')).toContain(logMessage);
    // One element per entry, and a message's newline shown, not followed: the forged "Critical"
    // line stays inside the entry that carried it, and the window reads as two lines.
    const entries = page.locator('#log-lines .log-entry');
    expect(await entries.count()).toBe(2);
    const forged = (await entries.filter({ hasText: 'FORGED' }).innerText()).trim();
    expect(forged).toMatch(/Information\s+user signed in␊07:59:18\.639 {2}Critical {4}FORGED/);
    expect(forged).not.toContain('\n');
    expect((await page.locator('#log-lines').innerText()).trim().split('\n')).toHaveLength(2);
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
