/**
 * Every view of the console at 375 px on seeded data (issue 46): `npm run seed`'s own code
 * (tools/seed/run.ts) writes a small organisation — people with avatars, reviews, expenses,
 * message counts, web log lines — and Chromium opens each view as the admin (start page,
 * departments, a department, a card, search, logs, operations, a link to nothing) and as an
 * employee (sign-in, its own card): none scrolls sideways, and the browser's console stays clean.
 */
import type { Browser } from 'playwright-core';
import { seedDirectory } from '../../../tools/seed/run';
import { seedPeople } from '../../../tools/seed/people';
import { allowEveryConsoleOrigin, describeInBrowser, launchChromium } from '../../support/chromium';
import { startHost, type RunningHost } from '../../support/host';
import { eventually, send, seg, uniqueDepartment } from '../acceptance/client';
import { openAsAdmin, sidewaysOverflow } from './consolePage';

const phone = { width: 375, height: 812 };
const departments = [{ name: uniqueDepartment('Seeded'), description: 'A small sample.', size: 4 }];
const dept = departments[0]!.name;
const logSource = `seedphone${Date.now().toString(36)}`;
/** The last full hour, where the seed's web log lines are (`YYYY-MM-DDThh`, UTC). */
const lastHour = new Date(Date.now() - 3_600_000).toISOString().slice(0, 13);
let host: RunningHost;
let browser: Browser;

describeInBrowser('every view of the console at 375 px on seeded data, in Chromium', () => {
  beforeAll(async () => {
    host = await startHost();
    await allowEveryConsoleOrigin();
    await seedDirectory(host.baseUrl, () => undefined, {
      departments,
      activePerDepartment: 2,
      chattyPerDepartment: 1,
      logSource,
      messageDays: 30,
    });
    await eventually(async () => {
      const from = `${lastHour}:00:00.000Z`;
      const to = `${lastHour}:59:59.999Z`;
      const reply = await send(
        host.baseUrl,
        'GET',
        `/logs?source=${logSource}&from=${from}&to=${to}`,
      );
      return ((reply.body as { items?: unknown[] }).items ?? []).length > 0 ? true : undefined;
    });
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it("fits the admin's every view into 375 px", async () => {
    const { page, consoleErrors } = await openAsAdmin(browser, host.baseUrl, phone);
    const { lastName } = seedPeople(departments)[0]!;
    const views: [string, string][] = [
      ['#/', '#departments-table tbody tr'],
      ['#/departments', '#departments-table tbody tr'],
      [`#/departments/${seg(dept)}`, '#employees tbody tr'],
      [`#/departments/${seg(dept)}/employees/000001`, '#expenses-table tbody tr'],
      [`#/search?lastName=${encodeURIComponent(lastName)}`, '#results-list tbody tr'],
      [`#/logs?source=${logSource}&hour=${lastHour}`, '#log-lines li'],
      ['#/operations', '#outbox-summary'],
      ['#/no/such/view', '#view-title'],
    ];
    for (const [hash, content] of views) {
      await page.goto(`${host.baseUrl}/console/${hash}`);
      await page.locator(content).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect({ hash, overflow: await sidewaysOverflow(page) }).toEqual({ hash, overflow: 0 });
    }
    // The card was the seeded one: its photo decoded, its reviews there.
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(dept)}/employees/000001`);
    await page.locator('#reviews-table tbody tr').first().waitFor();
    await page.waitForFunction(
      "document.querySelector('#photo img')?.complete && document.querySelector('#photo img').naturalWidth > 0",
    );
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('fits the sign-in form and an employee its own card into 375 px', async () => {
    const page = await (await browser.newContext({ viewport: phone })).newPage();
    await page.goto(`${host.baseUrl}/console/`);
    await page.waitForSelector(`#department option[value="${dept}"]`, { state: 'attached' });
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.selectOption('#kind', 'employee');
    await page.selectOption('#department', dept);
    await page.waitForSelector('#employee-id option[value="000001"]', { state: 'attached' });
    await page.selectOption('#employee-id', '000001');
    await page.click('#sign-in');
    await page.locator('#expenses-table tbody tr').first().waitFor();
    await page.locator('#hourly canvas').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.context().close();
  });
});
