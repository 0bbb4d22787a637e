import fs from 'node:fs';
import { describeDeath, type EmulatorWatch } from './emulatorWatch';
import { STATE_FILE } from './globalSetup';

export default async function globalTeardown(): Promise<void> {
  const watch = (globalThis as { __EMULATORS__?: EmulatorWatch }).__EMULATORS__;
  await watch?.stop();
  fs.rmSync(STATE_FILE, { force: true });
  // Told again here, last: the failures it caused are far above in the log.
  if (watch && watch.deaths.length > 0) {
    process.stderr.write(watch.deaths.map(describeDeath).join(''));
    throw new Error(`${watch.deaths.length} emulator death(s) during the run (see above).`);
  }
}
