/**
 * Photos (large entity): upload, replace, delete; the entity names the blob only after it exists,
 * replaced versions are removed, and the read SAS works against Azurite and expires. A direct
 * upload is a photo only when its declared type is a photo type and its bytes are that image; the
 * read token pins the checked type, and Azurite serves it with that type.
 */
import { archiveEmployee } from '../../../src/archive/archiveEmployee';
import {
  adoptUploadedPhoto,
  deletePhoto,
  PHOTO_SWEEP_GRACE_MS,
  photoReadUrl,
  removePhotosOfGoneEmployee,
  uploadPhoto,
  type PhotoDependencies,
} from '../../../src/photos/photos';
import { PHOTO_BLOB_PROPERTY } from '../../../src/photos/photoLocator';
import { employeeRowKey } from '../../../src/storage/keys/tables/employees';
import {
  gifBytes,
  htmlBytes,
  jpegBytes,
  pngImage,
  svgBytes,
  webpBytes,
} from '../../support/images';
import { photoFixture, removePhotoFixture, photoBlobNames } from './fixture';

let deps: PhotoDependencies;
beforeEach(async () => {
  deps = await photoFixture('Ph', { readSasSeconds: 2 });
});
afterEach(() => removePhotoFixture(deps));

const blobs = () => photoBlobNames(deps);

it('uploads, replaces (old version removed), serves a SAS that expires, and deletes', async () => {
  const png1 = pngImage([1, 2, 3]);
  const png2 = pngImage([4, 5, 6]);
  const first = await uploadPhoto(deps, 'Sales', '000001', png1, 'image/png');
  const second = await uploadPhoto(deps, 'Sales', '000001', png2, 'image/png');
  expect(await blobs()).toEqual([second.blobName]);
  const employee = await deps.directory.get('Sales', '000001');
  expect(employee.value.photoUrl).toBe(second.photoUrl);
  // The answer carries the employee's version after the photo was named on it.
  expect(second.etag).toBe(employee.etag);
  expect(first.blobName).not.toBe(second.blobName);

  const { url } = await photoReadUrl(deps, 'Sales', '000001');
  const read = await fetch(url);
  expect(read.status).toBe(200);
  expect(read.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await read.arrayBuffer()).equals(png2)).toBe(true);
  await new Promise((r) => setTimeout(r, 3_000));
  expect((await fetch(url)).status).toBe(403);

  await deletePhoto(deps, 'Sales', '000001');
  expect(await blobs()).toEqual([]);
  await expect(photoReadUrl(deps, 'Sales', '000001')).rejects.toThrow(/no photo/);
  expect((await deps.directory.get('Sales', '000001')).value.photoUrl).toBeUndefined();
});

it("keeps the employee's data version: a PATCH with the ETag read before the photo applies", async () => {
  // The photo is its own resource (PUT …/photo): a PATCH cannot touch it, so the fields a client
  // saw are still current after it changed; the PATCH keeps the photo.
  const before = await deps.directory.get('Sales', '000001');
  const photo = await uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png');
  const patched = await deps.directory.patch(
    'Sales',
    '000001',
    { firstName: 'Patched' },
    { ifMatch: before.etag },
  );
  expect(patched.value).toMatchObject({ firstName: 'Patched', photoUrl: photo.photoUrl });
  await deletePhoto(deps, 'Sales', '000001');
  const after = await deps.directory.patch(
    'Sales',
    '000001',
    { firstName: 'Again' },
    { ifMatch: patched.etag },
  );
  expect(after.value.photoUrl).toBeUndefined();
});

it('refuses non-images and oversize photos, and cleans up after a deleted employee', async () => {
  await expect(
    uploadPhoto(deps, 'Sales', '000001', Buffer.from('x'), 'text/plain'),
  ).rejects.toThrow(/image/);
  const oversize = Buffer.alloc(16 * 1024 * 1024 + 1);
  pngImage().copy(oversize);
  await expect(uploadPhoto(deps, 'Sales', '000001', oversize, 'image/png')).rejects.toMatchObject({
    code: 'PhotoTooLarge',
  });
  await uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png');
  await deps.directory.delete('Sales', '000001');
  // The worker's sweep spares versions younger than the grace period (sweepGrace.test.ts).
  const later = () => new Date(Date.now() + PHOTO_SWEEP_GRACE_MS + 60_000);
  await removePhotosOfGoneEmployee({ ...deps, now: later }, 'Sales', '000001');
  expect(await blobs()).toEqual([]);
});

it('keeps the photo of every archived incarnation of an id after the last one left', async () => {
  const archiveDeps = {
    employees: deps.employees,
    archive: deps.archive,
    directory: deps.directory,
  };
  const photoOf = async () =>
    (await deps.employees.getEntity('Sales', employeeRowKey('000001')))[PHOTO_BLOB_PROPERTY];
  await uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png');
  const first = await photoOf();
  expect((await archiveEmployee(archiveDeps, 'Sales', '000001')).outcome).toBe('archived');
  // Created again with the id, with a photo of its own, and archived in turn.
  await deps.directory.create('Sales', {
    employeeId: '000001',
    firstName: 'C',
    lastName: 'D',
    email: 'c@d.example',
  });
  await uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png');
  const second = await photoOf();
  expect((await archiveEmployee(archiveDeps, 'Sales', '000001')).outcome).toBe('archived');

  await removePhotosOfGoneEmployee(deps, 'Sales', '000001');
  expect((await blobs()).sort()).toEqual([first, second].sort());
  await deps.archive.deleteTable();
});

it('never deletes an archived photo on replace, even when the employee names it', async () => {
  const archiveDeps = {
    employees: deps.employees,
    archive: deps.archive,
    directory: deps.directory,
  };
  const archived = (await uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png')).blobName;
  expect((await archiveEmployee(archiveDeps, 'Sales', '000001')).outcome).toBe('archived');
  await deps.directory.create('Sales', {
    employeeId: '000001',
    firstName: 'C',
    lastName: 'D',
    email: 'c@contoso.com',
  });
  // Adoption now refuses it (409 PhotoBlobArchived): as data written before that rule, the new
  // incarnation names the archived photo itself.
  await expect(adoptUploadedPhoto(deps, 'Sales', '000001', archived)).rejects.toMatchObject({
    code: 'PhotoBlobArchived',
  });
  await deps.employees.updateEntity(
    { partitionKey: 'Sales', rowKey: employeeRowKey('000001'), [PHOTO_BLOB_PROPERTY]: archived },
    'Merge',
  );
  const fresh = await uploadPhoto(deps, 'Sales', '000001', pngImage([7, 8, 9]), 'image/png');
  expect((await blobs()).sort()).toEqual([archived, fresh.blobName].sort());
  await deps.archive.deleteTable();
});

it('stores each photo type with the type its bytes show, and pins it on the read token', async () => {
  for (const [type, bytes] of [
    ['image/jpeg', jpegBytes],
    ['image/gif', gifBytes],
    ['image/webp', webpBytes],
    ['image/png', pngImage()],
  ] as const) {
    // Declared types are case-insensitive and may carry parameters.
    const { blobName } = await uploadPhoto(
      deps,
      'Sales',
      '000001',
      bytes,
      `${type.toUpperCase()}; x=1`,
    );
    const stored = await deps.photos.getBlockBlobClient(blobName).getProperties();
    expect(stored.contentType).toBe(type);
    const { url } = await photoReadUrl(deps, 'Sales', '000001');
    expect(new URL(url).searchParams.get('rsct')).toBe(type);
    const read = await fetch(url);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe(type);
  }
});

it('refuses SVG, HTML and bytes that are not the declared type, storing nothing', async () => {
  await deps.photos.createIfNotExists();
  const refused: [Buffer, string][] = [
    [svgBytes, 'image/svg+xml'],
    [svgBytes, 'image/png'],
    [htmlBytes, 'text/html'],
    [htmlBytes, 'image/gif'],
    [pngImage(), 'image/jpeg'],
    [jpegBytes, 'image/png'],
    [pngImage(), 'image/*'],
    [pngImage().subarray(0, 10), 'image/png'],
  ];
  for (const [bytes, type] of refused) {
    await expect(uploadPhoto(deps, 'Sales', '000001', bytes, type)).rejects.toMatchObject({
      kind: 'invalid',
      code: 'UnsupportedPhotoType',
    });
  }
  expect(await blobs()).toEqual([]);
  expect((await deps.directory.get('Sales', '000001')).value.photoUrl).toBeUndefined();
});

it('pins application/octet-stream for a photo adopted before types were checked', async () => {
  // The entity names a blob but records no checked type (stored by an earlier version, which
  // trusted the uploader's header): the token must not let storage serve the uploader's type.
  const blobName = 'Sales/000001/0000000000000001-legacy';
  await deps.photos.createIfNotExists();
  await deps.photos
    .getBlockBlobClient(blobName)
    .uploadData(htmlBytes, { blobHTTPHeaders: { blobContentType: 'text/html' } });
  await deps.employees.updateEntity(
    { partitionKey: 'Sales', rowKey: employeeRowKey('000001'), [PHOTO_BLOB_PROPERTY]: blobName },
    'Merge',
  );
  const { url } = await photoReadUrl(deps, 'Sales', '000001');
  expect(new URL(url).searchParams.get('rsct')).toBe('application/octet-stream');
  const read = await fetch(url);
  expect(read.status).toBe(200);
  expect(read.headers.get('content-type')).toBe('application/octet-stream');
});

it('keeps a read URL within the SAS cap: backdating counts inside its lifetime', async () => {
  const deps = { ...(await photoFixture('Cap', { readSasSeconds: 600 })), maxSasSeconds: 600 };
  await uploadPhoto(deps, 'Sales', '000001', pngImage([7, 7, 7]), 'image/png');
  const { url } = await photoReadUrl(deps, 'Sales', '000001');
  const query = new URL(url).searchParams;
  const validity = Date.parse(query.get('se')!) - Date.parse(query.get('st')!);
  // What the account's SAS expiration policy measures: never over the cap.
  expect(validity).toBeLessThanOrEqual(600_000);
  expect((await fetch(url)).status).toBe(200);
  await removePhotoFixture(deps);
});
