/**
 * A CPU profile of the emulator during an import (docs/emulator-patch.md): starts Azurite (the
 * project's patched one, or the published one with `--emulator azurite-unpatched`) in memory with
 * Node's `--cpu-prof`, the built host with every function against it, imports `--calls` calls of
 * 1,000 employees (a quarter sharing one last name, as the real-size scenario) into one department,
 * prints each call's time, stops both and prints where the emulator spent its time. `--location
 * DIR` keeps the emulator's data in DIR (a new, empty folder), as `npm start` does in `./.azurite`
 * (LokiJS then saves the whole database every 5 s).
 *
 * ```sh
 * npm run build && node dist/bench/profileImport.js --emulator azurite-unpatched --out /tmp/before
 * node dist/bench/profileImport.js --out /tmp/after
 * ```
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startAzurite } from '../tools/azurite';
import { cpuProfileNodeArgs, describeProfile, PROFILE_FILES } from '../tools/cpuProfile';
import { startBuiltHost } from './builtHost';
import { ScaleApi } from './scale/api';
import { importCalls } from './scale/workload';
import type { BenchEnv } from './types';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      emulator: { type: 'string', default: 'azurite' },
      calls: { type: 'string', default: '10' },
      out: { type: 'string', default: 'cpu-profile' },
      location: { type: 'string' },
    },
    strict: true,
  });
  const emulator = values.emulator;
  if (emulator !== 'azurite' && emulator !== 'azurite-unpatched')
    throw new Error(`--emulator must be azurite or azurite-unpatched, got "${emulator}".`);
  const calls = Number(values.calls);
  const out = path.resolve(values.out);
  const azurite = await startAzurite({
    packageName: emulator,
    nodeArgs: cpuProfileNodeArgs(out, PROFILE_FILES.emulator),
    ...(values.location === undefined ? {} : { location: path.resolve(values.location) }),
    stopGraceMs: 120_000,
  });
  const cleanups: (() => unknown)[] = [];
  // The host helper's only needs from a bench env: where storage is, and what to stop.
  const env = {
    connectionString: azurite.connectionString,
    defer: (cleanup: () => unknown) => void cleanups.push(cleanup),
  } as unknown as BenchEnv;
  try {
    const host = await startBuiltHost(env, 'dist/functions/*.js', {});
    const api = new ScaleApi(host.baseUrl, () => host.output());
    const run = randomBytes(4).toString('hex');
    const dept = `Profile-${run}`;
    await api.call('PUT', `departments/${dept}`, {
      body: { description: 'Profile' },
      expected: [200, 201],
    });
    const times: number[] = [];
    for (const [i, rows] of importCalls(calls * 1000, `Profile${run}`).entries()) {
      const started = Date.now();
      await api.call('POST', `departments/${dept}/employees/import`, { body: { employees: rows } });
      times.push(Date.now() - started);
      process.stdout.write(`call ${i + 1}/${calls}: ${times.at(-1)} ms\n`);
    }
    process.stdout.write(`last/first: ${(times.at(-1)! / times[0]!).toFixed(2)}×\n`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await azurite.stop();
  }
  const file = path.join(out, PROFILE_FILES.emulator);
  process.stdout.write(`\n${emulator} (${file}), self time:\n`);
  for (const line of describeProfile(file, 20)) process.stdout.write(`  ${line}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
