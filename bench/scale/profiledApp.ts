/**
 * `npm run bench:real-size -- --cpu-prof DIR`: the app started here by npm start's launcher (from
 * the build, local host, its own Azurite) with CPU profiles of both processes, stopped with
 * Ctrl-C's path after the scenario so that both profiles are written (tools/cpuProfile.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isListening } from '../../tools/azurite';
import { describeProfile, PROFILE_FILES } from '../../tools/cpuProfile';
import { findProjectRoot, STANDARD_EMULATOR_PORTS } from '../../tools/host/launch';

/** A running profiled app. */
export interface ProfiledApp {
  /** Stops the app and its emulator; resolves with the summary of both profiles. */
  stop(): Promise<string[]>;
}

async function waitForHealth(
  baseUrl: string,
  exited: () => boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('the app exited while starting');
    const ok = await fetch(`${baseUrl}/health`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the app did not answer ${baseUrl}/health within ${timeoutMs / 1000} s`);
}

/**
 * Starts the app on `baseUrl`'s port with profiles written to `dir` (its output to
 * `dir/app.log`).
 *
 * @throws {Error} when the build is missing, a port is taken, or the app does not come up.
 */
export async function startProfiledApp(baseUrl: string, dir: string): Promise<ProfiledApp> {
  const root = findProjectRoot(__dirname);
  const launcher = path.join(root, 'dist', 'tools', 'start.js');
  if (!fs.existsSync(launcher))
    throw new Error(`${launcher} is missing: run "npm run build" first.`);
  const url = new URL(baseUrl);
  if (!['localhost', '127.0.0.1'].includes(url.hostname))
    throw new Error('--cpu-prof starts the app on this machine: --base-url must be localhost.');
  const port = Number(url.port || 80);
  const busy: number[] = [];
  for (const p of [port, ...Object.values(STANDARD_EMULATOR_PORTS)])
    if (await isListening(p)) busy.push(p);
  if (busy.length > 0)
    throw new Error(
      `--cpu-prof starts its own app and emulator, but port ${busy.join(', ')} is in use: stop npm start (and any Azurite) first.`,
    );
  const profileDir = path.resolve(dir);
  fs.mkdirSync(profileDir, { recursive: true });
  for (const file of Object.values(PROFILE_FILES))
    fs.rmSync(path.join(profileDir, file), { force: true });
  const log = fs.openSync(path.join(profileDir, 'app.log'), 'w');
  const child = spawn(
    process.execPath,
    [launcher, '--port', String(port), '--cpu-prof', profileDir],
    {
      cwd: root,
      stdio: ['ignore', log, log],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForHealth(baseUrl, () => child.exitCode !== null, 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    async stop() {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
      await exited;
      clearTimeout(timer);
      fs.closeSync(log);
      const lines: string[] = [];
      for (const [who, file] of Object.entries(PROFILE_FILES)) {
        const full = path.join(profileDir, file);
        if (!fs.existsSync(full)) {
          lines.push(`${who}: no profile written (see ${path.join(profileDir, 'app.log')})`);
          continue;
        }
        lines.push(
          `${who} (${full}), self time:`,
          ...describeProfile(full, 12).map((l) => `  ${l}`),
        );
      }
      return lines;
    },
  };
}
