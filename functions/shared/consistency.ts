/**
 * Process-wide services of the queue-driven parts (archive, asynchronous indexes, photos), built
 * from the configuration and the shared storage clients.
 */
import { getConfig } from '../../src/config';
import type { ArchiveDependencies } from '../../src/archive/archiveEmployee';
import { createDirectory } from '../../src/directory/directory';
import {
  configuredBackgroundChangeQueue,
  configuredIndexStores,
} from '../../src/indexing/configuredIndexing';
import type { IndexStores } from '../../src/indexing/indexMaintenance';
import type { ChangeQueue } from '../../src/indexing/queueChangeSink';
import type { PhotoDependencies } from '../../src/photos/photos';
import { accountKeySigner, userDelegationSigner } from '../../src/sas/blobSas';
import { resolveKeyedStorage } from '../../src/sas/signingKey';
import { getStorageClients } from '../../src/storage/clients';
import { directoryServices } from './directory';

let stores: IndexStores | undefined;
let photos: PhotoDependencies | undefined;
let archiveChanges: ChangeQueue | undefined;
let archiveDirectory: ArchiveDependencies['directory'] | undefined;

/** The index tables and the configured last-name store. */
export function indexStores(): IndexStores {
  stores ??= configuredIndexStores(getConfig(), getStorageClients());
  return stores;
}

/** What the archive worker needs. */
export function archiveDependencies(): ArchiveDependencies {
  const config = getConfig();
  const clients = getStorageClients();
  // Its own directory, whose index nudges wait a second (configuredBackgroundChangeQueue).
  archiveChanges ??= configuredBackgroundChangeQueue(config, clients);
  archiveDirectory ??= createDirectory({
    employees: clients.table(config.tables.employees),
    departmentCacheTtlMs: config.directory.departmentCacheTtlMs,
    changes: archiveChanges,
  }).employees;
  return {
    employees: clients.table(config.tables.employees),
    archive: clients.table(config.tables.archive),
    directory: archiveDirectory,
    // The archive message re-publishes on a replay, so the delete need not announce.
    changes: archiveChanges,
  };
}

/** What the photo feature needs (service SAS with the account key, user delegation otherwise). */
export function photoDependencies(): PhotoDependencies {
  if (!photos) {
    const config = getConfig();
    const clients = getStorageClients();
    const keyed = resolveKeyedStorage(clients, config);
    const blobService = clients.blobService();
    photos = {
      employees: clients.table(config.tables.employees),
      archive: clients.table(config.tables.archive),
      photos: clients.container(config.containers.photos),
      directory: directoryServices().employees,
      signer: keyed
        ? accountKeySigner(keyed.key)
        : userDelegationSigner(
            blobService,
            config.sas.accountName ?? blobService.accountName,
            config.sas.maxMinutes * 60_000,
          ),
      allowHttp: clients.isLoopback,
      readSasSeconds: config.sas.defaultMinutes * 60,
    };
  }
  return photos;
}
