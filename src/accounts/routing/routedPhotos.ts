/**
 * The photos container for a move between departments held by different accounts: blob clients
 * come from the container of the account that holds the department their name starts with
 * (`Sales/000223/<version>`), so the move's copy reads one account and writes the other.
 */
import type { BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import type { PhotoBlobs } from '../../photos/dependencies';
import { parsePhotoBlobName } from '../../storage/keys/blobs/photoBlobs';

/** See the file comment. */
export class RoutedPhotoContainer implements PhotoBlobs {
  /**
   * @param byDepartment - the container of each department involved (resolved beforehand).
   * @param fallback - for any other name.
   */
  constructor(
    private readonly byDepartment: ReadonlyMap<string, ContainerClient>,
    private readonly fallback: ContainerClient,
  ) {}

  getBlockBlobClient(blobName: string): BlockBlobClient {
    return this.containerOf(blobName).getBlockBlobClient(blobName);
  }

  /** Each account's container (a department's first photo in an account creates it there). */
  async createIfNotExists(): Promise<{ succeeded: true }> {
    for (const container of new Set([...this.byDepartment.values(), this.fallback])) {
      await container.createIfNotExists();
    }
    return { succeeded: true };
  }

  private containerOf(blobName: string): ContainerClient {
    return this.byDepartment.get(parsePhotoBlobName(blobName)?.department ?? '') ?? this.fallback;
  }
}
