/** What the SAS service hands out: the token, where to use it, and what it allows. */
import type { BlobSasKind } from '../storage/blobSas';
import type { TableSasScope } from './tableSas';

/** Fields every grant has. */
interface GrantBase {
  /** Where to send requests: see {@link TableSasGrant.url} and {@link BlobSasGrant.url}. */
  url: string;
  /** The SAS token (query string without `?`). */
  sas: string;
  startsOn: string;
  expiresOn: string;
  /** Granted permissions in SAS notation (`r`, `c`, `rl`). */
  permissions: string;
  /** The credential that signed the token. */
  signedWith: BlobSasKind;
}

/** A read-only SAS on one table partition. */
export interface TableSasGrant extends GrantBase, TableSasScope {
  /** The table service endpoint: `new TableClient(url, table, new AzureSASCredential(sas))`. */
  url: string;
  /** The stored access policy the token is bound to (revocable by rotation). */
  policyId?: string;
}

/** A SAS on one blob or on a container. */
export interface BlobSasGrant extends GrantBase {
  /** The blob (or container) URL with the SAS appended, usable as is. */
  url: string;
  container: string;
  blobName?: string;
  /**
   * The logs container of every account, when logs are spread over several (docs/accounts.md):
   * each with its own URL and token; `url` and `sas` above are the home account's.
   */
  accounts?: { account: string; url: string; sas: string }[];
  /**
   * Headers the upload must send with `PUT <url>` (a write grant): `x-ms-blob-type: BlockBlob`,
   * without which storage refuses the Put Blob (400).
   */
  headers?: UploadHeaders;
}

/** What a photo upload sends besides its bytes and content type. */
export interface UploadHeaders {
  'x-ms-blob-type': 'BlockBlob';
}

/** Read an employee's current photo, or upload a new version of it. */
export type PhotoAccess = 'read' | 'write';
