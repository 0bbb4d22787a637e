/**
 * The console's Operations page in Chromium: an admin sees a backlog made on purpose (a host
 * without index workers: the department's outbox rows stay pending, marked as a cover that could
 * not be stored marks them) and a poison message; a
 * second host drains the backlog and the page, refreshing itself, shows it gone, with the outbox
 * sweep's last run; the poison message is inspected (decoded) and replayed from the page.
 * Screenshots land in test-artifacts/console/ (gitignored).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { sendJsonMessage } from '../../../src/storage/queue';
import { markPending } from '../../../src/indexing/drain/pendingMarkers';
import { describeInBrowser, launchChromium } from '../../support/chromium';
import { PROJECT_ROOT, type RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';
import { send, seg, uniqueDepartment } from '../acceptance/client';
import {
  backlogSettings,
  removeBacklogStorage,
  startDrainingHost,
  startUndrainedHost,
} from './backlog';

const ARTIFACTS = path.join(PROJECT_ROOT, 'test-artifacts', 'console');
const settings = backlogSettings();
const dept = uniqueDepartment('OpsConsole');
let api: RunningHost;
let drainer: RunningHost | undefined;
let browser: Browser;

describeInBrowser('the Operations page in Chromium', () => {
  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const built = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'console/build.mjs')], {
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`Console build failed: ${built.stderr}`);
    api = await startUndrainedHost(settings);
    expect((await send(api.baseUrl, 'PUT', `/departments/${seg(dept)}`, { json: {} })).status).toBe(
      201,
    );
    for (let n = 1; n <= 2; n++) {
      const created = await send(api.baseUrl, 'POST', `/departments/${seg(dept)}/employees`, {
        json: {
          employeeId: `00010${n}`,
          firstName: 'Con',
          lastName: `Sole${n}`,
          email: `con${n}@contoso.com`,
        },
      });
      expect(created.status).toBe(201);
    }
    await markPending(testClients().table(settings.EMPLOYEES_TABLE), dept, 'cover-failed');
    const poison = testClients().queue(`${settings.LOG_QUEUE}-poison`);
    await poison.createIfNotExists();
    await sendJsonMessage(poison, { marker: 'poisoned-in-console-test' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.allSettled([api?.stop(), drainer?.stop()]);
    await removeBacklogStorage(settings);
  });

  async function signInAsAdmin(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
    const page = await context.newPage();
    await page.goto(`${api.baseUrl}/console/`);
    await page.selectOption('#kind', 'admin');
    await page.click('#sign-in');
    await page.getByRole('link', { name: 'Operations' }).click();
    await page.waitForSelector('#operations #outbox-summary');
    return page;
  }

  it('shows a made backlog, then its drain, and replays a poison message', async () => {
    const page = await signInAsAdmin();
    const outbox = page.locator('#outbox-table tbody tr', { hasText: dept });
    await outbox.waitFor();
    expect(await outbox.locator('td').nth(1).textContent()).toBe('2');
    const logPoison = page.locator('#poison-table tbody tr', {
      hasText: `${settings.LOG_QUEUE}-poison`,
    });
    expect(await logPoison.locator('td').nth(1).textContent()).toBe('1');
    await page.locator('#operations-chart canvas').first().waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'operations-backlog.png'), fullPage: true });

    await logPoison.getByRole('button', { name: 'Inspect' }).click();
    await page.waitForSelector('#poison-list');
    // One element per message (a raw message's newlines cannot draw lines of their own).
    const entries = page.locator('#poison-list li.log-entry');
    expect(await entries.count()).toBe(1);
    expect(await entries.first().textContent()).toContain('poisoned-in-console-test');

    drainer = await startDrainingHost(settings);
    // The page refreshes itself: the department leaves the table, the sweep's run appears.
    await page.waitForSelector('#timers-table >> text=sweepIndexOutboxes', { timeout: WAIT_MS });
    await outbox.waitFor({ state: 'detached', timeout: WAIT_MS });
    expect(await page.textContent('#outbox-summary')).toContain(
      '0 departments with changes waiting for the sweep',
    );
    await page.screenshot({ path: path.join(ARTIFACTS, 'operations-drained.png'), fullPage: true });

    // Replay asks first; an empty poison queue offers no Replay at all.
    const emptyPoison = page.locator('#poison-table tbody tr', {
      hasText: `${settings.ARCHIVE_QUEUE}-poison`,
    });
    expect(await emptyPoison.getByRole('button', { name: 'Replay' }).isDisabled()).toBe(true);
    await logPoison.getByRole('button', { name: 'Replay' }).click();
    await logPoison.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('#replay-result').count()).toBe(0);
    await logPoison.getByRole('button', { name: 'Replay' }).click();
    expect(await logPoison.getByRole('alert').textContent()).toBe(
      `Move the message back to ${settings.LOG_QUEUE} to be processed again?`,
    );
    await logPoison.getByRole('button', { name: 'Yes, replay' }).click();
    await page.waitForSelector('#replay-result');
    expect(await page.textContent('#replay-result')).toBe(
      `Moved 1 message back to ${settings.LOG_QUEUE}.`,
    );
    await page.context().close();
  });
});
