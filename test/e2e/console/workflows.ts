/**
 * What a person does in the web console, as scenarios that run in Chromium against either way of
 * serving it: the local host with the developer sign-in (workflows.test.ts) and the app as
 * deployed, behind the imitation of App Service authentication, signing in through Entra ID's
 * stand-in (workflowsAzure.test.ts). Each world says how to sign a person in and how to call the
 * API for setup and checks; the scenarios are the same.
 *
 * - an admin creates a department and an employee with the labelled forms, and the API has them;
 * - a 150-employee department shows "100 of 150 employees" and a control that reaches the rest;
 *   Back returns from the department to the list;
 * - a reader is offered only the department the role opens, in the navigation and the lists;
 * - at phone width (375 px) no view scrolls sideways.
 */
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../../support/chromium';
import { seg, uniqueDepartment, type Reply } from '../acceptance/client';

/** Who signs in to the console. */
export type ConsoleUser = { kind: 'admin' } | { kind: 'reader'; department: string };

/** A way of serving the console, and of reaching its API beside the browser. */
export interface ConsoleWorld {
  /** The API base (`…/api`); the console is at `${baseUrl}/console/`. */
  baseUrl: string;
  /**
   * Signs `user` in on a fresh page (a browser context of its own) and resolves once the first
   * view has its title.
   */
  open(
    browser: Browser,
    user: ConsoleUser,
    viewport?: { width: number; height: number },
  ): Promise<Page>;
  /** Calls the API as an admin (setup and checks). */
  send(method: string, path: string, json?: unknown): Promise<Reply>;
  stop(): Promise<void>;
}

/** Whether the page scrolls sideways (its content wider than the window). */
async function scrollsSideways(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(
    '({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })',
  );
}

/** The scenarios, in a describe block named `name`, over the world `start` makes. */
export function consoleWorkflows(
  name: string,
  start: (departments: { big: string; readable: string; other: string }) => Promise<ConsoleWorld>,
): void {
  describeInBrowser(name, () => {
    const big = uniqueDepartment('Big');
    const readable = uniqueDepartment('Readable');
    const other = uniqueDepartment('Other');
    let world: ConsoleWorld;
    let browser: Browser;

    beforeAll(async () => {
      world = await start({ big, readable, other });
      for (const d of [big, readable, other]) {
        expect(
          (await world.send('PUT', `/departments/${seg(d)}`, { description: `About ${d}` })).status,
        ).toBe(201);
      }
      const employees = Array.from({ length: 150 }, (_, i) => ({
        employeeId: String(i + 1).padStart(6, '0'),
        firstName: ['Amara', 'Jun', 'Lucía', 'Sven', 'Priya'][i % 5]!,
        lastName: `Person${String(i + 1).padStart(3, '0')}`,
        email: `person${i + 1}.${big.replace(/\W/g, '').toLowerCase()}@example.com`,
      }));
      const imported = await world.send('POST', `/departments/${seg(big)}/employees/import`, {
        employees,
      });
      expect(imported.status).toBe(200);
      expect((imported.body as { created: number }).created).toBe(150);
      const one = {
        employeeId: '000007',
        firstName: 'Grace',
        lastName: 'Hopper',
        email: `grace.${readable.replace(/\W/g, '').toLowerCase()}@example.com`,
      };
      expect(
        (await world.send('POST', `/departments/${seg(readable)}/employees`, one)).status,
      ).toBe(201);
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await world?.stop();
    });

    it('lets an admin create a department and an employee with the labelled forms, and the API has them', async () => {
      const page = await world.open(browser, { kind: 'admin' });
      const department = uniqueDepartment('Made');
      await page.getByRole('link', { name: 'Departments', exact: true }).click();
      await page.getByText('New department', { exact: true }).click();
      // Every field is found by its label: a person (or a screen reader) reads the same words.
      await page.getByLabel('Name', { exact: true }).fill(department);
      await page.getByLabel('Description', { exact: true }).fill('Made in the browser');
      await page.getByRole('button', { name: 'Create department' }).click();
      await page.waitForURL(`**/console/#/departments/${seg(department)}`);
      await page.locator('#view-title', { hasText: department }).waitFor();

      await page.getByText('Add an employee', { exact: true }).click();
      await page.getByLabel('Employee id', { exact: true }).fill('000451');
      await page.getByLabel('First name', { exact: true }).fill('Siobhán');
      await page.getByLabel('Last name', { exact: true }).fill("O'Brien");
      await page
        .getByLabel('Email', { exact: true })
        .fill(`siobhan.${department.replace(/\W/g, '').toLowerCase()}@example.com`);
      await page.getByLabel('Age (optional)', { exact: true }).fill('41');
      await page.getByRole('button', { name: 'Add employee' }).click();
      await page.waitForURL(`**/console/#/departments/${seg(department)}/employees/000451`);
      await page.locator('#view-title', { hasText: "Siobhán O'Brien" }).waitFor();

      const made = await world.send('GET', `/departments/${seg(department)}`);
      expect(made.status).toBe(200);
      expect(made.body).toMatchObject({
        name: department,
        description: 'Made in the browser',
        employeeCount: 1,
      });
      const employee = await world.send('GET', `/departments/${seg(department)}/employees/000451`);
      expect(employee.status).toBe(200);
      expect(employee.body).toMatchObject({ firstName: 'Siobhán', lastName: "O'Brien", age: 41 });
      await page.context().close();
    });

    it('shows a 150-employee department as "100 of 150" with a control that reaches the rest, and Back returns to the list', async () => {
      const page = await world.open(browser, { kind: 'admin' });
      await page.getByRole('link', { name: 'Departments', exact: true }).click();
      await page.locator('#departments-count').waitFor();
      const rows = page.locator('#departments-table tbody tr');
      const row = rows.filter({ hasText: big });
      // The list pages too (the test storage holds every test's departments): show more until
      // the department is there.
      while ((await row.count()) === 0) {
        const shown = await rows.count();
        await page.click('#departments-more');
        await page.waitForFunction(
          `document.querySelectorAll('#departments-table tbody tr').length > ${shown}`,
        );
      }
      expect(await row.locator('td.num').textContent()).toBe('150');
      const listUrl = page.url();
      await row.getByRole('link', { name: big }).click();
      await page.waitForURL(`**/console/#/departments/${seg(big)}`);
      const count = page.locator('#employees-count');
      await count.waitFor();
      expect(await count.textContent()).toBe('100 of 150 employees');
      expect(await page.locator('#employees tbody tr').count()).toBe(100);
      await page.getByRole('button', { name: /Show more \(50 left\)/ }).click();
      await page.locator('#employees-count', { hasText: '150 of 150 employees' }).waitFor();
      expect(await page.locator('#employees tbody tr').count()).toBe(150);
      expect(await page.locator('#employees-more').isHidden()).toBe(true);

      await page.goBack();
      await page.waitForURL(listUrl);
      await page.locator('#departments-table').waitFor();
      expect(await page.locator('#view-title').textContent()).toBe('Departments');
      await page.context().close();
    });

    it('offers a reader only the department the role opens', async () => {
      const page = await world.open(browser, { kind: 'reader', department: readable });
      // Home is the one department the reader may open, with its people.
      await page.locator('#employees tbody tr', { hasText: 'Hopper' }).waitFor();
      expect(await page.locator('#view-title').textContent()).toBe(readable);
      const offered = await page
        .locator('a')
        .evaluateAll((links) =>
          links.map(
            (a) =>
              (a as unknown as { getAttribute(n: string): string | null }).getAttribute('href') ??
              '',
          ),
        );
      expect(offered.some((href) => href.includes(seg(other)) || href.includes(seg(big)))).toBe(
        false,
      );
      expect(await page.locator('#nav').textContent()).not.toMatch(/Logs|Operations/);
      await page.context().close();
    });

    it('never scrolls sideways at phone width', async () => {
      const phone = { width: 375, height: 812 };
      const page = await world.open(browser, { kind: 'admin' }, phone);
      for (const hash of [
        '#/departments',
        `#/departments/${seg(big)}`,
        `#/departments/${seg(readable)}/employees/000007`,
        '#/search?lastName=Hopper',
        '#/operations',
        '#/logs',
      ]) {
        await page.goto(`${world.baseUrl}/console/${hash}`);
        await page.locator('#view-title').waitFor();
        await page.waitForLoadState('networkidle');
        const { scrollWidth, clientWidth } = await scrollsSideways(page);
        expect({ hash, scrollWidth }).toEqual({ hash, scrollWidth: clientWidth });
      }
      await page.context().close();
    });
  });
}
