/**
 * Starts one in-memory Azurite on free ports for the whole run. Its connection string reaches the
 * test workers through the environment (workers are spawned after this runs). Each test then
 * creates its own uniquely named tables, queues and containers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dataEmulatorAccount } from '../../tools/azurite';
import { EmulatorWatch } from './emulatorWatch';

export const STATE_FILE = path.join(os.tmpdir(), `table-patterns-jest-${process.pid}.json`);

/** What the setup reads of jest's global config. */
interface SelectedProjects {
  /** `--selectProjects` (`npm run test:unit` and friends); absent: every project. */
  selectProjects?: string[];
}

export default async function globalSetup(globalConfig: SelectedProjects = {}): Promise<void> {
  // The unit suite touches no storage (`npm run test:unit`): no emulator, so it starts at once, and
  // a unit test that reaches for storage fails there instead of passing quietly.
  const projects = globalConfig.selectProjects ?? [];
  if (projects.length > 0 && projects.every((name) => name === 'unit')) return;
  // The home account, and two data accounts of their own (each its own process and ports) for
  // the tests that spread data over accounts (docs/accounts.md): they set DATA_ACCOUNTS to
  // TEST_DATA1,TEST_DATA2 themselves; every other test runs on the home account alone.
  const watch = new EmulatorWatch();
  (globalThis as { __EMULATORS__?: EmulatorWatch }).__EMULATORS__ = watch;
  const [azurite, data1, data2] = await Promise.all([
    watch.start('home'),
    watch.start('data1', { account: dataEmulatorAccount(1) }),
    watch.start('data2', { account: dataEmulatorAccount(2) }),
  ]);
  process.env.AzureWebJobsStorage = azurite.connectionString;
  process.env.TEST_AZURITE_PORTS = JSON.stringify(azurite.ports);
  process.env.TEST_DATA1 = data1.connectionString;
  process.env.TEST_DATA2 = data2.connectionString;
  fs.writeFileSync(
    STATE_FILE,
    JSON.stringify({ pids: [azurite, data1, data2].map((a) => a.process.pid) }),
  );
}
