/**
 * Naming a photo is one write of the directory's: blob, type and URL on the employee and the URL on
 * its email copy in one conditional transaction. A write that lands between the photo write's read
 * and its transaction costs the photo write a retry on fresh data; neither write is lost.
 */
import type { PipelineRequest } from '@azure/core-rest-pipeline';
import type { TableClient } from '@azure/data-tables';
import { adoptUploadedPhoto, deletePhoto, uploadPhoto } from '../../../src/photos/photos';
import { PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY } from '../../../src/photos/photoLocator';
import { DATA_ETAG_PROPERTY } from '../../../src/directory/entities';
import { photoBlobName } from '../../../src/storage/keys/blobs/photoBlobs';
import { emailRowKey, employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { holdFirstBatch } from '../../support/batchGate';
import { pngImage } from '../../support/images';
import {
  photoFixture,
  removePhotoFixture,
  photoBlobNames,
  type SdkPhotoDependencies,
} from './fixture';

let deps: SdkPhotoDependencies;
beforeEach(async () => {
  deps = await photoFixture('Pr');
});
afterEach(() => removePhotoFixture(deps));

const blobs = () => photoBlobNames(deps);
const stored = (rowKey: string) =>
  deps.employees.getEntity<Record<string, unknown>>('Sales', rowKey);
/** A transaction that writes the photo's blob property (the employee had none before). */
const namesAPhoto = (body: string) => body.includes(`"${PHOTO_BLOB_PROPERTY}"`);

/** Counts the requests a table client sends: `$batch` transactions and single-entity writes. */
function countRequests(table: TableClient) {
  const seen: PipelineRequest[] = [];
  table.pipeline.addPolicy({
    name: `count-${Math.random().toString(36).slice(2)}`,
    sendRequest: (request, next) => {
      seen.push(request);
      return next(request);
    },
  });
  return {
    batches: () => seen.filter((r) => /\/\$batch(\?|$)/.test(r.url)).length,
    singleWrites: () =>
      seen.filter((r) => r.method !== 'GET' && !/\/\$batch(\?|$)/.test(r.url)).length,
  };
}

it('names blob, type and URL in one transaction, keeping the data version', async () => {
  const before = await deps.directory.get('Sales', '000001');
  const requests = countRequests(deps.employees);
  const photo = await uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png');
  expect(requests.batches()).toBe(1);
  expect(requests.singleWrites()).toBe(0);
  const employee = await stored(employeeRowKey('000001'));
  expect(employee).toMatchObject({
    [PHOTO_BLOB_PROPERTY]: photo.blobName,
    [PHOTO_TYPE_PROPERTY]: 'image/png',
    PhotoUrl: photo.photoUrl,
    [DATA_ETAG_PROPERTY]: before.etag,
  });
  expect(photo.etag).toBe(employee.etag);
  expect((await stored(emailRowKey('a@b.example'))).PhotoUrl).toBe(photo.photoUrl);

  await deletePhoto(deps, 'Sales', '000001');
  expect(requests.batches()).toBe(2);
  expect(requests.singleWrites()).toBe(0);
  const cleared = await stored(employeeRowKey('000001'));
  expect(cleared).toMatchObject({ [PHOTO_BLOB_PROPERTY]: '', [PHOTO_TYPE_PROPERTY]: '' });
  expect(cleared.PhotoUrl).toBeUndefined();
  expect((await stored(emailRowKey('a@b.example'))).PhotoUrl).toBeUndefined();
  expect(await blobs()).toEqual([]);
});

it('keeps a PATCH that lands between the photo write read and its transaction, and the photo', async () => {
  const gate = holdFirstBatch(deps.employees, namesAPhoto);
  const upload = uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png');
  await gate.reached;
  const patched = await deps.directory.patch('Sales', '000001', { firstName: 'Patched' });
  gate.release();
  const photo = await upload;

  const employee = await deps.directory.get('Sales', '000001');
  expect(employee.value).toMatchObject({ firstName: 'Patched', photoUrl: photo.photoUrl });
  expect(photo.etag).toBe(employee.etag);
  const entity = await stored(employeeRowKey('000001'));
  expect(entity[PHOTO_BLOB_PROPERTY]).toBe(photo.blobName);
  expect(entity[PHOTO_TYPE_PROPERTY]).toBe('image/png');
  // The photo kept the version of the PATCH's data: a client holding it may still write.
  expect(entity[DATA_ETAG_PROPERTY]).toBe(patched.etag);
  const copy = await stored(emailRowKey('a@b.example'));
  expect(copy).toMatchObject({ FirstName: 'Patched', PhotoUrl: photo.photoUrl });
  const again = await deps.directory.patch(
    'Sales',
    '000001',
    { lastName: 'C' },
    { ifMatch: patched.etag },
  );
  expect(again.value).toMatchObject({ firstName: 'Patched', photoUrl: photo.photoUrl });
});

it('keeps a PATCH that lands while a photo is being removed, and removes the photo', async () => {
  const photo = await uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png');
  // The removal's transaction writes an empty blob name; the PATCH's carries the current one.
  const gate = holdFirstBatch(deps.employees, (body) =>
    body.includes(`"${PHOTO_BLOB_PROPERTY}":""`),
  );
  const removal = deletePhoto(deps, 'Sales', '000001');
  await gate.reached;
  const patched = await deps.directory.patch('Sales', '000001', { firstName: 'Patched' });
  expect(patched.value.photoUrl).toBe(photo.photoUrl);
  gate.release();
  await removal;

  const employee = await deps.directory.get('Sales', '000001');
  expect(employee.value.firstName).toBe('Patched');
  expect(employee.value.photoUrl).toBeUndefined();
  expect((await stored(employeeRowKey('000001')))[PHOTO_BLOB_PROPERTY]).toBe('');
  expect((await stored(emailRowKey('a@b.example'))).PhotoUrl).toBeUndefined();
  expect(await blobs()).toEqual([]);
});

it('a photo write that lost to another upload names its own photo and deletes the one it replaced', async () => {
  await deps.photos.createIfNotExists();
  // A version the client uploaded itself (write SAS), adopted while a direct upload is held.
  const adoptName = photoBlobName('Sales', '000001', '0000000000000001-aaaaaaaaaaaa');
  const png = pngImage([9, 9, 9]);
  await deps.photos.getBlockBlobClient(adoptName).uploadData(png);
  const gate = holdFirstBatch(deps.employees, namesAPhoto);
  const adoption = adoptUploadedPhoto(deps, 'Sales', '000001', adoptName);
  await gate.reached;
  const upload = await uploadPhoto(deps, 'Sales', '000001', pngImage(), 'image/png');
  gate.release();
  const adopted = await adoption;

  // The adoption retried on top of the upload: it names its blob, and the upload's blob went.
  const employee = await deps.directory.get('Sales', '000001');
  expect(employee.value.photoUrl).toBe(adopted.photoUrl);
  expect(adopted.etag).toBe(employee.etag);
  expect((await stored(employeeRowKey('000001')))[PHOTO_BLOB_PROPERTY]).toBe(adoptName);
  expect(await blobs()).toEqual([adoptName]);
  expect(upload.blobName).not.toBe(adoptName);
});

it('deletes the uploaded blob when the employee is deleted before the photo write', async () => {
  await deps.photos.createIfNotExists();
  const name = photoBlobName('Sales', '000001', '0000000000000001-bbbbbbbbbbbb');
  await deps.photos.getBlockBlobClient(name).uploadData(pngImage());
  await deps.directory.delete('Sales', '000001');
  await expect(adoptUploadedPhoto(deps, 'Sales', '000001', name)).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect(await blobs()).toEqual([]);
});
