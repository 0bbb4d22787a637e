/**
 * The photo feature (large entities pattern, docs/sas.md): for the home account, for the account
 * that holds one department — its photos container and its signer — and for every account (the
 * sweep of unadopted uploads runs in each). A department's photo feature reads its tables only
 * in the account whose container holds its photos: a photo is never named where it is not.
 */
import type { StorageAccount } from '../../../src/accounts/accounts';
import { forDepartment, PerAccount } from '../../../src/accounts/routing/perAccount';
import { createDirectory } from '../../../src/directory';
import type { PhotoDependencies } from '../../../src/photos/photos';
import { lazySigner } from '../../../src/storage/blobSas';
import type { DirectoryParts } from './directory';
import { lazy, type Foundation } from './foundation';
import type { IndexingServices } from './indexing';
import type { Signing } from './signing';

/** The photo feature as the adapters and the drains use it. */
export interface PhotoServices {
  /** What the photo feature needs in the home account (see {@link PhotoServices.photosFor}). */
  photos(): PhotoDependencies;
  /**
   * What the photo feature needs for one department: the photos container of the account that
   * holds it, and that account's signer (service SAS with its key, user delegation otherwise).
   */
  photosFor(department: string): Promise<PhotoDependencies>;
  /** The photo feature of every account (the sweep of unadopted uploads runs in each). */
  allPhotos(): PhotoDependencies[];
}

/** What the photo builder uses of the other builders. */
export interface PhotoParts {
  directory: DirectoryParts;
  indexing: IndexingServices;
  signing: Signing;
}

/** Builds the photo feature over the foundation. */
export function photoServices(base: Foundation, parts: PhotoParts): PhotoServices {
  const { config, clients, table } = base;
  // `pinned`: the tables of a request serve it only from `account`, whose container holds its
  // photos (a switch meanwhile answers 503 Relocating: a photo is never named where it is not).
  const photosOf = (account: StorageAccount | undefined, pinned = false): PhotoDependencies => {
    const current = config();
    const accountClients = account?.clients ?? clients();
    const spread = pinned ? base.accounts() : undefined;
    const pinTo = account?.name;
    const tableOf = (name: string) =>
      spread && pinTo ? spread.pinnedTable(name, () => pinTo) : table(() => name);
    const employees = tableOf(current.tables.employees);
    return {
      employees,
      archive: tableOf(current.tables.archive),
      photos: accountClients.container(current.containers.photos),
      directory: pinned
        ? createDirectory({ employees, changes: parts.indexing.changeQueue() }).employees
        : parts.directory.directory().employees,
      // Resolved when a read URL is signed: an unusable key fails that URL, not every photo call.
      signer: lazySigner(() => parts.signing.signingOf(account).blobSigner()),
      allowHttp: accountClients.isLoopback,
      readSasSeconds: current.sas.defaultMinutes * 60,
      maxSasSeconds: current.sas.maxMinutes * 60,
      sweepGraceMs: current.photos.sweepGraceMinutes * 60_000,
    };
  };
  const photos = lazy((): PhotoDependencies => photosOf(undefined));
  // Unpinned: the sweeps of each account's container read where the placement says.
  const accountPhotos = lazy(() => new PerAccount(base.accounts()!.accounts, (a) => photosOf(a)));
  const pinnedPhotos = lazy(
    () => new PerAccount(base.accounts()!.accounts, (a) => photosOf(a, true)),
  );
  return {
    photos,
    photosFor: async (department) => {
      const spread = base.accounts();
      return spread ? forDepartment(spread.placement, pinnedPhotos(), department) : photos();
    },
    allPhotos: () =>
      base.accounts()
        ? accountPhotos()
            .all()
            .map(({ instance }) => instance)
        : [photos()],
  };
}
