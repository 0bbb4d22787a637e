/**
 * `npm start`'s storage step: the configured account, this checkout's running emulator, or an
 * Azurite started here with its data in `./.azurite/` — never another checkout's emulator unless
 * asked (`--reuse-emulator`), and never one that refuses the SDKs' API version. Sets
 * `AzureWebJobsStorage` for the host, and CORS for the console on an emulator.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  azuriteConnectionString,
  isListening,
  probeEmulator,
  startAzurite,
  type AzuritePorts,
  type RunningAzurite,
} from '../azurite';
import { cpuProfileNodeArgs, PROFILE_FILES } from '../cpuProfile';
import { planStorage, refusedEmulatorMessage } from '../host/launch';
import { describeError } from '../host/log';
import { allowConsoleOrigins, localOrigins } from '../storageCors';
import { allowConsoleOnDataEmulators } from './dataAccountsCors';
import { isOwnEmulator, portHolder, recordEmulator } from './emulatorOwner';
import { startFaultProxy } from '../faultProxy/faultProxy';
import { describeTargets, scaledTargets } from '../targets/azureTargets';
import { TargetsLimiter } from '../targets/targetsLimiter';

/** A condition the user can fix; printed without a stack trace. */
export class LaunchError extends Error {}

/** The storage a local run got, what to print about it, and how to stop what was started. */
export interface LocalStorage {
  /** Azurite started here (stopped with the run), if any. */
  azurite?: RunningAzurite;
  /** What the banner says: the storage, then (for an emulator) its CORS and endpoints. */
  lines: string[];
  /** The emulator's ports, when the storage is the emulator. */
  emulatorPorts?: AzuritePorts;
  stop(): Promise<void>;
}

/** What the storage step needs from the command line. */
export interface StorageRequest {
  root: string;
  ports: AzuritePorts;
  reuse: boolean;
  /** The API's port: the console's origins for CORS. */
  apiPort: number;
  /** Where CPU profiles go (`--cpu-prof`), if anywhere. */
  profileDir?: string;
}

/**
 * Chooses and, if needed, starts storage; sets `env.AzureWebJobsStorage`.
 *
 * @throws {LaunchError} when the ports are taken by something else, or the emulator found refuses.
 */
export async function prepareLocalStorage(
  request: StorageRequest,
  env: NodeJS.ProcessEnv,
): Promise<LocalStorage> {
  const { ports, root } = request;
  const location = path.join(root, '.azurite');
  const listening = {
    blob: await isListening(ports.blob),
    queue: await isListening(ports.queue),
    table: await isListening(ports.table),
  };
  const own = isOwnEmulator(location, ports);
  const plan = planStorage(env, listening, { own, reuse: request.reuse });
  const range = `${ports.blob}, ${ports.queue} and ${ports.table}`;
  let azurite: RunningAzurite | undefined;
  let line: string;
  let connectionString: string;
  switch (plan.kind) {
    case 'configured':
      return { lines: [`Storage: configured: ${plan.description}`], stop: async () => {} };
    case 'reuseEmulator': {
      connectionString = azuriteConnectionString(ports);
      const probe = await probeEmulator(connectionString);
      if (probe.kind !== 'ok') throw new LaunchError(refusedEmulatorMessage(probe));
      if (request.profileDir)
        process.stderr.write('--cpu-prof: the emulator already running is not profiled.\n');
      line = `the emulator already listening on ${range} (${own ? "this checkout's" : 'reused on request'})`;
      break;
    }
    case 'startEmulator':
      fs.mkdirSync(location, { recursive: true });
      azurite = await startAzurite({
        ports: { ...ports },
        location,
        detached: true,
        ...(request.profileDir && {
          nodeArgs: cpuProfileNodeArgs(request.profileDir, PROFILE_FILES.emulator),
          // Closing, then writing a long run's profile, takes more than the usual few seconds.
          stopGraceMs: 120_000,
        }),
      });
      if (azurite.process.pid) recordEmulator(location, azurite.process.pid, ports);
      connectionString = azurite.connectionString;
      line = `Azurite, started here (data in ${path.relative(process.cwd(), location) || location})`;
      break;
    case 'portsBusy':
      throw new LaunchError(
        `Something listens on port ${plan.busy.map((s) => ports[s]).join(' and ')} but not on all of ` +
          `${range}, so it is not a storage emulator to reuse: stop it, pick other ports ` +
          '(--emulator-ports 20000, or EMULATOR_PORTS), or set AzureWebJobsStorage to an account.',
      );
    case 'portsHeld':
      throw new LaunchError(heldMessage(ports, range));
  }
  env.AzureWebJobsStorage = connectionString;
  const stop = async (): Promise<void> => {
    await azurite?.stop();
  };
  try {
    await allowConsoleOrigins(connectionString, localOrigins(request.apiPort));
  } catch (error) {
    await stop();
    throw new LaunchError(
      `Could not set CORS on the emulator for the web console: ${describeError(error)}`,
    );
  }
  const lines = [
    `Storage: ${line}`,
    `  CORS:    blob and table admit ${localOrigins(request.apiPort).join(' and ')} (the web console)`,
    ...(await allowConsoleOnDataEmulators(env, request.apiPort)),
    `  Blob:    http://127.0.0.1:${ports.blob}/devstoreaccount1`,
    `  Queue:   http://127.0.0.1:${ports.queue}/devstoreaccount1`,
    `  Table:   http://127.0.0.1:${ports.table}/devstoreaccount1`,
  ];
  return { ...(azurite ? { azurite } : {}), lines, stop, emulatorPorts: ports };
}

/**
 * Puts the targets front (the fault proxy holding Azure's targets ÷ `factor`) between the app and
 * the emulator: `env.AzureWebJobsStorage` then names the front.
 *
 * @throws {LaunchError} when the storage is not the emulator (a real account has its own).
 */
export async function behindTargets(
  storage: LocalStorage,
  factor: number,
  env: NodeJS.ProcessEnv,
): Promise<LocalStorage> {
  if (!storage.emulatorPorts)
    throw new LaunchError('--targets fronts the local emulator; a storage account has its own.');
  const targets = scaledTargets(factor);
  const front = await startFaultProxy({
    target: storage.emulatorPorts,
    targets: new TargetsLimiter(targets),
  });
  env.AzureWebJobsStorage = front.connectionString;
  const [first, second] = describeTargets(targets, factor);
  return {
    ...storage,
    lines: [
      ...storage.lines,
      `  Targets: ${first}`,
      `           ${second}`,
      `           (the app talks to the front: blob ${front.ports.blob}, queue ${front.ports.queue}, table ${front.ports.table})`,
    ],
    stop: async () => {
      await front.stop();
      await storage.stop();
    },
  };
}

function heldMessage(ports: AzuritePorts, range: string): string {
  const holder = portHolder(ports.blob);
  const who = holder ? `process ${holder.pid} (${holder.command})` : 'another process';
  return (
    `Ports ${range} are held by ${who}, not by this checkout's emulator (.azurite/), so its data ` +
    "would not be this checkout's. Stop it, pick other ports (npm start -- --emulator-ports " +
    '20000, or EMULATOR_PORTS=20000), or share it on purpose with --reuse-emulator.'
  );
}
