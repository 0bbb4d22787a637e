/**
 * The console over three emulated accounts (issue 46), in Chromium: with `DATA_ACCOUNTS=DATA1,DATA2`
 * a department's data lives in a data account, and its card shows the employee's photo (decoded:
 * naturalWidth > 0), the expenses read from that account's table endpoint, and the Logs view the
 * lines flushed to a data account's logs container, with no CSP violation and no error in the
 * browser's console. Each emulator gets the console's CORS rule, as `npm start` sets it.
 */
import type { Browser, Request } from 'playwright-core';
import { accountClients, removeEverywhere, spreadSettings } from '../../support/accounts';
import { allowEveryConsoleOrigin, describeInBrowser, launchChromium } from '../../support/chromium';
import type { RunningHost } from '../../support/host';
import { pngImage } from '../../support/images';
import { employeePrincipal, telemetryPrincipal } from '../../support/principals';
import { callerOf, logLineAndWait, send, seg } from '../acceptance/client';
import { openAsAdmin } from '../console/consolePage';
import { hostWith } from '../orchestrations/support';

const settings = spreadSettings();
// Fixed names over unique tables: rendezvous hashing places Sales in DATA1 (accounts.test.ts).
const dept = 'Sales';
const id = '000007';
const card = `/departments/${seg(dept)}/employees/${id}`;
const logSource = `acct${Date.now().toString(36)}`;
const logMessage = `Line flushed to a data account ${Date.now()}`;
let host: RunningHost;
let browser: Browser;

/** The hour's blob prefix in a logs container (console/api.ts `hourPrefix`; Storage Analytics'). */
const hourPrefix = (source: string, at: Date): string =>
  `${source}/${at.toISOString().slice(0, 13).replace(/-/g, '/').replace('T', '/')}00/`;

/** The origin of a connection string's `BlobEndpoint` or `TableEndpoint`. */
function origin(connection: string, service: 'Blob' | 'Table'): string {
  return new URL(new RegExp(`${service}Endpoint=([^;]+)`).exec(connection)![1]!).origin;
}

describeInBrowser('the console with data over three accounts, in Chromium', () => {
  const api = callerOf(() => host.baseUrl);

  beforeAll(async () => {
    host = await hostWith(settings);
    await allowEveryConsoleOrigin([settings.DATA1!, settings.DATA2!]);
    expect((await api('PUT', `/departments/${seg(dept)}`, { description: 'Far' })).status).toBe(
      201,
    );
    const made = await api('POST', `/departments/${seg(dept)}/employees`, {
      employeeId: id,
      firstName: 'Chidi',
      lastName: 'Okafor',
      email: `chidi.${Date.now()}@example.com`,
    });
    expect(made.status).toBe(201);
    const photo = await send(host.baseUrl, 'PUT', `${card}/photo`, {
      raw: pngImage([30, 140, 90]),
      headers: { 'content-type': 'image/png' },
      principal: employeePrincipal(dept, id),
    });
    expect(photo.status).toBe(200);
    for (const [i, description] of ['Train to Lagos', 'Hotel in Abuja'].entries()) {
      const submittedAt = new Date(Date.now() - (2 - i) * 3_600_000).toISOString();
      const claim = await api('POST', `${card}/expenses`, {
        amount: 120 + i,
        currency: 'NGN',
        description,
        submittedAt,
      });
      expect(claim.status).toBe(201);
    }
    await logLineAndWait(host.baseUrl, logSource, logMessage, telemetryPrincipal);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await removeEverywhere(settings);
  });

  it("shows a data account's department: the photo, the expenses and the log lines, within the CSP", async () => {
    const placed = (await api('GET', `/departments/${seg(dept)}`)).body as { account: string };
    expect(placed.account).toBe('DATA1');
    const data = settings[placed.account]!;
    const { page, consoleErrors } = await openAsAdmin(browser, host.baseUrl);
    // Violations of the page's CSP, as the page itself hears them.
    await page.evaluate(
      `window.__violations = [];
       document.addEventListener('securitypolicyviolation', (e) =>
         window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`,
    );
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));

    await page.goto(`${host.baseUrl}/console/#${card}`);
    await page.locator('#view-title', { hasText: 'Chidi Okafor' }).waitFor();
    // The photo, from the data account's blob endpoint, decoded by the browser.
    await page.waitForFunction(() => {
      const image = (
        globalThis as unknown as { document: { querySelector(s: string): unknown } }
      ).document.querySelector('#card img') as { complete: boolean; naturalWidth: number } | null;
      return image !== null && image.complete && image.naturalWidth > 0;
    });
    const src = await page.getAttribute('#card img', 'src');
    expect(new URL(src!).origin).toBe(origin(data, 'Blob'));
    // The expenses, newest first, from the data account's table endpoint.
    await page.locator('#expenses-table tbody tr').nth(1).waitFor();
    const rows = await page.locator('#expenses-table tbody tr').allTextContents();
    expect(rows[0]).toContain('Hotel in Abuja');
    expect(rows[1]).toContain('Train to Lagos');
    const tableRead = requests.find((r) => r.url().includes(`/${settings.EXPENSES_TABLE}()`));
    expect(new URL(tableRead!.url()).origin).toBe(origin(data, 'Table'));

    // The log line: its hour's blob is in a data account's logs container, not home's.
    const hour = new Date();
    const prefix = hourPrefix(logSource, hour);
    const holders: string[] = [];
    for (const [name, clients] of Object.entries(accountClients())) {
      const container = clients.container(settings.LOGS_CONTAINER!);
      if (!(await container.exists())) continue;
      for await (const blob of container.listBlobsFlat({ prefix })) {
        if (blob.name.endsWith('.log')) holders.push(name);
      }
    }
    expect(holders.length).toBeGreaterThan(0);
    expect(holders).not.toContain('home');
    const logsAt = holders.map((name) => (name === 'data1' ? settings.DATA1! : settings.DATA2!));
    await page.goto(`${host.baseUrl}/console/#/logs?source=${logSource}`);
    await page.locator('#log-lines', { hasText: logMessage }).waitFor();
    const listedFrom = requests
      .filter((r) => r.url().includes('comp=list') && r.url().includes(encodeURIComponent(prefix)))
      .map((r) => new URL(r.url()).origin);
    for (const connection of logsAt) expect(listedFrom).toContain(origin(connection, 'Blob'));

    await page.waitForLoadState('networkidle');
    expect(await page.evaluate('window.__violations')).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});
