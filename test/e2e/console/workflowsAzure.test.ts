/**
 * The console's workflows (workflows.ts) on the app as deployed: the Flex Consumption environment
 * behind the imitation of App Service authentication (test/support/azureMode.ts). The person
 * signs in as a browser does there: `/.auth/login/aad`, the test issuer's page (Entra ID's
 * stand-in), and back to the console, which asks `GET /api/me` who it is.
 */
import type { Browser, Page } from 'playwright-core';
import { directoryReaderRole } from '../../../src/identity/roles';
import { allowEveryConsoleOrigin } from '../../support/chromium';
import { startAzureMode, type AzureMode } from '../../support/azureMode';
import { bearerTransport, send } from '../acceptance/client';
import { consoleWorkflows, type ConsoleUser } from './workflows';

const ADMIN_LABEL = 'Ada Admin — DirectoryAdmin';
const readerLabel = (department: string): string => `Rob Reader — DirectoryReader:${department}`;

async function appServiceSignIn(
  azure: AzureMode,
  browser: Browser,
  user: ConsoleUser,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  // A context of its own per person: App Service's session cookie is per browser.
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${azure.baseUrl}/console/`);
  await page.getByRole('link', { name: 'Sign in with Microsoft' }).click();
  const label = user.kind === 'admin' ? ADMIN_LABEL : readerLabel(user.department);
  await page.getByRole('button', { name: label }).click();
  await page.locator('#view-title').waitFor();
  return page;
}

consoleWorkflows(
  'the console workflows on the app as deployed (Azure mode), in Chromium',
  async ({ readable }) => {
    const azure = await startAzureMode({
      users: [
        {
          label: ADMIN_LABEL,
          claims: {
            oid: '00000000-0000-4000-8000-00000000aa01',
            name: 'Ada Admin',
            roles: ['DirectoryAdmin'],
          },
        },
        {
          label: readerLabel(readable),
          claims: {
            oid: '00000000-0000-4000-8000-00000000dd01',
            name: 'Rob Reader',
            roles: [directoryReaderRole(readable)],
          },
        },
      ],
    });
    await allowEveryConsoleOrigin();
    const transport = bearerTransport(azure);
    return {
      baseUrl: azure.baseUrl,
      open: (browser, user, viewport) => appServiceSignIn(azure, browser, user, viewport),
      send: (method, path, json) =>
        send(azure.baseUrl, method, path, { transport, ...(json === undefined ? {} : { json }) }),
      stop: () => azure.stop(),
    };
  },
);
