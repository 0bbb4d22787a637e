/**
 * Where a single create spends its time (issue 15, item 3): creates `N` employees (default 1000)
 * one by one through the directory service, then the raw transaction of the same employee + email
 * copy, against an Azurite child process, and prints both rates. Run it under the CPU profiler:
 *
 * ```sh
 * npm run build && node --cpu-prof --cpu-prof-dir=/tmp/prof dist/bench/profileCreate.js
 * ```
 *
 * Azurite runs in its own process, so the profile holds only the client: `(idle)` is time spent
 * waiting for storage.
 */
import { createDirectory } from '../src/directory/directory';
import { emailCopyEntity, employeeEntity } from '../src/directory/employeeEntity';
import { loadConfig } from '../src/config';
import { createStorageClients } from '../src/storage/clients';
import { startAzurite } from '../tools/azurite';
import { benchEmployee } from './employees';

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

    let started = process.hrtime.bigint();
    for (let n = 1; n <= count; n++) await directory.employees.create('Sales', benchEmployee(n));
    const serviceMs = Number(process.hrtime.bigint() - started) / 1e6;

    started = process.hrtime.bigint();
    for (let n = 1; n <= count; n++) {
      const primary = employeeEntity('Sales', benchEmployee(n), {
        isManager: false,
        writeId: 'raw',
      });
      await raw.submitTransaction([
        ['create', primary],
        ['create', emailCopyEntity(primary)],
      ]);
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
