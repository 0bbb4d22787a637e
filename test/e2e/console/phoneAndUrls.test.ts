/**
 * The console as a person meets it (issue 46), in Chromium:
 * - at 375 px no view scrolls sideways with seeded-like data: the card with its expenses and
 *   reviews, Operations with outbox and timer rows (the overview's answer given those rows);
 * - the log window's source and hour, and a list's "Show more", are the URL's: Back and reload keep
 *   them; Logs opens on the current hour's lines;
 * - errors speak of the form's fields by their labels and of the file chosen, never of the API's
 *   paths or storage names, and go when the person changes the field;
 * - small things: the favicon (no 404), no empty card under "Loading…", the error banner no wider
 *   than the content, the search hint, and no console error from the console's own probes.
 */
import type { Browser } from 'playwright-core';
import { allowEveryConsoleOrigin, describeInBrowser, launchChromium } from '../../support/chromium';
import { startHost, type RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { telemetryPrincipal } from '../../support/principals';
import { callerOf, logLineAndWait, seg, uniqueDepartment } from '../acceptance/client';
import { openAsAdmin, sidewaysOverflow } from './consolePage';

let host: RunningHost;
let browser: Browser;
const phone = { width: 375, height: 812 };
const dept = uniqueDepartment('Field Sales');
const big = uniqueDepartment('Big');
const logSource = `phone${Date.now().toString(36)}`;
const logMessage = `Phone log line ${Date.now()}`;

/** Claims like the seed's (tools/seed/activity.ts), the widest amounts included. */
const CLAIMS = [
  ['Hotel, two nights (customer workshop)', 'EUR', 419.9],
  ['Flight to Seattle', 'USD', 1099.99],
  ['Co-working day pass in Warsaw', 'PLN', 150],
  ['Client dinner', 'CHF', 379.5],
  ['Books on distributed systems', 'GBP', 89.99],
  ['Conference ticket', 'JPY', 129800],
] as const;

describeInBrowser('the console on a phone, in its URLs and in its words, in Chromium', () => {
  const api = callerOf(() => host.baseUrl);

  beforeAll(async () => {
    host = await startHost();
    await allowEveryConsoleOrigin();
    await testClients().table('EmployeeExpenses').createTable();
    for (const d of [dept, big]) {
      expect((await api('PUT', `/departments/${seg(d)}`, { description: 'Phone' })).status).toBe(
        201,
      );
    }
    const card = `/departments/${seg(dept)}/employees/000042`;
    expect(
      (
        await api('POST', `/departments/${seg(dept)}/employees`, {
          employeeId: '000042',
          firstName: 'Oluwaseun',
          lastName: 'Adeyemi-Fitzgerald',
          email: `oluwaseun.adeyemi-fitzgerald.${Date.now()}@contoso-international.example.com`,
          age: 38,
        })
      ).status,
    ).toBe(201);
    for (const [i, [description, currency, amount]] of CLAIMS.entries()) {
      const submittedAt = new Date(Date.now() - (i + 1) * 86_400_000).toISOString();
      const made = await api('POST', `${card}/expenses`, {
        amount,
        currency,
        description,
        submittedAt,
      });
      expect(made.status).toBe(201);
    }
    expect(
      (
        await api('PUT', `${card}/reviews/2025`, {
          managerRating: 8.5,
          peerRating: 9,
          comments: 'Led the regional roll-out across three countries; mentors two new colleagues.',
        })
      ).status,
    ).toBe(200);
    const employees = Array.from({ length: 150 }, (_, i) => ({
      employeeId: String(i + 1).padStart(6, '0'),
      firstName: 'Amara',
      lastName: `Person${String(i + 1).padStart(3, '0')}`,
      email: `person${i + 1}.${big.replace(/\W/g, '').toLowerCase()}@example.com`,
    }));
    const imported = await api('POST', `/departments/${seg(big)}/employees/import`, { employees });
    expect((imported.body as { created: number }).created).toBe(150);
    await logLineAndWait(host.baseUrl, logSource, logMessage, telemetryPrincipal);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('fits every view into 375 px: the card with expenses and reviews, Operations with outbox and timer rows', async () => {
    const { page, consoleErrors } = await openAsAdmin(browser, host.baseUrl, phone);
    // Operations as it reads with work waiting: the API's own answer, given rows like a busy app's.
    await page.route('**/api/operations', async (route) => {
      const real = (await (await route.fetch()).json()) as {
        outbox: { departments: unknown[] };
        timers: unknown[];
      };
      real.outbox.departments = [
        {
          department: 'Customer Success EMEA',
          pending: 1000,
          pendingCapped: true,
          oldestAgeSeconds: 7385,
        },
        { department: dept, pending: 12, pendingCapped: false, oldestAgeSeconds: 42 },
      ];
      real.timers = [
        {
          timer: 'sweepIndexOutboxes',
          finishedAt: new Date().toISOString(),
          outcome: 'failed',
          error: 'StorageBusy: the table service answered 503 ServerBusy three times in a row.',
        },
        {
          timer: 'dropExpiredLoginTables',
          finishedAt: new Date().toISOString(),
          outcome: 'succeeded',
        },
        {
          timer: 'sweepUnadoptedPhotos',
          finishedAt: new Date().toISOString(),
          outcome: 'succeeded',
        },
      ];
      await route.fulfill({ json: real });
    });
    const views: [string, string][] = [
      [`#/departments/${seg(dept)}/employees/000042`, '#expenses-table tbody tr'],
      ['#/operations', '#timers-table tbody tr'],
      ['#/departments', '#departments-table'],
      [`#/departments/${seg(big)}`, '#employees tbody tr'],
      ['#/search?lastName=Adeyemi-Fitzgerald', '#results-list tbody tr'],
      [`#/logs?source=${logSource}`, '#log-lines'],
    ];
    for (const [hash, content] of views) {
      await page.goto(`${host.baseUrl}/console/${hash}`);
      await page.locator(content).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect({ hash, overflow: await sidewaysOverflow(page) }).toEqual({ hash, overflow: 0 });
    }
    // The outbox table had its rows (the check above was not of an empty page).
    await page.goto(`${host.baseUrl}/console/#/operations`);
    await page.locator('#outbox-table tbody tr').nth(1).waitFor();
    expect(await page.locator('#outbox-table tbody tr').count()).toBe(2);
    // A stacked cell still says which column it is.
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(dept)}/employees/000042`);
    await page.locator('#expenses-table tbody tr').first().waitFor();
    expect(await page.locator('#expenses-table td.num').first().getAttribute('data-label')).toBe(
      'Amount',
    );
    expect(await page.locator('#expenses-table td.num').first().isVisible()).toBe(true);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('keeps the log window and "Show more" in the URL: Back and reload return to them', async () => {
    const { page } = await openAsAdmin(browser, host.baseUrl);
    // Logs opens on the current hour's lines, read at once.
    await page.getByRole('link', { name: 'Logs' }).click();
    await page.locator('#log-window p.muted', { hasText: 'from web between' }).waitFor();
    await page.fill('#log-source', logSource);
    await page.click('#read-logs');
    await page.locator('#log-lines', { hasText: logMessage }).waitFor();
    const hourUrl = page.url();
    const hour = new URL(hourUrl).hash.match(/hour=([\dT-]+)/)![1]!;
    await page.click('#log-earlier');
    await page.locator('#log-lines', { hasText: '(no lines)' }).waitFor();
    expect(page.url()).not.toBe(hourUrl);
    expect(new URL(page.url()).hash).toContain(`source=${logSource}`);
    await page.goBack();
    await page.waitForURL(hourUrl);
    await page.locator('#log-lines', { hasText: logMessage }).waitFor();
    await page.reload();
    await page.locator('#log-lines', { hasText: logMessage }).waitFor();
    expect(await page.inputValue('#log-source')).toBe(logSource);
    expect(await page.inputValue('#log-hour')).toBe(`${hour}:00`);

    // "Show more": 150 of 150 stays after a reload, and after leaving and coming Back.
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(big)}`);
    await page.locator('#employees-count', { hasText: '100 of 150 employees' }).waitFor();
    await page.getByRole('button', { name: /Show more \(50 left\)/ }).click();
    await page.locator('#employees-count', { hasText: '150 of 150 employees' }).waitFor();
    expect(page.url()).toContain(`#/departments/${seg(big)}?pages=2`);
    await page.reload();
    await page.locator('#employees-count', { hasText: '150 of 150 employees' }).waitFor();
    expect(await page.locator('#employees tbody tr').count()).toBe(150);
    await page.locator('#nav').getByRole('link', { name: 'Departments', exact: true }).click();
    await page.locator('#departments-count').waitFor();
    await page.goBack();
    await page.locator('#employees-count', { hasText: '150 of 150 employees' }).waitFor();
    await page.context().close();
  });

  it("says what is wrong in the form's words, and stops saying it once the field changes", async () => {
    const { page } = await openAsAdmin(browser, host.baseUrl);
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(dept)}/employees/000042`);
    await page.locator('summary', { hasText: 'Edit details' }).click();
    const firstName = page.getByLabel('First name', { exact: true });
    await firstName.fill('   ');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const status = page.locator('#edit-employee .form-status');
    await page.locator('#edit-employee .form-status.bad').waitFor();
    expect(await status.textContent()).toBe('First name must not be blank.');
    expect(await firstName.getAttribute('aria-invalid')).toBe('true');
    await firstName.fill('Seun');
    expect(await status.textContent()).toBe('');
    expect(await firstName.getAttribute('aria-invalid')).toBeNull();

    // A file that claims to be a PNG and is not: named as the person chose it, no blob name.
    await page.locator('summary', { hasText: 'Upload a photo' }).click();
    await page.setInputFiles('#photo-file', {
      name: 'holiday-notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('These are not the pixels you are looking for.\n'),
    });
    await page.getByRole('button', { name: 'Upload photo' }).click();
    const photoStatus = page.locator('#upload-photo .form-status.bad');
    await photoStatus.waitFor();
    const said = (await photoStatus.textContent())!;
    expect(said).toBe(
      'holiday-notes.png is not a PNG, JPEG, GIF or WebP image: choose a photo in one of those formats.',
    );
    expect(said).not.toMatch(/declared type|photos\/|\.v\d|000042/);
    await page.setInputFiles('#photo-file', []);
    expect(await page.locator('#upload-photo .form-status').textContent()).toBe('');
    await page.context().close();
  });

  it('has an icon, no empty card while loading, a banner as wide as the content, and the search hint', async () => {
    const { page, consoleErrors } = await openAsAdmin(browser, host.baseUrl);
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toBe('favicon.svg');
    // Creating a department checks the name is free without a 404 in the browser's console.
    const made = uniqueDepartment('Fresh');
    await page.getByRole('link', { name: 'Departments', exact: true }).click();
    await page.getByText('New department', { exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill(made);
    await page.getByRole('button', { name: 'Create department' }).click();
    await page.locator('#notice', { hasText: `Created ${made}.` }).waitFor();
    expect(consoleErrors).toEqual([]);

    // While the department loads, only the loading line: no empty employees' card under it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/departments/${seg(dept)}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(dept)}`);
    await page.locator('#department .loading', { hasText: `Loading ${dept}…` }).waitFor();
    expect(await page.locator('#people').count()).toBe(0);
    release();
    await page.locator('#people').waitFor();
    await page.unroute(`**/api/departments/${seg(dept)}`);

    // The error banner lines up with the content below it, at desk and at phone width.
    for (const viewport of [{ width: 1280, height: 900 }, phone]) {
      await page.setViewportSize(viewport);
      await page.goto(`${host.baseUrl}/console/#/departments/${seg(uniqueDepartment('Nowhere'))}`);
      await page.locator('#error').waitFor();
      const banner = (await page.locator('#error').boundingBox())!;
      const content = (await page.locator('#view-title').boundingBox())!;
      expect(banner.x).toBeGreaterThanOrEqual(content.x - 1);
      expect(banner.x + banner.width).toBeLessThanOrEqual(content.x + content.width + 1);
    }
    await page.goto(`${host.baseUrl}/console/#/search`);
    expect(await page.textContent('#app')).toContain('whole last name');
    await page.context().close();
  });
});
