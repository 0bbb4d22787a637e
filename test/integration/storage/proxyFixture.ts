/**
 * The fault proxy in front of the test run's Azurite, and clients that talk through it with
 * settings of the test's choosing (retry budget, try timeout) read by the project's own config.
 */
import { loadConfig } from '../../../src/config';
import { createStorageClients, type StorageClients } from '../../../src/storage/clients';
import type { AzuritePorts } from '../../../tools/azurite';
import {
  startFaultProxy,
  type FaultProxy,
  type FaultSettings,
} from '../../../tools/faultProxy/faultProxy';

/** The ports of the Azurite that the global setup started. */
export function azuritePorts(): AzuritePorts {
  const raw = process.env.TEST_AZURITE_PORTS;
  if (!raw)
    throw new Error('TEST_AZURITE_PORTS is not set: run tests through jest (global setup).');
  return JSON.parse(raw) as AzuritePorts;
}

/** A proxy of this test file's own, forwarding to the shared Azurite. */
export function startTestProxy(faults?: FaultSettings): Promise<FaultProxy> {
  return startFaultProxy({ target: azuritePorts(), faults });
}

/**
 * Clients whose traffic goes through `proxy`, created by `createStorageClients` from a config
 * with `settings` (e.g. `{ STORAGE_MAX_RETRIES: '0' }`) over the test environment.
 */
export function clientsThrough(
  proxy: FaultProxy,
  settings: Record<string, string> = {},
): StorageClients {
  const config = loadConfig({
    ...process.env,
    ...settings,
    AzureWebJobsStorage: proxy.connectionString,
  });
  return createStorageClients(config.storage, config.retry);
}

/** Runs `work` for each item one after the other, so a seeded fault sequence replays exactly. */
export async function inSequence<T>(
  items: readonly T[],
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  for (const item of items) await work(item);
}

/** Collects every item of an async iterable (entity and blob listings). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
