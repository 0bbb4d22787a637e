/**
 * The decisions `npm start` makes before anything runs (pure, so they are tested without
 * starting processes): which storage to use, whether Azure Functions Core Tools are there, and
 * (with tools/host/cli.ts) whether hand-sent principal headers are believed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AZURE_PLATFORM_MARKERS } from '../product';
import { parseConnectionString } from './connectionString';
import { HOST_KEY_HEADER, newSecret, type HostAccess } from './http/hostKey';
import { isLoopbackHostname, parseHost } from './http/requestGuard';

/** The emulator's standard ports, as `UseDevelopmentStorage=true` expects them. */
export const STANDARD_EMULATOR_PORTS = { blob: 10000, queue: 10001, table: 10002 } as const;

type Service = keyof typeof STANDARD_EMULATOR_PORTS;

/**
 * True for `UseDevelopmentStorage=true` and for the development account on the standard local
 * ports: storage the launcher may start (or reuse) itself.
 */
export function isStandardEmulator(connectionString: string): boolean {
  const parts = parseConnectionString(connectionString);
  if (parts.get('accountname') !== 'devstoreaccount1') return false;
  return (Object.keys(STANDARD_EMULATOR_PORTS) as Service[]).every((service) => {
    const endpoint = parts.get(`${service}endpoint`);
    if (!endpoint) return false;
    try {
      const url = new URL(endpoint);
      const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
      return loopback && Number(url.port) === STANDARD_EMULATOR_PORTS[service];
    } catch {
      return false;
    }
  });
}

/**
 * Where the local host gets storage: a configured account, a running emulator to reuse, one to
 * start, or busy ports.
 */
export type StoragePlan =
  | { kind: 'configured'; description: string }
  | { kind: 'reuseEmulator' }
  | { kind: 'startEmulator' }
  | { kind: 'portsBusy'; busy: Service[] }
  | { kind: 'portsHeld' };

/**
 * Chooses the storage for `npm start`: a configured account as is; for the emulator (or
 * nothing configured), the emulator already listening on the emulator ports when it is this
 * checkout's own (or `reuse` says any will do), else an embedded one.
 */
export function planStorage(
  env: Record<string, string | undefined>,
  listening: Record<Service, boolean>,
  emulator: { own: boolean; reuse: boolean },
): StoragePlan {
  const connection = env.AzureWebJobsStorage?.trim();
  if (connection && !isStandardEmulator(connection)) {
    const account = parseConnectionString(connection).get('accountname') ?? 'unknown account';
    return { kind: 'configured', description: `AzureWebJobsStorage (account ${account})` };
  }
  if (!connection && env.AzureWebJobsStorage__accountName?.trim()) {
    return {
      kind: 'configured',
      description: `managed identity (account ${env.AzureWebJobsStorage__accountName.trim()})`,
    };
  }
  const services = Object.keys(STANDARD_EMULATOR_PORTS) as Service[];
  const busy = services.filter((service) => listening[service]);
  if (busy.length === services.length) {
    return emulator.own || emulator.reuse ? { kind: 'reuseEmulator' } : { kind: 'portsHeld' };
  }
  if (busy.length === 0) return { kind: 'startEmulator' };
  return { kind: 'portsBusy', busy };
}

/** The first line's first sentence of an error message (Azurite's run on for a paragraph). */
function firstSentence(message: string): string {
  const line = message.split('\n')[0] ?? '';
  return /^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
}

/** What the launcher says about an emulator on 10000-10002 it will not use. */
export function refusedEmulatorMessage(probe: {
  kind: 'apiVersionRefused' | 'failed';
  service: string;
  message: string;
}): string {
  if (probe.kind === 'apiVersionRefused') {
    return (
      `The storage emulator already listening on 10000-10002 refuses the API version this app's ` +
      `Azure SDKs send (${probe.service}: ${firstSentence(probe.message)}). It is an Azurite started ` +
      'without --skipApiVersionCheck (or an older one), and every blob and queue call would fail. ' +
      'Stop it, then run `npm start` again (it starts its own Azurite), or restart it with ' +
      '`npm run azurite`, which passes the flags the app needs.'
    );
  }
  return (
    `Something listens on 10000-10002 but does not answer like a storage emulator ` +
    `(${probe.service}: ${firstSentence(probe.message)}). Stop it, or set AzureWebJobsStorage to a storage account.`
  );
}

/**
 * The folder holding package.json, at or above `from`.
 *
 * @throws {Error} when there is none.
 */
export function findProjectRoot(from: string): string {
  let directory = from;
  while (!fs.existsSync(path.join(directory, 'package.json'))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error('package.json not found above ' + from);
    directory = parent;
  }
  return directory;
}

/** The path of an executable on PATH (`func`, or `func.cmd`/`func.exe` on Windows), if any. */
export function findOnPath(
  command: string,
  pathVariable: string | undefined,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const names = platform === 'win32' ? [`${command}.cmd`, `${command}.exe`, command] : [command];
  for (const directory of (pathVariable ?? '').split(path.delimiter)) {
    if (!directory) continue;
    for (const name of names) {
      const candidate = path.join(directory, name);
      try {
        fs.accessSync(candidate, platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * The environment a local run starts from: a copy of `env` without the variables by which the app
 * recognises an Azure instance (src/config/index.ts `AZURE_PLATFORM_MARKERS`). A local run is never
 * an Azure instance, but a shell may carry one of them (a dev container sets `CONTAINER_NAME`);
 * left in place, the app would fail closed and answer every protected route 401.
 *
 * @returns the cleaned copy and the names it removed (to say so).
 */
export function withoutPlatformMarkers(env: NodeJS.ProcessEnv): {
  env: NodeJS.ProcessEnv;
  removed: string[];
} {
  const removed = AZURE_PLATFORM_MARKERS.filter((name) => env[name] !== undefined);
  const cleaned = { ...env };
  for (const name of removed) delete cleaned[name];
  return { env: cleaned, removed };
}

/**
 * True when a `--listen` address is reachable from this machine only: none given (the default
 * 127.0.0.1), `localhost`, 127.0.0.0/8 or `::1`. A name that merely starts with `127.` is not.
 */
export function isLoopbackListenAddress(address: string | undefined): boolean {
  if (address === undefined) return true;
  const hostname = parseHost(address)?.hostname;
  return hostname !== undefined && isLoopbackHostname(hostname);
}

/** What {@link principalTrustFor} decided: the setting to run with, and what to tell the user. */
export interface PrincipalTrust {
  /** The value for `TRUST_LOCAL_PRINCIPAL_HEADER` (undefined: leave it unset). */
  setting: string | undefined;
  /** A line for stderr, if any: why hand-sent principals are not believed, or a loud warning. */
  message?: string;
}

/**
 * Whether a local run believes hand-sent `x-ms-client-principal` headers
 * (`TRUST_LOCAL_PRINCIPAL_HEADER`). On loopback the setting stays as configured (`loopbackDefault`
 * when unset: `npm start` believes them). On any other address anyone on the network could send
 * one, so they are never believed — even when local.settings.json or the environment says
 * `true` — unless `--trust-principal-headers` was given, which comes with a warning.
 *
 * @param options.setting - the configured value (environment, else local.settings.json).
 */
export function principalTrustFor(options: {
  listenAddress: string | undefined;
  trustFlag: boolean;
  setting: string | undefined;
  loopbackDefault?: string;
}): PrincipalTrust {
  const { listenAddress, trustFlag, setting } = options;
  if (isLoopbackListenAddress(listenAddress))
    return { setting: trustFlag ? 'true' : (setting ?? options.loopbackDefault) };
  if (trustFlag) {
    return {
      setting: 'true',
      message:
        `WARNING: --trust-principal-headers while listening on ${listenAddress}: this host believes ` +
        'any x-ms-client-principal header, so anyone who can reach it can act as any user, ' +
        'DirectoryAdmin included. Use it only on a network where you trust every machine.',
    };
  }
  const overridden =
    setting?.trim().toLowerCase() === 'true'
      ? ' (TRUST_LOCAL_PRINCIPAL_HEADER=true from the environment or local.settings.json is overridden)'
      : '';
  return {
    // Set, not removed: `func start` would otherwise take `true` from local.settings.json again.
    setting: 'false',
    message:
      `Listening on ${listenAddress}: hand-sent principal headers are not believed${overridden}; ` +
      'pass --trust-principal-headers to believe them anyway.',
  };
}

/** The environment variable through which the Azure-mode launcher hands the host its secret. */
export const FRONT_SECRET_SETTING = 'LOCAL_HOST_FRONT_SECRET';

/**
 * The host's access rules for a launch (./http/hostKey.ts): on loopback, with no front, none (the
 * host's own endpoints answer without a key); on any other listen address, or behind the
 * Azure-mode front (`frontSecret`), a new host key, and the front's secret when there is one.
 *
 * @returns the rules, and the line to print when there is a key (the only place it is shown).
 */
export function hostAccessFor(options: {
  listenAddress: string | undefined;
  frontSecret?: string;
}): { access: HostAccess; line?: string } {
  const { listenAddress, frontSecret } = options;
  if (isLoopbackListenAddress(listenAddress) && frontSecret === undefined) return { access: {} };
  const key = newSecret();
  return {
    access: { key, ...(frontSecret === undefined ? {} : { frontSecret }) },
    line:
      `Host key: ${key} (the host's own endpoints, /admin/* and /runtime/webhooks/durabletask/*, ` +
      `want it from every caller: ${HOST_KEY_HEADER} header or code query parameter)`,
  };
}
