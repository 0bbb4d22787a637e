/**
 * A console page for the browser tests that drive the admin's views: signed in through the
 * developer sign-in (keyboard only), with every message the browser logs as an error collected
 * (a 404 of an existence probe shows there as "Failed to load resource"), and a mark set in the
 * page so a test can tell a redraw from a reload (a reload clears it).
 */
import type { Browser, Page } from 'playwright-core';

/** A signed-in page and the errors its console logged. */
export interface ConsolePage {
  page: Page;
  consoleErrors: string[];
  /** Whether the page is still the one loaded at sign-in (never reloaded since). */
  sameDocument(): Promise<boolean>;
}

/** Signs in as an admin on a fresh page of `baseUrl`'s console. */
export async function openAsAdmin(
  browser: Browser,
  baseUrl: string,
  viewport = { width: 1280, height: 900 },
): Promise<ConsolePage> {
  const page = await (await browser.newContext({ viewport })).newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error')
      consoleErrors.push(`${message.text()} ${message.location().url}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${baseUrl}/console/`);
  await page.selectOption('#kind', 'admin');
  await page.focus('#sign-in');
  await page.keyboard.press('Enter');
  await page.locator('#view-title').waitFor();
  await page.evaluate('window.__signedInDocument = true');
  return {
    page,
    consoleErrors,
    sameDocument: async () => (await page.evaluate('window.__signedInDocument === true')) === true,
  };
}

/** The page's width beyond the window (0: nothing scrolls sideways). */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
}
