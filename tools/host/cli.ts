/**
 * `node [-r @swc-node/register] tools/host/cli.ts [options]`: runs a function app on the local
 * host until SIGINT/SIGTERM; exit code 1 when the app cannot start, with every problem printed.
 *
 * Options: --app-root, --functions <glob>, --host-json, --settings, --port (0: a free port),
 * --listen (default 127.0.0.1; elsewhere hand-sent principals are not believed and the host's own
 * endpoints want the key printed at startup), --trust-principal-headers, --allowed-host
 * (repeatable), --metrics-summary. Environment: HOST_LOG_LEVEL, HOST_SHUTDOWN_TIMEOUT_MS,
 * HOST_HTTP_RESPONSE_LIMIT_MS, LOCAL_HOST_FRONT_SECRET (set by the Azure-mode launcher). What
 * each does: docs/local-host.md "Running it" and "Who may drive it", docs/azure-mode.md.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_SHUTDOWN_GRACE_MS,
  HostStartupError,
  startLocalHost,
  type LocalHostOptions,
  type RunningLocalHost,
} from './host';
import { FRONT_SECRET_SETTING, hostAccessFor, principalTrustFor } from './launch';
import { applyLocalSettings, readLocalSettings } from './load/localSettings';
import { createLogger, describeError, parseLogLevel, type Logger } from './log';
import { defaultExtensions } from './extensions';

function integerSetting(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d+$/.test(value.trim()))
    throw new Error(`${name} must be a whole number, got "${value}".`);
  return Number(value);
}

/** The command line (`--help` is not one: an unknown option throws). */
function parseCommandLine() {
  return parseArgs({
    options: {
      'app-root': { type: 'string' },
      functions: { type: 'string' },
      'host-json': { type: 'string' },
      settings: { type: 'string' },
      port: { type: 'string' },
      listen: { type: 'string' },
      'trust-principal-headers': { type: 'boolean' },
      'allowed-host': { type: 'string', multiple: true },
      'metrics-summary': { type: 'boolean' },
    },
    strict: true,
  }).values;
}

type CommandLine = ReturnType<typeof parseCommandLine>;

/**
 * Sets the app's environment before it loads: local.settings.json (what the environment does not
 * set already), principal trust, the metrics summary.
 *
 * @returns the local settings read, if any (their `localHttpPort` is the default port).
 */
function prepareEnvironment(values: CommandLine, appRoot: string, logger: Logger) {
  const settingsFile = path.resolve(values.settings ?? path.join(appRoot, 'local.settings.json'));
  const localSettings = readLocalSettings(settingsFile);
  if (localSettings) {
    const skipped = applyLocalSettings(localSettings.values, process.env);
    for (const name of skipped) {
      logger.debug(
        `Skipping '${name}' from local.settings.json: it is already set in the environment.`,
      );
    }
  }
  const trust = principalTrustFor({
    listenAddress: values.listen,
    trustFlag: values['trust-principal-headers'] ?? false,
    setting: process.env.TRUST_LOCAL_PRINCIPAL_HEADER,
  });
  if (trust.setting === undefined) delete process.env.TRUST_LOCAL_PRINCIPAL_HEADER;
  else process.env.TRUST_LOCAL_PRINCIPAL_HEADER = trust.setting;
  if (trust.message) process.stderr.write(`${trust.message}\n`);
  // Read by the app's telemetry (src/config/telemetrySettings.ts) when its first function file
  // loads.
  if (values['metrics-summary']) process.env.DIRECTORY_METRICS_SUMMARY = 'true';
  return localSettings;
}

async function main(): Promise<void> {
  const values = parseCommandLine();
  const appRoot = path.resolve(values['app-root'] ?? process.cwd());
  const logger = createLogger({ level: parseLogLevel(process.env.HOST_LOG_LEVEL) });
  const localSettings = prepareEnvironment(values, appRoot, logger);
  const port = integerSetting(
    '--port',
    values.port ?? process.env.PORT,
    localSettings?.localHttpPort ?? 7071,
  );
  const graceMs = integerSetting(
    'HOST_SHUTDOWN_TIMEOUT_MS',
    process.env.HOST_SHUTDOWN_TIMEOUT_MS,
    DEFAULT_SHUTDOWN_GRACE_MS,
  );

  const frontSecret = process.env[FRONT_SECRET_SETTING]?.trim() || undefined;
  // Not for the app, nor for anything it starts.
  delete process.env[FRONT_SECRET_SETTING];
  const { access, line: keyLine } = hostAccessFor({ listenAddress: values.listen, frontSecret });

  const host = await startOrExit({
    appRoot,
    functionsGlob: values.functions,
    hostJsonPath: values['host-json'],
    port,
    listenAddress: values.listen,
    allowedHosts: values['allowed-host'],
    access,
    logger,
    extensions: defaultExtensions,
  });
  if (keyLine) process.stdout.write(`${keyLine}\n`);
  // Printed whatever the log level: launchers and the e2e helper wait for this line.
  process.stdout.write(`Host listening on ${host.origin} (API base ${host.baseUrl})\n`);
  stopOnSignals(host, graceMs, logger);
}

/** Starts the host; exits (1) with every problem printed when the app cannot start. */
async function startOrExit(options: LocalHostOptions): Promise<RunningLocalHost> {
  try {
    return await startLocalHost(options);
  } catch (error) {
    if (error instanceof HostStartupError) {
      process.stderr.write(`Host startup failed: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Stops the host on SIGINT/SIGTERM (up to `graceMs` for running invocations), then exits. */
function stopOnSignals(host: RunningLocalHost, graceMs: number, logger: Logger): void {
  let signals = 0;
  const shutdown = (signal: NodeJS.Signals): void => {
    signals += 1;
    if (signals > 1) {
      logger.warn(`${signal} again: exiting without waiting.`);
      process.exit(1);
    }
    logger.info(`${signal} received.`);
    host.stop(graceMs).then(
      () => process.exit(0),
      (error) => {
        logger.error(`Shutdown failed: ${describeError(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(`Host failed: ${describeError(error)}\n`);
  process.exit(1);
});
