/**
 * Every action of the console ends with the view showing the stored truth, without a reload
 * (issue 46, console/settle.ts): the view is drawn again from the API where the thing now lives,
 * with the action's message above it, and offers only what still applies.
 * - edit: the card shows the new email and age; make manager: "Make manager" is gone and the card
 *   says the role;
 * - move: the page is the card in the target department;
 * - archive: the department's list without them, its count down; their old link says they are gone
 *   and offers no action;
 * - department archive: the list empty, the count 0, "Archive department" no longer offered.
 * None of it leaves a 404 in the browser's console (no existence probe that fails).
 */
import type { Browser } from 'playwright-core';
import { allowEveryConsoleOrigin, describeInBrowser, launchChromium } from '../../support/chromium';
import { startHost, type RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';
import { callerOf, seg, uniqueDepartment } from '../acceptance/client';
import { openAsAdmin } from './consolePage';

let host: RunningHost;
let browser: Browser;

describeInBrowser('the console after an action, in Chromium', () => {
  beforeAll(async () => {
    host = await startHost();
    await allowEveryConsoleOrigin();
    // As after seeding: the expenses table exists (before any claim at all, the API's expenses
    // SAS answers 404 TableNotFound, which the page shows as "no claims yet").
    await testClients().table('EmployeeExpenses').createTable();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  const api = callerOf(() => host.baseUrl);

  it('shows the edit, the manager, the move and the archive as stored, each without a reload', async () => {
    const from = uniqueDepartment('Work');
    const to = uniqueDepartment('Moved');
    for (const d of [from, to])
      expect((await api('PUT', `/departments/${seg(d)}`, {})).status).toBe(201);
    const path = `/departments/${seg(from)}/employees`;
    for (const [n, first] of [
      [1, 'Kwame'],
      [2, 'Mei'],
    ] as const) {
      const made = await api('POST', path, {
        employeeId: `00000${n}`,
        firstName: first,
        lastName: 'Mensah',
        email: `${first.toLowerCase()}.${Date.now()}@example.com`,
        age: 30,
      });
      expect(made.status).toBe(201);
    }
    const { page, consoleErrors, sameDocument } = await openAsAdmin(browser, host.baseUrl);
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(from)}/employees/000001`);
    await page.locator('#view-title', { hasText: 'Kwame Mensah' }).waitFor();
    const notice = (text: string) => page.locator('#notice', { hasText: text }).waitFor();
    const fact = async (name: string) =>
      page
        .locator('#employee-card dt', { hasText: name })
        .locator('xpath=following-sibling::dd[1]');

    // Edit: every field the card shows, as the API now has it.
    const email = `kwame.owusu.${Date.now()}@example.com`;
    await page.locator('summary', { hasText: 'Edit details' }).click();
    await page.getByLabel('Last name', { exact: true }).fill('Mensah-Owusu');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Age (empty: not given)').fill('31');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await notice('Saved the details of Kwame Mensah-Owusu.');
    await page.locator('#view-title', { hasText: 'Kwame Mensah-Owusu' }).waitFor();
    expect(await (await fact('Email')).textContent()).toBe(email);
    expect(await (await fact('Age')).textContent()).toBe('31');
    expect((await api('GET', `${path}/000001`)).body).toMatchObject({ email, age: 31 });

    // A review and an expense: the card's sections read again.
    await page.locator('summary', { hasText: 'Write a review' }).click();
    await page.getByLabel('Year', { exact: true }).fill('2025');
    await page.getByLabel('Manager rating (0–10)').fill('8.5');
    await page.getByLabel('Peer rating (0–10)').fill('9');
    await page.getByLabel('Comments').fill('Calm in every storm.');
    await page.getByRole('button', { name: 'Save review' }).click();
    await notice('Saved the review of 2025.');
    await page.locator('#reviews-table', { hasText: 'Calm in every storm.' }).waitFor();
    await page.locator('summary', { hasText: 'Add an expense' }).click();
    await page.getByLabel('Amount', { exact: true }).fill('42.50');
    await page.getByLabel('Currency', { exact: true }).selectOption('GBP');
    await page.getByLabel('Description', { exact: true }).fill('Train to Leeds');
    await page.getByRole('button', { name: 'Add expense' }).click();
    await notice('Added the expense.');
    await page.locator('#expenses-table tbody tr', { hasText: 'Train to Leeds' }).waitFor();

    // Make manager: the card says the role, and no longer offers it.
    await page.locator('summary', { hasText: 'Make manager' }).click();
    await page.getByRole('button', { name: 'Make manager' }).click();
    await notice(`Kwame Mensah-Owusu now manages ${from}.`);
    expect(await page.locator('#employee-role').textContent()).toBe(`Manager of ${from}`);
    expect(await page.locator('summary', { hasText: 'Make manager' }).count()).toBe(0);
    expect((await api('GET', `/departments/${seg(from)}`)).body).toMatchObject({
      manager: { employeeId: '000001', lastName: 'Mensah-Owusu' },
    });

    // Move: the page becomes the card in the target department.
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(from)}/employees/000002`);
    await page.locator('#view-title', { hasText: 'Mei Mensah' }).waitFor();
    await page.locator('summary', { hasText: 'Move to another department' }).click();
    await page.waitForSelector(`#move-to option[value="${to}"]`, { state: 'attached' });
    await page.getByLabel('Move to', { exact: true }).selectOption(to);
    await page.getByRole('button', { name: 'Move employee' }).click();
    await page
      .locator('#notice', { hasText: `Moved Mei Mensah to ${to}.` })
      .waitFor({ timeout: WAIT_MS });
    await page.waitForURL(`**/console/#/departments/${seg(to)}/employees/000002`);
    await page.locator('#employee-card').waitFor();
    expect(await (await fact('Department')).textContent()).toBe(to);
    expect((await api('GET', `/departments/${seg(to)}/employees/000002`)).status).toBe(200);

    // Archive: the department without them; their card's link says they are gone, with no action.
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(from)}/employees/000001`);
    await page.locator('#view-title', { hasText: 'Kwame Mensah-Owusu' }).waitFor();
    await page.locator('summary', { hasText: 'Archive' }).click();
    await page.getByLabel('Yes, archive Kwame Mensah-Owusu').check();
    await page.getByRole('button', { name: 'Archive employee' }).click();
    await page
      .locator('#notice', {
        hasText: 'Kwame Mensah-Owusu is archived and no longer in the directory.',
      })
      .waitFor({ timeout: WAIT_MS });
    await page.waitForURL(`**/console/#/departments/${seg(from)}`);
    await page.locator('#people', { hasText: `Nobody works in ${from} yet.` }).waitFor();
    expect(await page.locator('#department-count').textContent()).toBe('0');
    expect((await api('GET', `${path}/000001`)).status).toBe(404);
    expect(await sameDocument()).toBe(true);
    expect(consoleErrors.filter((e) => /\b404\b/.test(e))).toEqual([]);

    await page.goBack();
    await page.locator('#employee-gone').waitFor();
    expect(await page.locator('#view-title').textContent()).toBe('Not in the directory');
    expect(await page.locator('#card details, #card form').count()).toBe(0);
    await page.context().close();
  });

  it('shows an archived department empty, with nothing left to archive, without a reload', async () => {
    const doomed = uniqueDepartment('Doomed');
    expect((await api('PUT', `/departments/${seg(doomed)}`, {})).status).toBe(201);
    const imported = await api('POST', `/departments/${seg(doomed)}/employees/import`, {
      employees: [1, 2, 3].map((n) => ({
        employeeId: `00000${n}`,
        firstName: 'Temp',
        lastName: `Worker${n}`,
        email: `temp${n}.${doomed.replace(/\W/g, '').toLowerCase()}@example.com`,
      })),
    });
    expect((imported.body as { created: number }).created).toBe(3);
    const { page, consoleErrors, sameDocument } = await openAsAdmin(browser, host.baseUrl);
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(doomed)}`);
    await page.locator('#employees-count', { hasText: '3 of 3 employees' }).waitFor();
    await page.locator('summary', { hasText: 'Archive department' }).click();
    await page.getByLabel(`Type “${doomed}” to confirm`).fill('wrong');
    await page.getByRole('button', { name: 'Archive department' }).click();
    await page.locator('#archive-department .form-status.bad').waitFor();
    await page.getByLabel(`Type “${doomed}” to confirm`).fill(doomed);
    await page.getByRole('button', { name: 'Archive department' }).click();
    // The orchestration's progress shows while it runs…
    await page.locator('#archive-department-progress .orchestration').waitFor();
    // …then the department as stored: nobody left, count 0, nothing to archive.
    await page
      .locator('#notice', { hasText: `Archived 3 employees of ${doomed}` })
      .waitFor({ timeout: WAIT_MS });
    await page.locator('#people', { hasText: `Nobody works in ${doomed} yet.` }).waitFor();
    expect(await page.locator('#department-count').textContent()).toBe('0');
    expect(await page.locator('summary', { hasText: 'Archive department' }).count()).toBe(0);
    expect(await sameDocument()).toBe(true);
    const gone = await api('GET', `/departments/${seg(doomed)}`);
    expect((gone.body as { employeeCount: number }).employeeCount).toBe(0);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
  it('shows what is stored when someone changed the employee meanwhile, and says the edit was not saved', async () => {
    const dept = uniqueDepartment('Stale');
    expect((await api('PUT', `/departments/${seg(dept)}`, {})).status).toBe(201);
    const path = `/departments/${seg(dept)}/employees`;
    const body = {
      employeeId: '000001',
      firstName: 'Ines',
      lastName: 'Duarte',
      email: `ines.${Date.now()}@example.com`,
    };
    expect((await api('POST', path, body)).status).toBe(201);
    const { page } = await openAsAdmin(browser, host.baseUrl);
    await page.goto(`${host.baseUrl}/console/#/departments/${seg(dept)}/employees/000001`);
    await page.locator('#view-title', { hasText: 'Ines Duarte' }).waitFor();
    await page.locator('summary', { hasText: 'Edit details' }).click();
    await page.getByLabel('First name', { exact: true }).fill('Inês');
    // Someone else renames her while the form is open.
    expect((await api('PATCH', `${path}/000001`, { lastName: 'Duarte-Silva' })).status).toBe(200);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#notice', { hasText: 'Someone changed this employee meanwhile' }).waitFor();
    await page.locator('#view-title', { hasText: 'Ines Duarte-Silva' }).waitFor();
    expect((await api('GET', `${path}/000001`)).body).toMatchObject({
      firstName: 'Ines',
      lastName: 'Duarte-Silva',
    });
    await page.context().close();
  });
});
