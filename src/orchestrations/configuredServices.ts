/**
 * The orchestration services over the configured storage (one instance per process).
 */
import { getConfig } from '../config';
import { createContext } from '../directory/context';
import { createDirectory } from '../directory/directory';
import { configuredChangeQueue, configuredIndexStores } from '../indexing/configuredIndexing';
import { getStorageClients } from '../storage/clients';
import type { OrchestrationServices } from './services';

let services: OrchestrationServices | undefined;

/**
 * The services the activities use, over the configured tables, queue and container. Directory
 * changes go to the `index-updates` queue as for every other writer; queue and index stores are
 * built by src/indexing/configuredIndexing.ts, as for the queue workers.
 *
 * @throws {SettingUnavailableError} when a setting it needs cannot be used (e.g. no storage connection).
 */
export function configuredServices(): OrchestrationServices {
  if (!services) {
    const config = getConfig();
    const clients = getStorageClients();
    const employees = clients.table(config.tables.employees);
    const changes = configuredChangeQueue(config, clients);
    services = {
      directory: createContext({ employees, changes }),
      employees: createDirectory({ employees, changes }).employees,
      archive: clients.table(config.tables.archive),
      photos: clients.container(config.containers.photos),
      indexStores: configuredIndexStores(config, clients),
      changes,
    };
  }
  return services;
}
