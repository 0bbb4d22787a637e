/**
 * The photos container for a move between departments held by different accounts: blob clients
 * come from the container of the account that holds the department their name starts with
 * (`Sales/000223/<version>`), so the move's copy reads one account and writes the other.
 */
import { withOverrides } from '../overrides';
import type { ContainerClient } from '@azure/storage-blob';
import { parsePhotoBlobName } from '../../storage/keys/blobs/photoBlobs';

/**
 * A container stand-in that routes blob clients by the department in the blob's name.
 *
 * @param byDepartment - the container of each department involved (resolved beforehand).
 * @param fallback - for any other name.
 */
export function routedPhotoContainer(
  byDepartment: ReadonlyMap<string, ContainerClient>,
  fallback: ContainerClient,
): ContainerClient {
  const containerOf = (blobName: string): ContainerClient =>
    byDepartment.get(parsePhotoBlobName(blobName)?.department ?? '') ?? fallback;
  const overrides = {
    getBlockBlobClient: (blobName: string) => containerOf(blobName).getBlockBlobClient(blobName),
    getBlobClient: (blobName: string) => containerOf(blobName).getBlobClient(blobName),
    // Each account's container (a department's first photo in an account creates it there).
    createIfNotExists: async () => {
      for (const container of new Set([...byDepartment.values(), fallback])) {
        await container.createIfNotExists();
      }
      return { succeeded: true };
    },
  };
  return withOverrides(fallback, overrides);
}
