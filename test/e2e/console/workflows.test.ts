/**
 * The console's workflows (workflows.ts) on the local host, signing in with the developer form:
 * the department and the person are picked from the lists the form reads from the directory.
 */
import type { Browser, Page } from 'playwright-core';
import { allowEveryConsoleOrigin } from '../../support/chromium';
import { startHost } from '../../support/host';
import { send } from '../acceptance/client';
import { consoleWorkflows, type ConsoleUser } from './workflows';

async function developerSignIn(
  browser: Browser,
  baseUrl: string,
  user: ConsoleUser,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${baseUrl}/console/`);
  await page.getByLabel('Sign in as').selectOption(user.kind);
  if (user.kind === 'reader') {
    await page.waitForSelector(`#department option[value="${user.department}"]`, {
      state: 'attached',
    });
    await page.getByLabel('Department').selectOption(user.department);
  }
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#view-title').waitFor();
  return page;
}

consoleWorkflows('the console workflows on the local host, in Chromium', async () => {
  const host = await startHost();
  await allowEveryConsoleOrigin();
  return {
    baseUrl: host.baseUrl,
    open: (browser, user, viewport) => developerSignIn(browser, host.baseUrl, user, viewport),
    send: (method, path, json) =>
      send(host.baseUrl, method, path, json === undefined ? {} : { json }),
    stop: () => host.stop(),
  };
});
