/**
 * Starting the built local Functions host (`dist/tools/host/cli.js`) for a benchmark case, with
 * only the functions files the case needs, against the counting proxy so its storage traffic is
 * measured. The host is a child process: its CPU work does not share the case's event loop.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BenchEnv } from './types';
import { withoutPlatformMarkers } from '../tools/host/launch';

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const HOST_CLI = path.join(PROJECT_ROOT, 'dist', 'tools', 'host', 'cli.js');

/** A running host. */
export interface BuiltHost {
  /** e.g. `http://127.0.0.1:1234/api`. */
  baseUrl: string;
  /** Stops the host (SIGTERM, SIGKILL after 10 s) and waits for it to exit. */
  stop(): Promise<void>;
  /** The last 20,000 characters the host printed (its error log when a call failed). */
  output(): string;
}

/**
 * Starts the built host on a free port with only `functionsGlob` (relative to the project root,
 * e.g. `dist/functions/archive.js`) loaded; `settings` become its environment. The host is
 * stopped when the case ends at the latest ({@link BenchEnv.defer}).
 *
 * @throws {Error} when the build has no host CLI, or the host exits or stays silent for 30 s.
 */
export async function startBuiltHost(
  env: BenchEnv,
  functionsGlob: string,
  settings: Record<string, string>,
): Promise<BuiltHost> {
  if (!fs.existsSync(HOST_CLI)) {
    throw new Error(
      `${path.relative(PROJECT_ROOT, HOST_CLI)} is missing: run "npm run build" (npm run bench does).`,
    );
  }
  const child = spawn(
    process.execPath,
    [HOST_CLI, '--app-root', PROJECT_ROOT, '--functions', functionsGlob, '--port', '0'],
    {
      cwd: PROJECT_ROOT,
      env: {
        // A bench run is local, whatever markers of an Azure instance the shell carries.
        ...withoutPlatformMarkers(process.env).env,
        ...settings,
        AzureWebJobsStorage: env.connectionString,
        HOST_LOG_LEVEL: 'warning',
        // The benches send principal headers by hand, as a developer does locally.
        TRUST_LOCAL_PRINCIPAL_HEADER: 'true',
        AzureFunctionsWebHost__hostid: `bench-${randomBytes(6).toString('hex')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const stopped = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await stopped;
    clearTimeout(timer);
  };
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The host did not start within 30 s:\n${output}`)),
      30_000,
    );
    const onData = (chunk: Buffer): void => {
      // Keep only the tail: a long run must not grow this string without bound.
      output = (output + chunk.toString('utf8')).slice(-20_000);
      const match = /Host listening on \S+ \(API base (\S+)\)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The host exited (code ${code}) before listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  // Stopped with the case, too: a case that timed out leaves no host (nor its orchestrations and
  // trigger polls) running beside the next one.
  env.defer(stop);
  return { baseUrl, stop, output: () => output };
}
