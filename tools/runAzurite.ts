/**
 * `npm run azurite`: Azurite in the foreground on the standard ports (10000-10002) with its data
 * in `./.azurite/`, started exactly as `npm start` starts it (same function, same flags:
 * {@link AZURITE_FLAGS}). For `func start`, or to keep storage running across `npm start`s, which
 * then reuse it. Ctrl-C stops it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AZURITE_FLAGS, isListening, startAzurite } from './azurite';
import { findProjectRoot, STANDARD_EMULATOR_PORTS } from './host/launch';

async function main(): Promise<void> {
  const ports = Object.values(STANDARD_EMULATOR_PORTS);
  const busy = [];
  for (const port of ports) if (await isListening(port)) busy.push(port);
  if (busy.length > 0) {
    process.stderr.write(
      `Port ${busy.join(', ')} is already in use: is an emulator running? Stop it first.\n`,
    );
    process.exit(1);
  }
  const location = path.join(findProjectRoot(__dirname), '.azurite');
  fs.mkdirSync(location, { recursive: true });
  const azurite = await startAzurite({ ports: { ...STANDARD_EMULATOR_PORTS }, location });
  process.stdout.write(
    `Azurite (${AZURITE_FLAGS.join(' ')}) listening on blob ${azurite.ports.blob}, queue ` +
      `${azurite.ports.queue}, table ${azurite.ports.table}; data in ${location}.\n` +
      'Use AzureWebJobsStorage=UseDevelopmentStorage=true. Press Ctrl+C to stop.\n',
  );
  let stopping = false;
  azurite.process.once('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`Azurite exited unexpectedly (${signal ?? code}).\n`);
    process.exit(code || 1);
  });
  const stop = (): void => {
    stopping = true;
    void azurite.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `npm run azurite failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
