/**
 * Debian's Chromium for the browser tests, driven by playwright-core. Without it at CHROMIUM_PATH
 * (default /usr/bin/chromium) a browser suite is skipped and says so loudly (here and in the run's
 * summary line); with CI set, a missing Chromium fails the run instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { allowConsoleOrigins } from '../../tools/storageCors';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = fs.existsSync(CHROMIUM);

/**
 * `describe` when Chromium is there, else `describe.skip` plus one visible skipped test naming
 * the suite.
 *
 * @throws {Error} when Chromium is missing and CI is set.
 */
export function describeInBrowser(name: string, suite: () => void): void {
  if (haveChromium) {
    describe(name, suite);
    return;
  }
  const line = `BROWSER TESTS LEFT OUT: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH). "${name}" was NOT run.`;
  process.stderr.write(`\n${'!'.repeat(line.length)}\n${line}\n${'!'.repeat(line.length)}\n\n`);
  if (process.env.CI) throw new Error(line);
  describe.skip(name, suite);
  // Keeps the file a visible "skipped" entry in the run's summary even when nothing else is left.
  it.skip(`browser tests (no Chromium at ${CHROMIUM})`, () => undefined);
}

/** Chromium's flags here: no sandbox (the tests run as root), no GPU, no /dev/shm. */
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/** Starts a headless Chromium as the tests run it; each `newContext` is incognito-like. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/**
 * Starts a headless Chromium on a profile of its own in `userDataDir`: a browser as a person runs
 * it, with third-party cookies as a normal window has them (an incognito-like context blocks them).
 */
export function launchChromiumProfile(
  userDataDir: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<BrowserContext> {
  // Chromium's own default blocks third-party cookies; a person's browser may well allow them
  // (and older ones always did), which is the case the app must hold out against.
  const preferences = path.join(userDataDir, 'Default', 'Preferences');
  fs.mkdirSync(path.dirname(preferences), { recursive: true });
  fs.writeFileSync(
    preferences,
    JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }),
  );
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    ...options,
  });
}

/**
 * The console's storage CORS rule on the shared test Azurite (and the `more` accounts' emulators,
 * by connection string), admitting every origin: browser suites run at the same time on ports of
 * their own, and a rule naming one suite's origin would replace another's (the rule is a service
 * property, one per account).
 *
 * @throws {Error} when an emulator refuses the change.
 */
export async function allowEveryConsoleOrigin(more: readonly string[] = []): Promise<void> {
  for (const connection of [process.env.AzureWebJobsStorage!, ...more])
    await allowConsoleOrigins(connection, ['*']);
}
