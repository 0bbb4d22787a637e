/**
 * Starts the Azurite emulator (blob, queue, table) from the project's own node_modules, on free
 * ports or on the standard ones, in memory or persisted to a folder. Used by `npm start`, the test
 * setup and the benchmarks; nothing is installed globally.
 */
import { BlobServiceClient } from '@azure/storage-blob';
import { QueueServiceClient } from '@azure/storage-queue';
import { TableServiceClient } from '@azure/data-tables';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import path from 'node:path';

/** The emulator's well-known account name. */
export const DEV_ACCOUNT = 'devstoreaccount1';
/** The emulator's well-known (public) account key. */
export const DEV_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

/** The ports of the three emulated services. */
export interface AzuritePorts {
  blob: number;
  queue: number;
  table: number;
}

/** How to start the embedded emulator. */
export interface AzuriteOptions {
  /** Ports to listen on; 0 (the default) picks a free port. */
  ports?: Partial<AzuritePorts>;
  /**
   * The npm package to run: `azurite` (the default: with the project's patch of its table store,
   * patches/, docs/emulator-patch.md) or `azurite-unpatched` (the same release as published, for
   * the differential test and the emulator benchmark).
   */
  packageName?: 'azurite' | 'azurite-unpatched';
  /** Node.js flags for the emulator's process (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** How long `stop()` waits after SIGTERM before SIGKILL (default 5 s; a profile takes longer). */
  stopGraceMs?: number;
  /** Keep data in this folder; omitted = in memory only. */
  location?: string;
  /** Extra command-line flags (e.g. `--oauth basic --cert ... --key ...`). */
  extraArgs?: string[];
  /** Print Azurite's access log. */
  verbose?: boolean;
  /**
   * Keep the last lines Azurite wrote to stderr (`RunningAzurite.stderrTail`), still passing them
   * on to this process's stderr: the test setup names what an emulator said before it died. Not
   * for a detached emulator, which must outlive this process (a pipe would break with it).
   */
  keepStderrTail?: boolean;
  /** Use https endpoints in the connection string (with `--cert`). */
  https?: boolean;
  /**
   * Run in its own process group, so a terminal's Ctrl-C reaches only the launcher, which then
   * stops Azurite after the functions have finished with storage (`npm start`).
   */
  detached?: boolean;
  /**
   * Serve this account instead of the well-known development account (Azurite's
   * `AZURITE_ACCOUNTS`): a data account of its own, so a URL names which account holds what.
   */
  account?: EmulatorAccount;
}

/** An emulated storage account: its name and (base64) key. */
export interface EmulatorAccount {
  name: string;
  key: string;
}

/** The well-known development account. */
export const DEV_EMULATOR_ACCOUNT: EmulatorAccount = { name: DEV_ACCOUNT, key: DEV_KEY };

/**
 * An emulator account for data account `index` (1, 2, ...): `data1account` with a fixed key, so
 * local runs, tests and the bench spell the same names (docs/accounts.md "Locally").
 */
export function dataEmulatorAccount(index: number): EmulatorAccount {
  return {
    name: `data${index}account`,
    key: Buffer.alloc(64, `data${index}account-key`).toString('base64'),
  };
}

/** A started emulator: its ports, connection string and how to stop it. */
export interface RunningAzurite {
  ports: AzuritePorts;
  /** A connection string for the emulator's well-known development account. */
  connectionString: string;
  process: ChildProcess;
  stop(): Promise<void>;
  /** The last lines Azurite wrote to stderr (with `keepStderrTail`; otherwise empty). */
  stderrTail(): string;
}

/** How many of Azurite's last stderr lines `keepStderrTail` keeps. */
const STDERR_TAIL_LINES = 40;

/** Passes a child's stderr on to ours, keeping its last lines. */
function tailOf(child: ChildProcess): () => string {
  const lines: string[] = [];
  let partial = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    lines.splice(0, Math.max(0, lines.length - STDERR_TAIL_LINES));
  });
  return () => [...lines, partial].filter(Boolean).join('\n');
}

/**
 * Flags every Azurite the project starts carries (`npm start`, `npm run azurite`, the tests, the
 * benchmarks; the README's `func start` recipe spells them out, and a test keeps it in step).
 * `--skipApiVersionCheck`: the pinned SDKs send a newer storage API version than Azurite knows,
 * and without it every blob and queue call is refused (400 InvalidHeaderValue). `--loose`:
 * ignore headers Azurite does not implement instead of failing the request.
 */
export const AZURITE_FLAGS: readonly string[] = [
  '--skipApiVersionCheck',
  '--disableTelemetry',
  '--loose',
];

/** A connection string for the development account on the given ports. */
export function azuriteConnectionString(
  ports: AzuritePorts,
  host = '127.0.0.1',
  protocol: 'http' | 'https' = 'http',
  account: EmulatorAccount = DEV_EMULATOR_ACCOUNT,
): string {
  const { name, key } = account;
  return (
    `DefaultEndpointsProtocol=${protocol};AccountName=${name};AccountKey=${key};` +
    `BlobEndpoint=${protocol}://${host}:${ports.blob}/${name};` +
    `QueueEndpoint=${protocol}://${host}:${ports.queue}/${name};` +
    `TableEndpoint=${protocol}://${host}:${ports.table}/${name};`
  );
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True when something accepts TCP connections on `host:port`. */
export function isListening(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

async function waitForPorts(
  ports: AzuritePorts,
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Azurite exited with code ${child.exitCode}.`);
    const up = await Promise.all([ports.blob, ports.queue, ports.table].map((p) => isListening(p)));
    if (up.every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Azurite did not listen on ${JSON.stringify(ports)} within ${timeoutMs} ms.`);
}

/**
 * Starts Azurite and resolves once all three services accept connections.
 *
 * @throws {Error} when Azurite exits or does not listen within 90 s (3.37 starts about twice as
 *   slowly as 3.35: 21 s against 9.7 s measured side by side on a heavily loaded machine).
 */
export async function startAzurite(options: AzuriteOptions = {}): Promise<RunningAzurite> {
  const ports: AzuritePorts = {
    blob: options.ports?.blob || (await freePort()),
    queue: options.ports?.queue || (await freePort()),
    table: options.ports?.table || (await freePort()),
  };
  const cli = require.resolve(`${options.packageName ?? 'azurite'}/dist/src/azurite.js`);
  const args = [
    ...(options.nodeArgs ?? []),
    cli,
    '--blobPort',
    String(ports.blob),
    '--queuePort',
    String(ports.queue),
    '--tablePort',
    String(ports.table),
    ...AZURITE_FLAGS,
  ];
  if (options.location) args.push('--location', path.resolve(options.location));
  else args.push('--inMemoryPersistence');
  if (!options.verbose) args.push('--silent');
  args.push(...(options.extraArgs ?? []));

  const child = spawn(process.execPath, args, {
    stdio: options.verbose
      ? 'inherit'
      : ['ignore', 'ignore', options.keepStderrTail && !options.detached ? 'pipe' : 'inherit'],
    cwd: options.location ? path.resolve(options.location) : process.cwd(),
    detached: options.detached ?? false,
    env: options.account
      ? { ...process.env, AZURITE_ACCOUNTS: `${options.account.name}:${options.account.key}` }
      : process.env,
  });
  const stderrTail = tailOf(child);
  try {
    await waitForPorts(ports, child, 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  return {
    ports,
    connectionString: azuriteConnectionString(
      ports,
      '127.0.0.1',
      options.https ? 'https' : 'http',
      options.account,
    ),
    process: child,
    stderrTail,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), options.stopGraceMs ?? 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** What one SDK call to each service of an emulator found. */
export type EmulatorProbe =
  | { kind: 'ok' }
  /** The emulator answered but refused the API version the pinned SDKs send. */
  | { kind: 'apiVersionRefused'; service: 'blob' | 'queue' | 'table'; message: string }
  /** It did not answer like storage (not an emulator, or it failed). */
  | { kind: 'failed'; service: 'blob' | 'queue' | 'table'; message: string };

/**
 * True for the error of an emulator that does not accept the request's `x-ms-version`
 * (Azurite without `--skipApiVersionCheck`, or one older than the SDKs).
 */
export function isApiVersionRefusal(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  return (
    /api version .*not supported/i.test(text) ||
    (code === 'InvalidHeaderValue' && /version/i.test(text))
  );
}

/**
 * Makes one cheap call (list one item) to each service with the project's own SDKs, to tell an
 * emulator that will serve the app from one that refuses it. Never throws.
 */
export async function probeEmulator(
  connectionString: string,
  timeoutMs = 5_000,
): Promise<EmulatorProbe> {
  const abortSignal = AbortSignal.timeout(timeoutMs);
  const probes = {
    blob: () =>
      BlobServiceClient.fromConnectionString(connectionString)
        .listContainers({ abortSignal })
        .byPage({ maxPageSize: 1 })
        .next(),
    queue: () =>
      QueueServiceClient.fromConnectionString(connectionString)
        .listQueues({ abortSignal })
        .byPage({ maxPageSize: 1 })
        .next(),
    table: () =>
      TableServiceClient.fromConnectionString(connectionString, { allowInsecureConnection: true })
        .listTables({ abortSignal })
        .byPage({ maxPageSize: 1 })
        .next(),
  };
  for (const service of ['blob', 'queue', 'table'] as const) {
    try {
      await probes[service]();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return isApiVersionRefusal(error)
        ? { kind: 'apiVersionRefused', service, message }
        : { kind: 'failed', service, message };
    }
  }
  return { kind: 'ok' };
}
