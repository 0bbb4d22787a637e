/**
 * What the photo feature works on, and the names of the versions it writes (shared by uploads here
 * and write SAS issued by src/sas/service.ts).
 */
import { randomBytes } from 'node:crypto';
import type { BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import type { EmployeeService } from '../directory';
import type { BlobSasSigner } from '../storage/blobSas';
import type { TableAccess } from '../storage/tables/tableAccess';

/**
 * What a move's copy of a photo uses of the photos container: the SDK's `ContainerClient`, or
 * the account layer's container that takes each blob from the account holding the department its
 * name starts with (src/accounts/routing/routedPhotos.ts).
 */
export interface PhotoBlobs {
  getBlockBlobClient(blobName: string): BlockBlobClient;
  /** Creates the container (in every account it stands for); an existing one is fine. */
  createIfNotExists(): Promise<unknown>;
}

/** What the photo feature works on. */
export interface PhotoDependencies {
  /** `Employees` (the entity that names the photo). */
  employees: TableAccess;
  /** `EmployeesArchive` (an archived employee keeps its photo). */
  archive: TableAccess;
  /** The `photos` container. */
  photos: ContainerClient;
  /**
   * The directory's employees: `writePhoto` names a photo on the employee and its email copy in
   * one transaction, `publish` publishes the change it returns.
   */
  directory: EmployeeService;
  /** Signs read SAS (service SAS with a key, user delegation otherwise). */
  signer: BlobSasSigner;
  /** Whether plain HTTP may be signed (local emulator). */
  allowHttp: boolean;
  /** Lifetime of a read SAS, seconds (default 300). */
  readSasSeconds?: number;
  /**
   * The longest validity (`se` − `st`) a token may have, seconds: `SAS_MAX_MINUTES`, the account's
   * SAS expiration policy (default: `readSasSeconds` plus the clock-skew backdating).
   */
  maxSasSeconds?: number;
  /**
   * Unreferenced versions younger than this are kept (in-flight SAS uploads; default
   * {@link PHOTO_SWEEP_GRACE_MS}).
   */
  sweepGraceMs?: number;
  now?: () => Date;
  /** Test hooks of the sweeps (pauses between their steps). */
  sweepHooks?: {
    /** Before the references are read again for one version about to be deleted. */
    beforeRecheck?: (blobName: string) => Promise<void> | void;
  };
}

/** The time of `deps` (its clock, or the machine's). */
export function now(deps: PhotoDependencies): Date {
  return deps.now?.() ?? new Date();
}

/** A fresh, time-ordered photo version: `0001763800000000-1a2b3c4d5e6f`. */
export function newPhotoVersion(at: Date): string {
  return `${String(at.getTime()).padStart(16, '0')}-${randomBytes(6).toString('hex')}`;
}
