/** Chooses the organisation-wide last-name store by `LASTNAME_INDEX_MODE`. */
import type { TableClient } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import type { LastNameIndexMode } from '../../config';
import { blobLastNameStore } from './lastNameBlobStore';
import { entityLastNameStore, type EntityLastNameStoreOptions } from './lastNameEntityStore';
import type { LastNameStore } from './lastNameStore';

/** The store of `mode`: `entity` (option 3, in `index`) or `blob` (option 1, in `container`). */
export function lastNameStoreFor(
  mode: LastNameIndexMode,
  index: TableClient,
  container: ContainerClient,
  options: EntityLastNameStoreOptions = {},
): LastNameStore {
  return mode === 'blob' ? blobLastNameStore(container) : entityLastNameStore(index, options);
}
