import fs from 'node:fs';
import type { RunningAzurite } from '../../tools/azurite';
import { STATE_FILE } from './globalSetup';

export default async function globalTeardown(): Promise<void> {
  const azurites = (globalThis as { __AZURITE__?: RunningAzurite[] }).__AZURITE__ ?? [];
  await Promise.all(azurites.map((azurite) => azurite.stop()));
  fs.rmSync(STATE_FILE, { force: true });
}
