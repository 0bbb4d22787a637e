/**
 * The orchestration services over the configured storage (one instance per process).
 */
import { getConfig } from '../config';
import { createContext } from '../directory/context';
import { queueChangeSink } from '../indexing/queueChangeSink';
import { getStorageClients } from '../storage/clients';
import type { OrchestrationServices, OutsideIndexes } from './services';

let services: OrchestrationServices | undefined;

/**
 * The services the activities use, over the configured tables and queues.
 *
 * @throws {ConfigError} when the storage connection is not configured.
 */
export function configuredServices(): OrchestrationServices {
  if (!services) {
    const config = getConfig();
    const clients = getStorageClients();
    const changes = queueChangeSink(clients.queue(config.queues.indexUpdates));
    const outsideIndexes: OutsideIndexes = {
      reindex: (targets) => changes.publish(targets.map((t) => ({ ...t, reason: 'moved' }))),
    };
    services = {
      directory: createContext({
        employees: clients.table(config.tables.employees),
        changes,
      }),
      outsideIndexes,
    };
  }
  return services;
}
