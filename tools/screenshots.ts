/**
 * `npm run screenshots`: the README's pictures of the web console, taken again from a running app.
 * It seeds the app first (`npm run seed`, idempotent), then drives Chromium (playwright-core;
 * `CHROMIUM_PATH`, default /usr/bin/chromium) through the console as its users would — the
 * developer sign-in form, then each main view — and writes docs/img/console-*.png.
 *
 *   npm start                      # in one terminal
 *   npm run screenshots            # in another (default http://localhost:7071/api)
 *   npm run screenshots -- --url http://localhost:7080/api --out /tmp/shots --no-seed
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { seedDirectory } from './seed/run';
import { seedPeople } from './seed/people';

type Who = { kind: 'admin' } | { kind: 'employee'; department: string; employeeId: string };

/** One picture: who signs in, where they go, what must be on screen, and the page size. */
interface Shot {
  file: string;
  who: Who;
  hash: string;
  ready: string[];
  viewport: { width: number; height: number };
  fullPage?: boolean;
}

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

/** The most common last name of the sample organisation (a search with several results). */
function commonLastName(): string {
  const counts = new Map<string, number>();
  for (const p of seedPeople()) counts.set(p.lastName, (counts.get(p.lastName) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

function shots(): Shot[] {
  const me: Who = { kind: 'employee', department: 'Engineering', employeeId: '000001' };
  const admin: Who = { kind: 'admin' };
  return [
    {
      file: 'console-departments.png',
      who: admin,
      hash: '#/departments',
      ready: ['#departments-table tbody tr'],
      viewport: DESKTOP,
    },
    {
      file: 'console-department.png',
      who: admin,
      hash: '#/departments/Engineering',
      ready: ['#employees tbody tr', '#employees-more'],
      viewport: DESKTOP,
    },
    {
      file: 'console-employee.png',
      who: me,
      hash: '',
      ready: ['#photo img', '#expenses-table tbody tr', '#hourly canvas', '#heat .day'],
      viewport: DESKTOP,
      fullPage: true,
    },
    {
      file: 'console-phone.png',
      who: me,
      hash: '',
      ready: ['#photo img', '#expenses-table tbody tr'],
      viewport: PHONE,
    },
    {
      file: 'console-search.png',
      who: admin,
      hash: `#/search?lastName=${encodeURIComponent(commonLastName())}`,
      ready: ['#results-list tbody tr'],
      viewport: DESKTOP,
    },
    {
      file: 'console-logs.png',
      who: admin,
      // The last full hour (the current one has only just begun), named in the URL as the view
      // keeps it: no click, and no picture of the hour before the click's answer arrives.
      hash: `#/logs?source=web&hour=${new Date(Date.now() - 3_600_000).toISOString().slice(0, 13)}`,
      ready: ['#log-lines li'],
      viewport: DESKTOP,
    },
    {
      file: 'console-operations.png',
      who: admin,
      hash: '#/operations',
      ready: ['#outbox-summary', '#operations-chart canvas'],
      viewport: DESKTOP,
    },
  ];
}

async function signIn(page: Page, url: string, who: Who): Promise<void> {
  await page.goto(`${url}/console/`);
  await page.waitForSelector('#department option[value]:not([value=""])', { state: 'attached' });
  await page.selectOption('#kind', who.kind);
  if (who.kind === 'employee') {
    await page.selectOption('#department', who.department);
    await page.waitForSelector(`#employee-id option[value="${who.employeeId}"]`, {
      state: 'attached',
    });
    await page.selectOption('#employee-id', who.employeeId);
  }
  await page.click('#sign-in');
  await page.waitForSelector('#view-title');
}

async function take(browser: Browser, url: string, out: string, shot: Shot): Promise<void> {
  const context = await browser.newContext({ viewport: shot.viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  try {
    await signIn(page, url, shot.who);
    if (shot.hash) await page.goto(`${url}/console/${shot.hash}`);
    for (const selector of shot.ready) await page.waitForSelector(selector, { timeout: 30_000 });
    // Images decoded, charts drawn, the spinner gone.
    await page.waitForFunction('[...document.images].every((image) => image.complete)');
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, shot.file), fullPage: shot.fullPage ?? false });
    process.stdout.write(`  ${shot.file}\n`);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, out: { type: 'string' }, 'no-seed': { type: 'boolean' } },
    strict: true,
  });
  const url = (values.url ?? 'http://localhost:7071/api').replace(/\/$/, '');
  const out = path.resolve(values.out ?? path.join(__dirname, '..', 'docs', 'img'));
  fs.mkdirSync(out, { recursive: true });
  if (!values['no-seed']) {
    process.stdout.write(`Seeding ${url} (idempotent) …\n`);
    await seedDirectory(url, (line) => process.stdout.write(`  ${line}\n`));
  }
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath))
    throw new Error(
      `No Chromium at ${executablePath}: install it (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--font-render-hinting=none',
    ],
  });
  process.stdout.write(`Screenshots into ${path.relative(process.cwd(), out) || out}:\n`);
  try {
    for (const shot of shots()) await take(browser, url, out, shot);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
