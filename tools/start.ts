/**
 * `npm start`: runs the function app locally with one command (docs/local-host.md "Running it").
 *
 * Storage: a configured `AzureWebJobsStorage` that is not the local emulator, as is; else an
 * emulator already on 10000-10002 that accepts the SDKs' API version; else Azurite from
 * node_modules with its data in `./.azurite/`. Functions: `func start` when Core Tools are on
 * PATH, else the local host (tools/host) on 7071 (`PORT`). Ctrl-C stops everything cleanly.
 *
 * Options: --port, --functions, --listen, --allowed-host, --trust-principal-headers (as
 * tools/host/cli.ts); --azure (the app as deployed, behind the imitation of App Service
 * authentication, issuer on --issuer-port: docs/azure-mode.md); --cpu-prof <dir> (CPU profiles
 * of the app and the Azurite it starts; the local host only).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  azuriteConnectionString,
  isListening,
  probeEmulator,
  startAzurite,
  type RunningAzurite,
} from './azurite';
import { allowConsoleOrigins, localOrigins } from './storageCors';
import { DEFAULT_SHUTDOWN_GRACE_MS, HostStartupError, startLocalHost } from './host/host';
import { newSecret } from './host/http/hostKey';
import {
  findOnPath,
  findProjectRoot,
  hostAccessFor,
  planStorage,
  principalTrustFor,
  refusedEmulatorMessage,
  STANDARD_EMULATOR_PORTS,
  withoutPlatformMarkers,
} from './host/launch';
import { applyLocalSettings, readLocalSettings } from './host/load/localSettings';
import { createLogger, describeError, parseLogLevel } from './host/log';
import { defaultExtensions } from './host/extensions';
import { applyFlexConsumptionEnvironment } from './easyauth/flexEnvironment';
import { startAzureFront, type AzureFront } from './easyauth/launch';
import {
  cpuProfileNodeArgs,
  PROFILE_FILES,
  startSelfProfile,
  type SelfProfile,
} from './cpuProfile';

/** A condition the user can fix; printed without a stack trace. */
class LaunchError extends Error {}

function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      functions: { type: 'string' },
      listen: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'trust-principal-headers': { type: 'boolean' },
      azure: { type: 'boolean' },
      'issuer-port': { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
    strict: true,
  });
  const profileDir = values['cpu-prof'] && path.resolve(values['cpu-prof']);
  let selfProfile: SelfProfile | undefined;
  if (profileDir) {
    fs.mkdirSync(profileDir, { recursive: true });
    selfProfile = await startSelfProfile();
  }
  // This file runs from tools/ or dist/tools/.
  const root = findProjectRoot(__dirname);
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
    listenAddress: values.listen,
    trustFlag: values['trust-principal-headers'] ?? false,
    setting: process.env.TRUST_LOCAL_PRINCIPAL_HEADER,
    loopbackDefault: 'true',
  });
  if (trust.setting !== undefined) process.env.TRUST_LOCAL_PRINCIPAL_HEADER = trust.setting;
  if (trust.message) process.stderr.write(`${trust.message}\n`);
  // As infra/app/api.bicep sets it in Azure: no request body past the largest the API takes.
  process.env.FUNCTIONS_REQUEST_BODY_SIZE_LIMIT ??= String(16 * 1024 * 1024 + 64 * 1024);
  const port = Number(values.port ?? process.env.PORT ?? localSettings?.localHttpPort ?? 7071);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid port "${values.port ?? process.env.PORT}".`);
  // Azure mode: the host sees what a Flex Consumption instance sees (markers, authentication on).
  if (values.azure) applyFlexConsumptionEnvironment(process.env, `localhost:${port}`);

  // 1. Storage.
  const listening = {
    blob: await isListening(STANDARD_EMULATOR_PORTS.blob),
    queue: await isListening(STANDARD_EMULATOR_PORTS.queue),
    table: await isListening(STANDARD_EMULATOR_PORTS.table),
  };
  const plan = planStorage(process.env, listening);
  let azurite: RunningAzurite | undefined;
  let storageLine: string;
  switch (plan.kind) {
    case 'configured':
      storageLine = `configured: ${plan.description}`;
      break;
    case 'reuseEmulator': {
      const connectionString = azuriteConnectionString(STANDARD_EMULATOR_PORTS);
      const probe = await probeEmulator(connectionString);
      if (probe.kind !== 'ok') throw new LaunchError(refusedEmulatorMessage(probe));
      if (profileDir)
        process.stderr.write('--cpu-prof: the emulator already running is not profiled.\n');
      process.env.AzureWebJobsStorage = connectionString;
      storageLine = 'the emulator already listening on 10000-10002 (reused)';
      break;
    }
    case 'startEmulator': {
      const location = path.join(root, '.azurite');
      fs.mkdirSync(location, { recursive: true });
      azurite = await startAzurite({
        ports: { ...STANDARD_EMULATOR_PORTS },
        location,
        detached: true,
        ...(profileDir && {
          nodeArgs: cpuProfileNodeArgs(profileDir, PROFILE_FILES.emulator),
          // Closing, then writing a long run's profile, takes more than the usual few seconds.
          stopGraceMs: 120_000,
        }),
      });
      process.env.AzureWebJobsStorage = azurite.connectionString;
      storageLine = `Azurite, started here (data in ${path.relative(process.cwd(), location) || location})`;
      break;
    }
    case 'portsBusy':
      throw new LaunchError(
        `Something listens on port ${plan.busy.map((s) => STANDARD_EMULATOR_PORTS[s]).join(' and ')} but not on all of ` +
          '10000-10002, so it is not a storage emulator to reuse: stop it, or set AzureWebJobsStorage to a storage account.',
      );
  }
  const stopAzurite = async (): Promise<void> => {
    await azurite?.stop();
  };
  // If this process dies abruptly, do not leave a detached Azurite behind.
  process.once('exit', () => azurite?.process.kill('SIGKILL'));

  // The web console reads the emulator directly with SAS URLs: CORS for the host's origins.
  if (plan.kind !== 'configured') {
    try {
      await allowConsoleOrigins(process.env.AzureWebJobsStorage!, localOrigins(port));
    } catch (error) {
      await stopAzurite();
      throw new LaunchError(
        `Could not set CORS on the emulator for the web console: ${describeError(error)}`,
      );
    }
  }
  const emulatorLines =
    plan.kind === 'configured'
      ? []
      : [
          `  CORS:    blob and table admit ${localOrigins(port).join(' and ')} (the web console)`,
          `  Blob:    http://127.0.0.1:${STANDARD_EMULATOR_PORTS.blob}/devstoreaccount1`,
          `  Queue:   http://127.0.0.1:${STANDARD_EMULATOR_PORTS.queue}/devstoreaccount1`,
          `  Table:   http://127.0.0.1:${STANDARD_EMULATOR_PORTS.table}/devstoreaccount1`,
        ];

  // 2. Functions: Core Tools when installed.
  const func = findOnPath('func', process.env.PATH);
  if (func && !values.azure && !profileDir) {
    say(`Storage: ${storageLine}`);
    for (const line of emulatorLines) say(line);
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
    await stopAzurite();
    process.exit(code);
  }

  // 3. Otherwise the project's local host, in this process. Its own endpoints want a key off
  // loopback; in Azure mode the host is internal and serves only what the front forwards.
  const frontSecret = values.azure ? newSecret() : undefined;
  const { access, line: keyLine } = hostAccessFor({
    listenAddress: values.azure ? undefined : values.listen,
    ...(frontSecret ? { frontSecret } : {}),
  });
  const logger = createLogger({ level: parseLogLevel(process.env.HOST_LOG_LEVEL) });
  let host;
  try {
    host = await startLocalHost({
      appRoot: root,
      functionsGlob: values.functions,
      // Azure mode: the host is internal; the front takes the public port.
      port: values.azure ? 0 : port,
      listenAddress: values.azure ? '127.0.0.1' : values.listen,
      allowedHosts: values['allowed-host'],
      access,
      logger,
      extensions: defaultExtensions,
    });
  } catch (error) {
    await stopAzurite();
    if (error instanceof HostStartupError) {
      process.stderr.write(`Host startup failed: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  let azureFront: AzureFront | undefined;
  if (values.azure) {
    try {
      azureFront = await startAzureFront({
        projectRoot: root,
        port,
        upstream: host.origin,
        upstreamSecret: frontSecret!,
        ...(values.listen ? { listenAddress: values.listen } : {}),
        ...(values['issuer-port'] ? { issuerPort: Number(values['issuer-port']) } : {}),
      });
    } catch (error) {
      await host.stop(0);
      await stopAzurite();
      throw new LaunchError(`Azure mode: ${describeError(error)}`);
    }
  }
  const shown = azureFront?.publicOrigin ?? host.origin.replace('//127.0.0.1:', '//localhost:');
  const api = `${shown}${host.baseUrl.slice(host.origin.length)}`;
  // The banner ends with what a person opens next: the URLs.
  say();
  say(`Storage: ${storageLine}`);
  for (const line of emulatorLines) say(line);
  say(
    values.azure
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
  if (azurite) {
    azurite.process.once('exit', (code, signal) => {
      if (!stopping)
        logger.error(
          `Azurite exited unexpectedly (${signal ?? code}); storage calls will fail until it runs again.`,
        );
    });
  }

  let stopping = false;
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
      .then(stopAzurite)
      .then(async () => {
        if (!selfProfile || !profileDir) return;
        await selfProfile.stop(path.join(profileDir, PROFILE_FILES.app));
        say(`CPU profiles written to ${profileDir}.`);
      })
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
