/**
 * The durable runtime's settings on the local host, named as the Durable Functions extension
 * names them in host.json `extensions.durableTask` — and, as in Azure, overridable by app settings
 * `AzureFunctionsJobHost__extensions__durableTask__<path>`:
 *
 * - `hubName` (default: derived from the host id, see {@link defaultTaskHub})
 * - `storageProvider.connectionName` (default `AzureWebJobsStorage`; the obsolete
 *   `connectionStringName` is still read, when `connectionName` is not set)
 * - `storageProvider.workItemQueueVisibilityTimeout` (TimeSpan; the message lease, default 30 s)
 * - `storageProvider.maxQueuePollingInterval` (TimeSpan; longest idle poll wait, default 30 s)
 * - `maxConcurrentActivityFunctions`, `maxConcurrentOrchestratorFunctions` (default 10 and 5,
 *   the extension's Consumption defaults)
 * - `storageProvider.partitionCount` (1-16, default 4): checked as the extension checks it; the
 *   local runtime has one control queue whatever the count (docs/durable.md).
 */
import { parseTimeSpan } from '../host/config/timeSpan';
import type { DurableTuning } from './runtime';

/** host.json `extensions.durableTask` as far as the local runtime reads it. */
export interface DurableTaskJson {
  hubName?: unknown;
  maxConcurrentActivityFunctions?: unknown;
  maxConcurrentOrchestratorFunctions?: unknown;
  storageProvider?: {
    connectionStringName?: unknown;
    connectionName?: unknown;
    workItemQueueVisibilityTimeout?: unknown;
    maxQueuePollingInterval?: unknown;
    partitionCount?: unknown;
  };
}

/** The durable settings of host.json (`extensions.durableTask`), with their defaults. */
export interface DurableHostSettings {
  /** Undefined when not configured. */
  taskHub?: string;
  connectionName: string;
  tuning: Partial<DurableTuning>;
  /** `storageProvider.partitionCount` when set (the local runtime polls one control queue). */
  partitionCount?: number;
}

/**
 * The hub of a host that configures none: `Hub` + the host id's letters and digits. Like Azure
 * (where the default comes from the app's name), it is stable for one app — the host id is
 * derived from the app folder — and the test helper's unique host ids keep test hosts apart.
 */
export function defaultTaskHub(hostId: string): string {
  return `Hub${hostId.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 45);
}
/** The app setting that names the storage connection when host.json names none. */
export const DEFAULT_CONNECTION_SETTING = 'AzureWebJobsStorage';
/** The prefix of app settings that override host.json `extensions.durableTask` values. */
export const SETTING_PREFIX = 'AzureFunctionsJobHost__extensions__durableTask__';

/**
 * Reads the settings: app settings first, then host.json, then defaults.
 *
 * @throws {Error} naming the setting when a value is malformed.
 */
export function readDurableHostSettings(
  hostJson: DurableTaskJson | undefined,
  env: Record<string, string | undefined>,
): DurableHostSettings {
  const fromSetting = (path: string[]): string | undefined => {
    const value = env[`${SETTING_PREFIX}${path.join('__')}`];
    return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
  };
  const pick = (path: string[]): unknown => {
    const fromEnv = fromSetting(path);
    if (fromEnv !== undefined) return fromEnv;
    let node: unknown = hostJson;
    for (const key of path)
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    return node;
  };
  const text = (path: string[]): string | undefined => {
    const value = pick(path);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string')
      throw new Error(`durableTask.${path.join('.')} must be a string.`);
    return value;
  };
  const duration = (path: string[]): number | undefined => {
    const value = text(path);
    return value === undefined ? undefined : parseTimeSpan(value, `durableTask.${path.join('.')}`);
  };
  const count = (path: string[]): number | undefined => {
    const value = pick(path);
    if (value === undefined || value === null || value === '') return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`durableTask.${path.join('.')} must be a whole number ≥ 1.`);
    return n;
  };

  const tuning: Partial<DurableTuning> = {};
  const visibility = duration(['storageProvider', 'workItemQueueVisibilityTimeout']);
  if (visibility !== undefined) tuning.leaseSeconds = Math.max(1, Math.round(visibility / 1000));
  const polling = duration(['storageProvider', 'maxQueuePollingInterval']);
  if (polling !== undefined) tuning.maxPollIntervalMs = Math.max(50, polling);
  const activities = count(['maxConcurrentActivityFunctions']);
  if (activities !== undefined) tuning.activityConcurrency = activities;
  const orchestrators = count(['maxConcurrentOrchestratorFunctions']);
  if (orchestrators !== undefined) tuning.orchestrationConcurrency = orchestrators;

  const partitionCount = count(['storageProvider', 'partitionCount']);
  if (partitionCount !== undefined && partitionCount > 16) {
    throw new Error('durableTask.storageProvider.partitionCount must be between 1 and 16.');
  }

  return {
    ...(partitionCount !== undefined ? { partitionCount } : {}),
    taskHub: text(['hubName']),
    // connectionName is the current name (host.json uses it), connectionStringName the obsolete
    // one: an app setting of either beats host.json, and then the current name wins.
    connectionName:
      fromSetting(['storageProvider', 'connectionName']) ??
      fromSetting(['storageProvider', 'connectionStringName']) ??
      text(['storageProvider', 'connectionName']) ??
      text(['storageProvider', 'connectionStringName']) ??
      DEFAULT_CONNECTION_SETTING,
    tuning,
  };
}
