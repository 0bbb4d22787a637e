/**
 * `npm run azurite`: Azurite in the foreground on the standard ports (10000-10002, or
 * `EMULATOR_PORTS`) with its data in `./.azurite/`, started exactly as `npm start` starts it (same
 * function, same flags: {@link AZURITE_FLAGS}) and recorded as this checkout's emulator. For `func
 * start`, or to keep storage running across `npm start`s, which then reuse it. Ctrl-C stops it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AZURITE_FLAGS, isListening, startAzurite } from './azurite';
import { findProjectRoot } from './host/launch';
import { recordEmulator } from './startup/emulatorOwner';
import { parseStartCommand } from './startup/startOptions';

async function main(): Promise<void> {
  const command = parseStartCommand([], process.env);
  if (command.kind !== 'run') throw new Error(command.kind === 'refused' ? command.message : '');
  const chosen = command.options.emulatorPorts;
  const busy = [];
  for (const port of Object.values(chosen)) if (await isListening(port)) busy.push(port);
  if (busy.length > 0) {
    process.stderr.write(
      `Port ${busy.join(', ')} is already in use: is an emulator running? Stop it first.\n`,
    );
    process.exit(1);
  }
  const location = path.join(findProjectRoot(__dirname), '.azurite');
  fs.mkdirSync(location, { recursive: true });
  const azurite = await startAzurite({ ports: { ...chosen }, location });
  if (azurite.process.pid) recordEmulator(location, azurite.process.pid, chosen);
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
