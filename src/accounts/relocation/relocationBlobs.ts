/**
 * The photo blobs of a relocation (relocationRows.ts has its rows): listed a page at a time,
 * copied through the app, deleted only as listed; each call waits out a busy account.
 */
import type { ContainerClient } from '@azure/storage-blob';
import { whileBusy } from '../../storage/busyRetry';
import { mapBounded } from '../../storage/parallel';
import { isNotFound, isPreconditionFailed, withStorageErrors } from '../../storage/storageFaults';

/**
 * Copies photo blobs from one account's container to another's (bytes through the app: a copy
 * across accounts would need a SAS on the source), with their content type and metadata. A blob
 * gone meanwhile is skipped.
 *
 * @throws {DomainError} for storage faults.
 */
export async function copyBlobs(
  from: ContainerClient,
  to: ContainerClient,
  names: readonly string[],
): Promise<number> {
  if (names.length === 0) return 0;
  await withStorageErrors(() => to.createIfNotExists());
  const copied = await mapBounded(names, 4, (name) => whileBusy(() => copyBlob(from, to, name)));
  return copied.reduce<number>((n, c) => n + c, 0);
}

/** One photo copied (1), or gone meanwhile (0). */
function copyBlob(from: ContainerClient, to: ContainerClient, name: string): Promise<number> {
  return withStorageErrors(async () => {
    const source = from.getBlockBlobClient(name);
    try {
      const [bytes, properties] = await Promise.all([
        source.downloadToBuffer(),
        source.getProperties(),
      ]);
      await to.getBlockBlobClient(name).uploadData(bytes, {
        blobHTTPHeaders: { blobContentType: properties.contentType },
        metadata: properties.metadata,
      });
      return 1;
    } catch (error) {
      if (isNotFound(error)) return 0;
      throw error;
    }
  });
}

/**
 * One page of the department's photo blob names in one account, with each blob's ETag as listed.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readBlobPage(
  container: ContainerClient,
  department: string,
  token: string | undefined,
  max: number,
): Promise<{ names: string[]; etags: string[]; next: string | undefined }> {
  return whileBusy(() =>
    withStorageErrors(async () => {
      try {
        const page = await container
          .listBlobsFlat({ prefix: `${department}/` })
          .byPage({ maxPageSize: max, continuationToken: token })
          .next();
        if (page.done) return { names: [], etags: [], next: undefined };
        const blobs = page.value.segment.blobItems;
        return {
          names: blobs.map((blob) => blob.name),
          etags: blobs.map((blob) => blob.properties.etag),
          next: page.value.continuationToken || undefined,
        };
      } catch (error) {
        if (isNotFound(error)) return { names: [], etags: [], next: undefined };
        throw error;
      }
    }),
  );
}

/**
 * Deletes one photo blob only as it was listed (`etag`): a blob written again since is kept, and
 * one gone already is fine.
 *
 * @throws {DomainError} for storage faults.
 */
export async function deleteBlobAsListed(
  container: ContainerClient,
  name: string,
  etag: string | undefined,
): Promise<void> {
  await whileBusy(() =>
    withStorageErrors(async () => {
      try {
        await container.getBlockBlobClient(name).deleteIfExists({ conditions: { ifMatch: etag } });
      } catch (error) {
        if (!isPreconditionFailed(error) && !isNotFound(error)) throw error;
      }
    }),
  );
}
