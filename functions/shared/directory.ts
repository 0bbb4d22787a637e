/**
 * The process-wide directory services for the HTTP adapters, built from the configuration and
 * the shared storage clients (input shapes: ./input.ts).
 */
import { getConfig } from '../../src/config';
import { createDirectory, type Directory } from '../../src/directory/directory';
import { withAnnouncements } from '../../src/indexing/announcingEmployees';
import { configuredChangeQueue } from '../../src/indexing/configuredIndexing';
import { getStorageClients } from '../../src/storage/clients';

let directory: Directory | undefined;

/**
 * The directory over the configured `Employees` table (created on first use).
 *
 * @throws {SettingUnavailableError} when a setting it needs cannot be used (e.g. no storage connection).
 */
export function directoryServices(): Directory {
  if (!directory) {
    const config = getConfig();
    // Every committed employee change goes to `index-updates` (asynchronous indexes, docs/queues.md).
    const changes = configuredChangeQueue(config, getStorageClients());
    const services = createDirectory({
      employees: getStorageClients().table(config.tables.employees),
      departmentCacheTtlMs: config.directory.departmentCacheTtlMs,
      changes,
    });
    directory = { ...services, employees: withAnnouncements(services.employees, changes) };
  }
  return directory;
}
