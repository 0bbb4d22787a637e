/**
 * Photos uploaded by the client through a write SAS, then adopted (real Azurite): the token is
 * create-only, so it writes its fresh version once with a single Put Blob and can never overwrite
 * anything (before or after adoption); adoption checks size and the image type from the stored
 * bytes, never from the uploader's header; read tokens pin the checked type (`rsct`), and Azurite
 * serves the photo with it.
 */
import { createDirectory } from '../../../src/directory/directory';
import { directoryReaderRole } from '../../../src/identity/roles';
import { accountKeySigner } from '../../../src/storage/blobSas';
import {
  adoptUploadedPhoto,
  MAX_PHOTO_BYTES,
  photoReadUrl,
  type PhotoDependencies,
} from '../../../src/photos/photos';
import { PHOTO_TYPE_PROPERTY } from '../../../src/photos/photoLocator';
import { departmentPartitionKey, employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { htmlBytes, pngImage, svgBytes, webpBytes } from '../../support/images';
import { blobClientFrom, createSasFixture, principal, type SasFixture } from '../sas/fixture';

const DEPT = 'Human Resources';
const ID = '000223';
const jane = principal({ employee: { department: DEPT, employeeId: ID } });
const reader = principal({ roles: [directoryReaderRole(DEPT)] });

let fx: SasFixture;
let deps: PhotoDependencies;

beforeEach(async () => {
  fx = await createSasFixture();
  const employees = fx.clients.table(fx.config.tables.employees);
  const directory = createDirectory({ employees });
  deps = {
    employees,
    archive: fx.clients.table(`${fx.config.tables.employees}Arc`),
    photos: fx.clients.container(fx.config.containers.photos),
    directory: directory.employees,
    signer: accountKeySigner(fx.clients.sharedKey!),
    allowHttp: true,
  };
  await directory.departments.put(DEPT, {});
  await directory.employees.create(DEPT, {
    employeeId: ID,
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@contoso.com',
  });
});

afterEach(() => fx.cleanup());

/** What a client does: ask for a write token, upload with one Put Blob (any header it likes). */
async function uploadThroughSas(
  bytes: Buffer,
  contentType: string,
): Promise<{ url: string; blobName: string }> {
  const grant = await fx.service.photoSas(jane, DEPT, ID, 'write');
  await blobClientFrom(grant.url).uploadData(bytes, {
    blobHTTPHeaders: { blobContentType: contentType },
  });
  return { url: grant.url, blobName: grant.blobName! };
}

async function storedBytes(blobName: string): Promise<Buffer> {
  return deps.photos.getBlobClient(blobName).downloadToBuffer();
}

it('a write token is create-only: one Put Blob creates the version, nothing overwrites it', async () => {
  const grant = await fx.service.photoSas(jane, DEPT, ID, 'write');
  expect(grant.permissions).toBe('c');
  expect(new URLSearchParams(grant.sas).get('sp')).toBe('c');
  const blob = blobClientFrom(grant.url);
  const png = pngImage();
  await blob.uploadData(png); // a single Put Blob (well under the SDK's single-shot size)

  // Even before adoption, a second write through the same token is refused by storage.
  await expect(blob.uploadData(htmlBytes)).rejects.toMatchObject({
    statusCode: 403,
    code: 'AuthorizationPermissionMismatch',
  });
  // Put Block / Put Block List need `w`, which the token lacks: uploads must be one Put Blob.
  const blockId = Buffer.from('block-0').toString('base64');
  await expect(blob.stageBlock(blockId, htmlBytes, htmlBytes.length)).rejects.toMatchObject({
    statusCode: 403,
  });
  await expect(blob.commitBlockList([blockId])).rejects.toMatchObject({ statusCode: 403 });
  // Nor may it change the headers or metadata of what it created, read it or delete it.
  await expect(blob.setHTTPHeaders({ blobContentType: 'text/html' })).rejects.toMatchObject({
    statusCode: 403,
  });
  await expect(blob.setMetadata({ a: 'b' })).rejects.toMatchObject({ statusCode: 403 });
  await expect(blob.downloadToBuffer()).rejects.toMatchObject({ statusCode: 403 });
  await expect(blob.delete()).rejects.toMatchObject({ statusCode: 403 });
  expect((await storedBytes(grant.blobName!)).equals(png)).toBe(true);
});

it('adopts a checked upload; the token that wrote it cannot overwrite the adopted photo', async () => {
  const png = pngImage();
  // The uploader's header lies (and asks for more headers): the app decides them all.
  const grant = await fx.service.photoSas(jane, DEPT, ID, 'write');
  await blobClientFrom(grant.url).uploadData(png, {
    blobHTTPHeaders: { blobContentType: 'text/html', blobContentDisposition: 'inline' },
  });
  const adopted = await adoptUploadedPhoto(deps, DEPT, ID, grant.blobName!);
  expect(adopted.blobName).toBe(grant.blobName);

  const stored = await deps.photos.getBlobClient(grant.blobName!).getProperties();
  expect(stored.contentType).toBe('image/png');
  expect(stored.contentDisposition).toBeUndefined();
  const entity = await deps.employees.getEntity(departmentPartitionKey(DEPT), employeeRowKey(ID));
  expect(entity[PHOTO_TYPE_PROPERTY]).toBe('image/png');

  // The attack of issue 13: overwrite the adopted photo with a script through the same token.
  await expect(
    blobClientFrom(grant.url).uploadData(htmlBytes, {
      blobHTTPHeaders: { blobContentType: 'text/html' },
    }),
  ).rejects.toMatchObject({ statusCode: 403 });
  expect((await storedBytes(grant.blobName!)).equals(png)).toBe(true);
  expect((await deps.photos.getBlobClient(grant.blobName!).getProperties()).contentType).toBe(
    'image/png',
  );
});

it('read tokens of both read paths pin the checked type, and Azurite serves it', async () => {
  const { blobName } = await uploadThroughSas(webpBytes, 'application/octet-stream');
  await adoptUploadedPhoto(deps, DEPT, ID, blobName);

  const viaSas = await fx.service.photoSas(reader, DEPT, ID, 'read');
  const viaRedirect = await photoReadUrl(deps, DEPT, ID);
  for (const url of [viaSas.url, viaRedirect.url]) {
    expect(new URL(url).searchParams.get('rsct')).toBe('image/webp');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await response.arrayBuffer()).equals(webpBytes)).toBe(true);
  }

  // The pinned type is signed: a client cannot swap it for another.
  const forged = new URL(viaSas.url);
  forged.searchParams.set('rsct', 'text/html');
  expect((await fetch(forged)).status).toBe(403);
  const dropped = new URL(viaSas.url);
  dropped.searchParams.delete('rsct');
  expect((await fetch(dropped)).status).toBe(403);
});

it('never adopts SVG, HTML or other non-raster uploads, whatever their declared type', async () => {
  const first = await uploadThroughSas(pngImage(), 'image/png');
  await adoptUploadedPhoto(deps, DEPT, ID, first.blobName);

  for (const [bytes, declared] of [
    [svgBytes, 'image/svg+xml'],
    [svgBytes, 'image/png'],
    [htmlBytes, 'text/html'],
    [htmlBytes, 'image/jpeg'],
    [Buffer.from('GIF8'), 'image/gif'],
  ] as const) {
    const { blobName } = await uploadThroughSas(bytes, declared);
    await expect(adoptUploadedPhoto(deps, DEPT, ID, blobName)).rejects.toMatchObject({
      kind: 'invalid',
      code: 'UnsupportedPhotoType',
    });
  }
  // The employee still shows the first photo, as an image.
  const read = await fx.service.photoSas(jane, DEPT, ID, 'read');
  expect(read.blobName).toBe(first.blobName);
  expect(new URLSearchParams(read.sas).get('rsct')).toBe('image/png');
});

it('refuses empty, oversize and non-block-blob uploads', async () => {
  const empty = await uploadThroughSas(Buffer.alloc(0), 'image/png');
  await expect(adoptUploadedPhoto(deps, DEPT, ID, empty.blobName)).rejects.toMatchObject({
    code: 'EmptyPhoto',
  });

  const oversize = Buffer.alloc(MAX_PHOTO_BYTES + 1);
  pngImage().copy(oversize);
  const large = await uploadThroughSas(oversize, 'image/png');
  await expect(adoptUploadedPhoto(deps, DEPT, ID, large.blobName)).rejects.toMatchObject({
    kind: 'tooLarge',
    code: 'PhotoTooLarge',
  });

  // A `c` token may create a page blob (zero-filled): it is no photo either.
  const grant = await fx.service.photoSas(jane, DEPT, ID, 'write');
  await blobClientFrom(grant.url).getPageBlobClient().create(512);
  await expect(adoptUploadedPhoto(deps, DEPT, ID, grant.blobName!)).rejects.toMatchObject({
    code: 'UnsupportedPhotoType',
  });

  expect((await deps.directory.get(DEPT, ID)).value.photoUrl).toBeUndefined();
});

it('answers PhotoBlobNotFound when nothing was uploaded to the version', async () => {
  const grant = await fx.service.photoSas(jane, DEPT, ID, 'write');
  await expect(adoptUploadedPhoto(deps, DEPT, ID, grant.blobName!)).rejects.toMatchObject({
    code: 'PhotoBlobNotFound',
  });
});
