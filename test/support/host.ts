/**
 * Starts the local Functions host (tools/host) as a child process for end-to-end tests: the
 * project's functions from their TypeScript sources (`node -r @swc-node/register`), on a free
 * port, against the shared test Azurite (`AzureWebJobsStorage` of the test process).
 *
 *   const host = await startHost({ env: { ARCHIVE_QUEUE: uniqueName('archive') } });
 *   const response = await fetch(`${host.baseUrl}/health`); // baseUrl ends with /api
 *   await host.stop();
 *
 * Every `fetch` a test sends to the API of the project's app is checked against the OpenAPI
 * document the host serves (test/support/apiContract.ts): a request or response it does not
 * describe fails the test at that call.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { checkApiTraffic } from './apiContract';
import { WAIT_MS } from './waits';

export const PROJECT_ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(PROJECT_ROOT, 'tools/host/cli.ts');

export interface StartHostOptions {
  /**
   * Extra settings for the host process (added to the test process's environment). For the
   * project's app, ARCHIVE_QUEUE, INDEX_QUEUE and LOG_QUEUE default to fresh unique names.
   */
  env?: Record<string, string>;
  /** Entry points relative to `appRoot`; default `functions/*.ts` for the project. */
  functionsGlob?: string;
  /** The function app's folder; default the project root. */
  appRoot?: string;
  /** host.json to use; default `<appRoot>/host.json`. */
  hostJsonPath?: string;
  /** How long to wait for the host to answer `/admin/host/status` (default 30 s). */
  startTimeoutMs?: number;
  /** More command-line options for tools/host/cli.ts (`--listen`, `--allowed-host`, ...). */
  args?: string[];
  /**
   * Check requests to `baseUrl` against the served OpenAPI document (default: for the project's
   * whole app). Off for a host behind the Azure-mode front, which serves only the front.
   */
  checkApi?: boolean;
}

export interface RunningHost {
  /** The API base URL, `http://127.0.0.1:<port>/api` (API.md's base URL: origin + route prefix). */
  baseUrl: string;
  /** `http://127.0.0.1:<port>`, where the admin API lives (`/admin/host/status`, ...). */
  origin: string;
  port: number;
  /**
   * The host key its own endpoints want (off loopback, or behind the Azure-mode front), as the
   * host printed it; undefined when they answer without one.
   */
  key?: string;
  /** SIGTERM, then wait for the host to finish running invocations and exit (SIGKILL after 20 s). */
  stop(): Promise<void>;
  /** SIGKILL: the process dies at once, as on a crash. */
  kill(): void;
  /** Everything the host printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the output matches `pattern` (rejects after `timeoutMs` or if the host exits). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process has exited (null when killed by a signal). */
  exited(): Promise<number | null>;
  readonly process: ChildProcess;
}

/**
 * The project's queue settings. Unless a test names them, each host gets queues of its own, so
 * concurrent hosts on the shared Azurite never take each other's messages.
 */
const APP_QUEUE_SETTINGS = ['ARCHIVE_QUEUE', 'INDEX_QUEUE', 'LOG_QUEUE'];

function isolatedQueues(): Record<string, string> {
  return Object.fromEntries(
    APP_QUEUE_SETTINGS.map((name) => [
      name,
      `${name.split('_')[0]!.toLowerCase()}-${randomBytes(6).toString('hex')}`,
    ]),
  );
}

const running = new Set<ChildProcess>();
// A test that forgets to stop its host must not leave the process behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a host and resolves once it answers `GET /admin/host/status`.
 *
 * @throws {Error} with the host's output when it exits first (e.g. refuses the app) or does not
 *   answer within the timeout.
 */
export async function startHost(options: StartHostOptions = {}): Promise<RunningHost> {
  const appRoot = path.resolve(options.appRoot ?? PROJECT_ROOT);
  const args = ['-r', '@swc-node/register', CLI, '--app-root', appRoot, '--port', '0'];
  const functionsGlob = options.functionsGlob ?? (options.appRoot ? undefined : 'functions/*.ts');
  if (functionsGlob) args.push('--functions', functionsGlob);
  if (options.hostJsonPath) args.push('--host-json', path.resolve(options.hostJsonPath));
  args.push(...(options.args ?? []));

  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      // Timer statuses are kept per host id; a unique id keeps concurrent hosts apart.
      AzureFunctionsWebHost__hostid: `test-${randomBytes(8).toString('hex')}`,
      ...(options.appRoot ? {} : isolatedQueues()),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);

  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
      for (const listener of listeners) listener();
    });
  });
  const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null;

  const waitForOutput = (pattern: RegExp, timeoutMs = WAIT_MS): Promise<RegExpMatchArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = text.match(pattern);
        if (match) {
          cleanup();
          resolve(match);
        } else if (hasExited()) {
          cleanup();
          reject(new Error(`The host exited before printing ${pattern}. Output:\n${text}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(`The host did not print ${pattern} within ${timeoutMs} ms. Output:\n${text}`),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  const timeoutMs = options.startTimeoutMs ?? WAIT_MS;
  let origin: string;
  let baseUrl: string;
  let key: string | undefined;
  try {
    const match = await waitForOutput(
      /Host listening on (http:\/\/[\d.]+:\d+) \(API base (\S+)\)/,
      timeoutMs,
    );
    origin = match[1]!;
    baseUrl = match[2]!;
    // Printed before the listening line when the host's own endpoints want its key.
    key = /^Host key: (\S+)/m.exec(text)?.[1];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ok = await fetch(`${origin}/admin/host/status`, {
        headers: key === undefined ? {} : { 'x-functions-key': key },
      }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (hasExited() || Date.now() > deadline)
        throw new Error(`The host did not answer /admin/host/status. Output:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    if (!hasExited()) child.kill('SIGKILL');
    await exit;
    const message = (error as Error).message.includes('Output:')
      ? (error as Error).message
      : `${(error as Error).message}\nOutput:\n${text}`;
    throw new Error(`The local host did not start. ${message}`, { cause: error });
  }

  const port = Number(new URL(origin).port);
  // The project's whole app serves its OpenAPI document; fixture apps and subsets do not.
  const stopChecks =
    (options.checkApi ?? true) &&
    options.appRoot === undefined &&
    options.functionsGlob === undefined
      ? checkApiTraffic(baseUrl)
      : () => undefined;
  void exit.then(stopChecks);
  return {
    baseUrl,
    origin,
    port,
    ...(key === undefined ? {} : { key }),
    process: child,
    output: () => text,
    waitForOutput,
    exited: () => exit,
    kill: () => {
      if (!hasExited()) child.kill('SIGKILL');
    },
    async stop() {
      if (hasExited()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** One HTTP route the host registered, as its own function list (`/admin/functions`) reports it. */
export interface RegisteredHttpRoute {
  method: string;
  route: string;
}

/** Every HTTP-triggered route of the running host, one entry per method. */
export async function registeredHttpRoutes(host: RunningHost): Promise<RegisteredHttpRoute[]> {
  const headers: Record<string, string> = host.key ? { 'x-functions-key': host.key } : {};
  const functions = (await (await fetch(`${host.origin}/admin/functions`, { headers })).json()) as {
    bindings: Record<string, { type: string; route?: string; methods?: string[] }>;
  }[];
  return functions.flatMap((fn) =>
    Object.values(fn.bindings)
      .filter((binding) => binding.type === 'httpTrigger')
      .flatMap((binding) =>
        (binding.methods ?? []).map((method) => ({
          method: method.toUpperCase(),
          route: binding.route ?? '',
        })),
      ),
  );
}
