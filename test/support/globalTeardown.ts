import fs from 'node:fs';
import type { RunningAzurite } from '../../tools/azurite';
import { STATE_FILE } from './globalSetup';

export default async function globalTeardown(): Promise<void> {
  const azurite = (globalThis as { __AZURITE__?: RunningAzurite }).__AZURITE__;
  await azurite?.stop();
  fs.rmSync(STATE_FILE, { force: true });
}
