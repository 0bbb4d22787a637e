/**
 * The sweep after an employee left (the index worker's `removePhotosOfGoneEmployee`) spares
 * versions younger than the grace period: the employee may be created again (or moved back) and be
 * about to adopt a version uploaded (or copied) just now. Right before each delete the sweep reads
 * the employee's photo again, and it deletes a version only as it listed it (its ETag).
 */
import {
  adoptUploadedPhoto,
  PHOTO_SWEEP_GRACE_MS,
  removePhotosOfGoneEmployee,
  sweepPhotos,
  type PhotoDependencies,
} from '../../../src/photos/photos';
import { newPhotoVersion } from '../../../src/photos/dependencies';
import { photoBlobName } from '../../../src/storage/keys/blobs/photoBlobs';
import { pngImage } from '../../support/images';
import { photoFixture, removePhotoFixture } from './fixture';

let deps: PhotoDependencies;
beforeEach(async () => {
  deps = await photoFixture('Gr', { employee: false });
  await deps.photos.createIfNotExists();
});
afterEach(() => removePhotoFixture(deps));

const create = () =>
  deps.directory.create('Sales', {
    employeeId: '000001',
    firstName: 'A',
    lastName: 'B',
    email: 'a@b.example',
  });
/** A version uploaded the way a write SAS lets a client do it: one Put Blob, not adopted yet. */
const uploadUnadopted = async (): Promise<string> => {
  const name = photoBlobName('Sales', '000001', newPhotoVersion(new Date()));
  const bytes = pngImage();
  await deps.photos
    .getBlockBlobClient(name)
    .upload(bytes, bytes.length, { blobHTTPHeaders: { blobContentType: 'image/png' } });
  return name;
};
const exists = (name: string) => deps.photos.getBlockBlobClient(name).exists();
const later = (ms: number) => () => new Date(Date.now() + ms);

it('keeps a version just uploaded for the re-created employee, which then adopts it', async () => {
  await create();
  await deps.directory.delete('Sales', '000001');
  // Created again, and a client uploads its photo; the worker's sweep of the old one runs now.
  await create();
  const name = await uploadUnadopted();
  expect(await removePhotosOfGoneEmployee(deps, 'Sales', '000001')).toEqual([]);
  expect(await exists(name)).toBe(true);
  const adopted = await adoptUploadedPhoto(deps, 'Sales', '000001', name);
  expect(adopted.blobName).toBe(name);

  // Past the grace period an unadopted version of a gone employee does go.
  await deps.directory.delete('Sales', '000001');
  const stray = await uploadUnadopted();
  const swept = await removePhotosOfGoneEmployee(
    { ...deps, now: later(PHOTO_SWEEP_GRACE_MS + 60_000) },
    'Sales',
    '000001',
  );
  expect(swept.sort()).toEqual([name, stray].sort());
});

it('reads the photo again right before deleting: a version adopted meanwhile stays', async () => {
  await create();
  const name = await uploadUnadopted();
  const sweeping = {
    ...deps,
    now: later(PHOTO_SWEEP_GRACE_MS + 60_000),
    // Between the listing and the delete, the employee adopts the version.
    sweepHooks: {
      beforeRecheck: async () => {
        await adoptUploadedPhoto(deps, 'Sales', '000001', name);
      },
    },
  };
  expect(await sweepPhotos(sweeping, 'Sales', '000001', [])).toEqual([]);
  expect(await exists(name)).toBe(true);
});

it('deletes a version only as it listed it: one written again meanwhile stays', async () => {
  await create();
  const name = await uploadUnadopted();
  const sweeping = {
    ...deps,
    now: later(PHOTO_SWEEP_GRACE_MS + 60_000),
    sweepHooks: {
      beforeRecheck: async () => {
        const bytes = pngImage([9, 9, 9]);
        await deps.photos.getBlockBlobClient(name).upload(bytes, bytes.length);
      },
    },
  };
  expect(await sweepPhotos(sweeping, 'Sales', '000001', [])).toEqual([]);
  expect(await exists(name)).toBe(true);
});
