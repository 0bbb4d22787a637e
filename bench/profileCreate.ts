/**
 * Where a single create spends its time (issue 15, item 3): creates `N` employees (default 1000)
 * one by one through the directory service, then the raw transaction of the same entities (employee,
 * email copy, count shard, last-name index entity), against an Azurite child process, and prints
 * both rates. Run it under the CPU profiler:
 *
 * ```sh
 * npm run build && node --cpu-prof --cpu-prof-dir=/tmp/prof dist/bench/profileCreate.js
 * ```
 *
 * Azurite runs in its own process, so the profile holds only the client: `(idle)` is time spent
 * waiting for storage.
 */
import { createDirectory } from '../src/directory';
import { loadConfig } from '../src/config';
import { createStorageClients } from '../src/storage/clients';
import { startAzurite } from '../tools/azurite';
import { benchEmployee, rawCreateOfSameEntities } from './employees';

async function main(): Promise<void> {
  const count = Number(process.env.N ?? 1000);
  const azurite = await startAzurite();
  try {
    const config = loadConfig({ AzureWebJobsStorage: azurite.connectionString });
    const clients = createStorageClients(config.storage, config.retry);
    const directory = createDirectory({ employees: clients.table(`Profile${Date.now()}`) });
    await directory.departments.put('Sales', { description: 'Profile' });
    const raw = clients.table(`ProfileRaw${Date.now()}`);
    await raw.createTable();
    // Both paths once in another department first, so neither side pays for the JIT.
    await directory.departments.put('WarmUp', { description: 'Profile' });
    const warm = new Map<string, string[]>();
    for (let n = 1; n <= 100; n++) {
      await directory.employees.create('WarmUp', benchEmployee(n));
      await raw.submitTransaction(rawCreateOfSameEntities('WarmUp', warm, n, false));
    }

    let started = process.hrtime.bigint();
    for (let n = 1; n <= count; n++) await directory.employees.create('Sales', benchEmployee(n));
    const serviceMs = Number(process.hrtime.bigint() - started) / 1e6;

    started = process.hrtime.bigint();
    const ids = new Map<string, string[]>();
    for (let n = 1; n <= count; n++) {
      await raw.submitTransaction(rawCreateOfSameEntities('Sales', ids, n, false));
    }
    const rawMs = Number(process.hrtime.bigint() - started) / 1e6;
    process.stdout.write(
      `service ${((count / serviceMs) * 1000).toFixed(0)} creates/s, raw transaction ` +
        `${((count / rawMs) * 1000).toFixed(0)}/s, service/raw ${(rawMs / serviceMs).toFixed(2)}\n`,
    );
  } finally {
    await azurite.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
