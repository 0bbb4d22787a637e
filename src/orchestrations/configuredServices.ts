/**
 * The orchestration services over the configured storage (one instance per process).
 */
import { getConfig } from '../config';
import { createContext } from '../directory/context';
import { createDirectory } from '../directory/directory';
import { lastNameStoreFor } from '../indexing/lastNameStores';
import { queueChangeSink } from '../indexing/queueChangeSink';
import { getStorageClients } from '../storage/clients';
import type { OrchestrationServices } from './services';

let services: OrchestrationServices | undefined;

/**
 * The services the activities use, over the configured tables, queue and container. Directory
 * changes go to the `index-updates` queue as for every other writer.
 *
 * @throws {ConfigError} when the storage connection is not configured.
 */
export function configuredServices(): OrchestrationServices {
  if (!services) {
    const config = getConfig();
    const clients = getStorageClients();
    const employees = clients.table(config.tables.employees);
    const index = clients.table(config.tables.employeeIndex);
    const changes = queueChangeSink(clients.queue(config.queues.indexUpdates));
    services = {
      directory: createContext({ employees, changes }),
      employees: createDirectory({ employees, changes }).employees,
      archive: clients.table(config.tables.archive),
      indexStores: {
        employees,
        index,
        lastNames: lastNameStoreFor(
          config.directory.lastNameIndexMode,
          index,
          clients.container(config.containers.lastNameIndex),
        ),
      },
    };
  }
  return services;
}
