/**
 * The parts of host.json the local host honours: the HTTP route prefix, the queue trigger
 * settings and `functionTimeout`, with the Functions host's defaults for what is absent.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parseTimeSpan } from './timeSpan';

/** How queue messages are encoded (`extensions.queues.messageEncoding`). */
export type MessageEncoding = 'base64' | 'none';

/** host.json `extensions.queues`, in milliseconds where the file has TimeSpans. */
export interface QueueOptions {
  maxPollingIntervalMs: number;
  visibilityTimeoutMs: number;
  batchSize: number;
  newBatchThreshold: number;
  maxDequeueCount: number;
  messageEncoding: MessageEncoding;
}

/** The host.json settings the local host honours, with their defaults. */
export interface HostSettings {
  /** Without slashes; '' serves functions at the root. */
  routePrefix: string;
  queues: QueueOptions;
  /** undefined = no limit (`"-1"`). */
  functionTimeoutMs: number | undefined;
  /** host.json `extensions.durableTask` as written, for a durable extension to read. */
  durableTask?: Record<string, unknown>;
}

/** A file problem the host reports before starting. */
export class HostJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostJsonError';
  }
}

/** Default `functionTimeout` of a dedicated (non-Consumption) plan. */
export const DEFAULT_FUNCTION_TIMEOUT_MS = 30 * 60_000;

type Json = Record<string, unknown>;

function section(parent: Json, key: string, path: string): Json {
  const value = parent[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new HostJsonError(`host.json ${path} must be an object.`);
  }
  return value as Json;
}

function duration(
  value: unknown,
  path: string,
  fallbackMs: number,
  legacyMilliseconds = false,
): number {
  if (value === undefined || value === null) return fallbackMs;
  // Version 1 of the queue extension took maxPollingInterval in milliseconds.
  if (legacyMilliseconds && typeof value === 'number' && Number.isFinite(value) && value >= 0)
    return value;
  if (typeof value !== 'string')
    throw new HostJsonError(`host.json ${path} must be a TimeSpan string like "00:00:30".`);
  try {
    const ms = parseTimeSpan(value, `host.json ${path}`);
    if (ms < 0) throw new HostJsonError(`host.json ${path} must not be negative.`);
    return ms;
  } catch (error) {
    throw new HostJsonError((error as Error).message);
  }
}

function integer(value: unknown, path: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new HostJsonError(
      `host.json ${path} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** The queue listener never polls faster than every 100 ms; the host refuses a lower maximum. */
export const MIN_POLLING_INTERVAL_MS = 100;

function minimumPollingInterval(ms: number): number {
  if (ms < MIN_POLLING_INTERVAL_MS) {
    throw new HostJsonError(
      `host.json extensions.queues.maxPollingInterval must be at least ${MIN_POLLING_INTERVAL_MS} ms.`,
    );
  }
  return ms;
}

/**
 * Reads the host settings from parsed host.json content.
 *
 * @param processorCount - scales the default `newBatchThreshold` (batchSize / 2 per processor).
 * @throws {HostJsonError} for a malformed setting, naming it.
 */
export function readHostSettings(
  hostJson: unknown,
  processorCount = os.availableParallelism(),
): HostSettings {
  if (typeof hostJson !== 'object' || hostJson === null || Array.isArray(hostJson)) {
    throw new HostJsonError('host.json must contain a JSON object.');
  }
  const root = hostJson as Json;
  if (root.version !== undefined && root.version !== '2.0') {
    throw new HostJsonError(
      `host.json "version" must be "2.0", got ${JSON.stringify(root.version)}.`,
    );
  }
  const extensions = section(root, 'extensions', 'extensions');
  const http = section(extensions, 'http', 'extensions.http');
  const queues = section(extensions, 'queues', 'extensions.queues');

  const rawPrefix = http.routePrefix ?? 'api';
  if (typeof rawPrefix !== 'string')
    throw new HostJsonError('host.json extensions.http.routePrefix must be a string.');
  const routePrefix = rawPrefix.replace(/^\/+|\/+$/g, '');

  const batchSize = integer(queues.batchSize, 'extensions.queues.batchSize', 16, 1, 32);
  const encoding = queues.messageEncoding ?? 'base64';
  if (typeof encoding !== 'string' || !['base64', 'none'].includes(encoding.toLowerCase())) {
    throw new HostJsonError(
      `host.json extensions.queues.messageEncoding must be "base64" or "none", got ${JSON.stringify(encoding)}.`,
    );
  }

  let functionTimeoutMs: number | undefined = DEFAULT_FUNCTION_TIMEOUT_MS;
  if (root.functionTimeout === '-1' || root.functionTimeout === -1) functionTimeoutMs = undefined;
  else if (root.functionTimeout !== undefined && root.functionTimeout !== null) {
    functionTimeoutMs = duration(
      root.functionTimeout,
      'functionTimeout',
      DEFAULT_FUNCTION_TIMEOUT_MS,
    );
    if (functionTimeoutMs === 0)
      throw new HostJsonError('host.json functionTimeout must be positive (or "-1" for none).');
  }

  return {
    routePrefix,
    queues: {
      maxPollingIntervalMs: minimumPollingInterval(
        duration(queues.maxPollingInterval, 'extensions.queues.maxPollingInterval', 60_000, true),
      ),
      visibilityTimeoutMs: duration(
        queues.visibilityTimeout,
        'extensions.queues.visibilityTimeout',
        0,
      ),
      batchSize,
      newBatchThreshold: integer(
        queues.newBatchThreshold,
        'extensions.queues.newBatchThreshold',
        Math.floor(batchSize / 2) * Math.max(1, processorCount),
        0,
        10_000,
      ),
      maxDequeueCount: integer(
        queues.maxDequeueCount,
        'extensions.queues.maxDequeueCount',
        5,
        1,
        1_000,
      ),
      messageEncoding: encoding.toLowerCase() as MessageEncoding,
    },
    functionTimeoutMs,
    durableTask:
      extensions.durableTask === undefined
        ? undefined
        : section(extensions, 'durableTask', 'extensions.durableTask'),
  };
}

/**
 * Reads and parses a host.json file.
 *
 * @throws {HostJsonError} when the file is missing, not JSON, or has a malformed setting.
 */
export function loadHostSettings(hostJsonPath: string): HostSettings {
  let text: string;
  try {
    text = fs.readFileSync(hostJsonPath, 'utf8');
  } catch {
    throw new HostJsonError(`host.json not found at ${hostJsonPath}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new HostJsonError(`${hostJsonPath} is not valid JSON: ${(error as Error).message}`);
  }
  return readHostSettings(parsed);
}
