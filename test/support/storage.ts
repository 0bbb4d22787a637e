/**
 * Per-test storage: clients for the shared Azurite and unique names, so tests never share a
 * table, queue or container.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { createStorageClients, type StorageClients } from '../../src/storage/clients';

/** The Azurite connection string the global setup started. */
export function azuriteConnectionString(): string {
  const value = process.env.AzureWebJobsStorage;
  if (!value)
    throw new Error('AzureWebJobsStorage is not set: run tests through jest (global setup).');
  return value;
}

/** Clients on the shared Azurite (or on `connectionString`, e.g. the fault proxy's). */
export function testClients(connectionString = azuriteConnectionString()): StorageClients {
  const config = loadConfig({ ...process.env, AzureWebJobsStorage: connectionString });
  return createStorageClients(config.storage, config.retry);
}

/** A unique table name: letters and digits, starting with `prefix` (letters only). */
export function uniqueTableName(prefix = 'T'): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

/** A unique queue or container name: lowercase, starting with `prefix`. */
export function uniqueName(prefix = 't'): string {
  return `${prefix.toLowerCase()}-${randomBytes(6).toString('hex')}`;
}
