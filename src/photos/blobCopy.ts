/**
 * Copying one photo blob to another name, in the same account or across accounts (a move between
 * departments placed in different accounts, docs/accounts.md).
 */
import type { BlockBlobClient } from '@azure/storage-blob';
import type { PhotoBlobs } from './dependencies';
import { creatingOnMissing, isContainerMissing } from '../storage/createOnce';

/** Whether two blob URLs are in the same account (same origin and account path on the emulator). */
function sameAccount(a: string, b: string): boolean {
  const account = (url: string): string => {
    const parsed = new URL(url);
    // The emulator names the account in the path; Azure in the host.
    return /^(127\.|localhost$|\[::1\]$)/.test(parsed.hostname)
      ? `${parsed.origin}/${parsed.pathname.split('/')[1]}`
      : parsed.origin;
  };
  return account(a) === account(b);
}

/**
 * Copies `source` onto `copy` (in `container`): server-side within an account; across accounts
 * the bytes come through the app (at most 16 MiB), as a copy there would need a SAS on the source.
 *
 * @throws {RestError} from the storage SDK for the source (the caller maps it); a
 *   DomainError mapped from one for the cross-account upload (`creatingOnMissing`).
 */
export async function copyPhotoBlob(
  container: PhotoBlobs,
  source: BlockBlobClient,
  copy: BlockBlobClient,
): Promise<void> {
  if (sameAccount(source.url, copy.url)) {
    const poller = await copy.beginCopyFromURL(source.url);
    await poller.pollUntilDone();
    return;
  }
  const [bytes, properties] = await Promise.all([
    source.downloadToBuffer(),
    source.getProperties(),
  ]);
  await creatingOnMissing(
    () =>
      copy.uploadData(bytes, {
        blobHTTPHeaders: { blobContentType: properties.contentType },
        metadata: properties.metadata,
      }),
    () => container.createIfNotExists(),
    isContainerMissing,
  );
}
