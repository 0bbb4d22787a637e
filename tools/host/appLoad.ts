/**
 * The first steps of starting the local host (host.ts `startLocalHost`): host.json, the worker
 * that loads the app through its own `@azure/functions-core`, and the app's functions with every
 * problem the Functions host would refuse in them.
 */
import { loadHostSettings, type HostSettings } from './config/hostJson';
import { LocalWorker } from './core/worker';
import { describeFunction, type HostFunction } from './functions';
import { loadEntryPoints } from './load/entryPoints';
import { describeError, type Logger } from './log';
import { HostStartupError, namingProblems } from './validation';

const WORKER_CAPABILITIES: Record<string, string> = {
  RawHttpBodyBytes: 'true',
  RpcHttpTriggerMetadataRemoved: 'true',
  RpcHttpBodyOnly: 'true',
  IgnoreEmptyValuedRpcHttpHeaders: 'true',
  UseNullableValueDictionaryForHttp: 'true',
  WorkerStatus: 'true',
  TypedDataCollection: 'true',
  HandlesWorkerTerminateMessage: 'true',
};

/**
 * The settings of `hostJsonPath`.
 *
 * @throws {HostStartupError} when host.json cannot be read or is invalid.
 */
export function hostSettingsOf(hostJsonPath: string): HostSettings {
  try {
    return loadHostSettings(hostJsonPath);
  } catch (error) {
    throw new HostStartupError([(error as Error).message]);
  }
}

/**
 * The worker that loads the entry points matching `pattern` (and loads them again when it
 * restarts at functionTimeout). The core module must be in place before the first
 * `require('@azure/functions')`: the worker installs it first.
 *
 * @throws {HostStartupError} when an entry point fails to load.
 */
export function startWorker(
  appRoot: string,
  pattern: string,
  settings: HostSettings,
  logger: Logger,
): LocalWorker {
  try {
    return new LocalWorker({
      appRoot,
      logger,
      functionTimeoutMs: settings.functionTimeoutMs,
      log: (level, category, message) =>
        logger.log(
          level === 'information' && category === 'system' ? 'debug' : level,
          'worker',
          message,
        ),
      load: (registry) => {
        const files = loadEntryPoints(appRoot, pattern, registry);
        logger.debug(`Loaded ${files.length} entry point(s) matching "${pattern}".`);
      },
    });
  } catch (error) {
    logger.error(describeError((error as Error).cause ?? error));
    throw new HostStartupError([(error as Error).message]);
  }
}

/** The functions the app registered, and the problems found in them (or in its setup). */
export async function describeApp(
  worker: LocalWorker,
): Promise<{ functions: HostFunction[]; problems: string[] }> {
  const registry = worker.registry;
  const problems: string[] = [];
  const model = registry.programmingModel;
  if (model?.getCapabilities) {
    const capabilities = await model.getCapabilities({ ...WORKER_CAPABILITIES });
    if (capabilities.HttpUri) {
      problems.push(
        'HTTP streaming (app.setup({ enableHttpStream: true })) is not supported by the local host.',
      );
    }
  }
  const functions: HostFunction[] = [];
  for (const registration of registry.functions()) {
    try {
      functions.push(describeFunction(registration));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  problems.push(...namingProblems(functions.map((fn) => fn.name)));
  return { functions, problems };
}
