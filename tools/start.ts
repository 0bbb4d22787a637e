/**
 * `npm start`: runs the function app locally with one command (docs/local-host.md "Running it").
 *
 * Storage (tools/startup/localStorage.ts): a configured `AzureWebJobsStorage` that is not the local
 * emulator, as is; else this checkout's emulator already running; else Azurite from node_modules
 * with its data in `./.azurite/`. Functions: `func start` when Core Tools are on PATH, else the
 * local host (tools/host) on 7071 (`PORT`). Ctrl-C stops everything cleanly. Options: `npm start
 * -- --help` (tools/startup/startOptions.ts).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_SHUTDOWN_GRACE_MS, HostStartupError, startLocalHost } from './host/host';
import { newSecret } from './host/http/hostKey';
import {
  findOnPath,
  findProjectRoot,
  hostAccessFor,
  principalTrustFor,
  withoutPlatformMarkers,
} from './host/launch';
import { applyLocalSettings, readLocalSettings } from './host/load/localSettings';
import { createLogger, describeError, parseLogLevel } from './host/log';
import { defaultExtensions } from './host/extensions';
import { applyFlexConsumptionEnvironment } from './easyauth/flexEnvironment';
import { startAzureFront, type AzureFront } from './easyauth/launch';
import { PROFILE_FILES, startSelfProfile, type SelfProfile } from './cpuProfile';
import { parseStartCommand, START_USAGE, type StartOptions } from './startup/startOptions';
import {
  behindTargets,
  LaunchError,
  prepareLocalStorage,
  type LocalStorage,
} from './startup/localStorage';

function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const command = parseStartCommand(process.argv.slice(2), process.env);
  if (command.kind === 'help') {
    process.stdout.write(START_USAGE);
    return;
  }
  if (command.kind === 'refused') {
    process.stderr.write(`npm start: ${command.message}\n\n${START_USAGE}`);
    process.exit(2);
  }
  const options = command.options;
  const profileDir = options.cpuProf && path.resolve(options.cpuProf);
  let selfProfile: SelfProfile | undefined;
  if (profileDir) {
    fs.mkdirSync(profileDir, { recursive: true });
    selfProfile = await startSelfProfile();
  }
  // This file runs from tools/ or dist/tools/.
  const root = findProjectRoot(__dirname);
  const port = prepareEnvironment(root, options);
  const local = await prepareLocalStorage(
    {
      root,
      ports: options.emulatorPorts,
      reuse: options.reuseEmulator,
      apiPort: port,
      ...(profileDir ? { profileDir } : {}),
    },
    process.env,
  );
  const storage =
    options.targetsFactor === undefined
      ? local
      : await behindTargets(local, options.targetsFactor, process.env).catch(async (error) => {
          await local.stop();
          throw error;
        });
  // If this process dies abruptly, do not leave a detached Azurite behind.
  process.once('exit', () => storage.azurite?.process.kill('SIGKILL'));

  const func = findOnPath('func', process.env.PATH);
  if (func && !options.azure && !profileDir) return runCoreTools(func, root, port, storage);
  await runLocalHost(root, port, options, storage, async () => {
    if (!selfProfile || !profileDir) return;
    await selfProfile.stop(path.join(profileDir, PROFILE_FILES.app));
    say(`CPU profiles written to ${profileDir}.`);
  });
}

/**
 * The environment of a local run: no Azure instance markers from the shell, local.settings.json,
 * principal trust, the body limit Azure sets, Azure mode's settings. Returns the API's port.
 *
 * @throws {LaunchError} for a port that is not one.
 */
function prepareEnvironment(root: string, options: StartOptions): number {
  // npm start is a local run: markers of an Azure instance inherited from the shell are dropped.
  const cleaned = withoutPlatformMarkers(process.env);
  for (const name of cleaned.removed) delete process.env[name];
  if (cleaned.removed.length > 0) {
    process.stderr.write(
      `Ignoring ${cleaned.removed.join(', ')} from the shell: this is a local run, not an Azure instance.\n`,
    );
  }
  const localSettings = readLocalSettings(path.join(root, 'local.settings.json'));
  if (localSettings) applyLocalSettings(localSettings.values, process.env);
  // Principal headers are sent by hand locally (npm run principal); believe them only while the
  // host is reachable from this machine alone, unless told otherwise with a flag.
  const trust = principalTrustFor({
    listenAddress: options.listen,
    trustFlag: options.trustPrincipalHeaders,
    setting: process.env.TRUST_LOCAL_PRINCIPAL_HEADER,
    loopbackDefault: 'true',
  });
  if (trust.setting !== undefined) process.env.TRUST_LOCAL_PRINCIPAL_HEADER = trust.setting;
  if (trust.message) process.stderr.write(`${trust.message}\n`);
  // As infra/app/api.bicep sets it in Azure: no request body past the largest the API takes.
  process.env.FUNCTIONS_REQUEST_BODY_SIZE_LIMIT ??= String(16 * 1024 * 1024 + 64 * 1024);
  if (options.verbose) process.env.HOST_LOG_LEVEL = 'debug';
  const text = options.port ?? process.env.PORT ?? String(localSettings?.localHttpPort ?? 7071);
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || port > 65535)
    throw new LaunchError(`The API port must be 0-65535, got "${text}".`);
  // Azure mode: the host sees what a Flex Consumption instance sees (markers, authentication on).
  if (options.azure) applyFlexConsumptionEnvironment(process.env, `localhost:${port}`);
  return port;
}

/** Hands over to `func start` (Core Tools) and exits with its code. */
async function runCoreTools(
  func: string,
  root: string,
  port: number,
  storage: LocalStorage,
): Promise<void> {
  for (const line of storage.lines) say(line);
  say(`Azure Functions Core Tools found (${func}): running "func start --port ${port}".`);
  const child = spawn(func, ['start', '--port', String(port)], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  });
  const forward = (signal: NodeJS.Signals): void => {
    if (child.exitCode === null) child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 0)));
  await storage.stop();
  process.exit(code);
}

/**
 * The project's local host in this process (with Azure mode's front when asked), its banner, and
 * a clean stop on SIGINT/SIGTERM. Its own endpoints want a key off loopback; in Azure mode the
 * host is internal and serves only what the front forwards.
 */
async function runLocalHost(
  root: string,
  port: number,
  options: StartOptions,
  storage: LocalStorage,
  afterStop: () => Promise<void>,
): Promise<void> {
  const frontSecret = options.azure ? newSecret() : undefined;
  const { access, line: keyLine } = hostAccessFor({
    listenAddress: options.azure ? undefined : options.listen,
    ...(frontSecret ? { frontSecret } : {}),
  });
  const logger = createLogger({ level: parseLogLevel(process.env.HOST_LOG_LEVEL) });
  const host = await startHostOrExit(storage, {
    appRoot: root,
    functionsGlob: options.functions,
    // Azure mode: the host is internal; the front takes the public port.
    port: options.azure ? 0 : port,
    listenAddress: options.azure ? '127.0.0.1' : options.listen,
    allowedHosts: options.allowedHosts,
    access,
    logger,
    extensions: defaultExtensions,
  });
  const azureFront = frontSecret
    ? await startFrontOrStop(root, port, options, storage, host, frontSecret)
    : undefined;
  printBanner(storage, host, options, keyLine, azureFront);
  stopOnSignals(storage, host, logger, azureFront, afterStop);
}

type LocalHost = Awaited<ReturnType<typeof startLocalHost>>;

/** Starts the local host; on a startup error stops storage and exits (1) with its message. */
async function startHostOrExit(
  storage: LocalStorage,
  hostOptions: Parameters<typeof startLocalHost>[0],
): Promise<LocalHost> {
  try {
    return await startLocalHost(hostOptions);
  } catch (error) {
    await storage.stop();
    if (error instanceof HostStartupError) {
      process.stderr.write(`Host startup failed: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Azure mode's front on the public port, forwarding to the host with `frontSecret`.
 *
 * @throws {LaunchError} when it does not start (the host and storage are stopped first).
 */
async function startFrontOrStop(
  root: string,
  port: number,
  options: StartOptions,
  storage: LocalStorage,
  host: LocalHost,
  frontSecret: string,
): Promise<AzureFront> {
  try {
    return await startAzureFront({
      projectRoot: root,
      port,
      upstream: host.origin,
      upstreamSecret: frontSecret,
      ...(options.listen ? { listenAddress: options.listen } : {}),
      ...(options.issuerPort ? { issuerPort: Number(options.issuerPort) } : {}),
    });
  } catch (error) {
    await host.stop(0);
    await storage.stop();
    throw new LaunchError(`Azure mode: ${describeError(error)}`);
  }
}

/** The banner: storage, the host's admin address and key, then the URLs a person opens next. */
function printBanner(
  storage: LocalStorage,
  host: LocalHost,
  options: StartOptions,
  keyLine: string | undefined,
  azureFront: AzureFront | undefined,
): void {
  const shown = azureFront?.publicOrigin ?? host.origin.replace('//127.0.0.1:', '//localhost:');
  const api = `${shown}${host.baseUrl.slice(host.origin.length)}`;
  // The banner ends with what a person opens next: the URLs.
  say();
  for (const line of storage.lines) say(line);
  say(
    options.azure
      ? 'Local Functions host, Azure mode'
      : 'Local Functions host (Azure Functions Core Tools not found on PATH)',
  );
  say(`  Admin:   ${shown}/admin/host/status`);
  if (keyLine) say(`  ${keyLine}`);
  for (const line of azureFront?.lines ?? []) say(line);
  say();
  say('Ready (Ctrl+C stops):');
  say(`  API:     ${api}`);
  say(`  Console: ${api}/console/`);
  say(`  Health:  ${api}/health`);
  say(`  OpenAPI: ${api}/openapi.json`);
}

/**
 * On SIGINT/SIGTERM: stops the host, the front, storage, then `afterStop`, and exits; a second
 * signal exits at once. Logs Azurite exiting on its own meanwhile.
 */
function stopOnSignals(
  storage: LocalStorage,
  host: LocalHost,
  logger: ReturnType<typeof createLogger>,
  azureFront: AzureFront | undefined,
  afterStop: () => Promise<void>,
): void {
  let stopping = false;
  storage.azurite?.process.once('exit', (code, signal) => {
    if (!stopping)
      logger.error(
        `Azurite exited unexpectedly (${signal ?? code}); storage calls will fail until it runs again.`,
      );
  });
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) {
      say(`${signal} again: exiting without waiting.`);
      process.exit(1);
    }
    stopping = true;
    say(`\n${signal}: stopping the host, then storage...`);
    host
      .stop(Number(process.env.HOST_SHUTDOWN_TIMEOUT_MS ?? DEFAULT_SHUTDOWN_GRACE_MS))
      .then(() => azureFront?.easyAuth.close())
      .then(() => storage.stop())
      .then(afterStop)
      .then(
        () => process.exit(0),
        (error) => {
          process.stderr.write(`Shutdown failed: ${describeError(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(
    `npm start failed: ${error instanceof LaunchError ? error.message : describeError(error)}\n`,
  );
  process.exit(1);
});
