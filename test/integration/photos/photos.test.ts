/**
 * Photos (large entity): upload, replace, delete; the entity names the blob only after it exists,
 * replaced versions are removed, and the read SAS works against Azurite and expires.
 */
import { createDirectory } from '../../../src/directory/directory';
import { accountKeySigner } from '../../../src/sas/blobSas';
import {
  deletePhoto,
  photoReadUrl,
  removePhotosOfGoneEmployee,
  uploadPhoto,
  type PhotoDependencies,
} from '../../../src/photos/photos';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

const clients = testClients();
let deps: PhotoDependencies;
beforeEach(async () => {
  const employees = clients.table(uniqueTableName('EmpPh'));
  const directory = createDirectory({ employees });
  deps = {
    employees,
    archive: clients.table(uniqueTableName('ArcPh')),
    photos: clients.container(uniqueName('photos')),
    directory: directory.employees,
    signer: accountKeySigner(clients.sharedKey!),
    allowHttp: true,
    readSasSeconds: 2,
  };
  await directory.departments.put('Sales', {});
  await directory.employees.create('Sales', {
    employeeId: '000001',
    firstName: 'A',
    lastName: 'B',
    email: 'a@b.c',
  });
});
afterEach(async () => {
  await Promise.allSettled([deps.employees.deleteTable(), deps.photos.deleteIfExists()]);
});

const blobs = async () => {
  const names: string[] = [];
  for await (const b of deps.photos.listBlobsFlat()) names.push(b.name);
  return names;
};

it('uploads, replaces (old version removed), serves a SAS that expires, and deletes', async () => {
  const first = await uploadPhoto(deps, 'Sales', '000001', Buffer.from('png-1'), 'image/png');
  const second = await uploadPhoto(deps, 'Sales', '000001', Buffer.from('png-2'), 'image/png');
  expect(await blobs()).toEqual([second.blobName]);
  const employee = await deps.directory.get('Sales', '000001');
  expect(employee.value.photoUrl).toBe(second.photoUrl);
  expect(first.blobName).not.toBe(second.blobName);

  const { url } = await photoReadUrl(deps, 'Sales', '000001');
  const read = await fetch(url);
  expect(read.status).toBe(200);
  expect(await read.text()).toBe('png-2');
  await new Promise((r) => setTimeout(r, 3_000));
  expect((await fetch(url)).status).toBe(403);

  await deletePhoto(deps, 'Sales', '000001');
  expect(await blobs()).toEqual([]);
  await expect(photoReadUrl(deps, 'Sales', '000001')).rejects.toThrow(/no photo/);
  expect((await deps.directory.get('Sales', '000001')).value.photoUrl).toBeUndefined();
}, 20_000);

it('refuses non-images and oversize photos, and cleans up after a deleted employee', async () => {
  await expect(
    uploadPhoto(deps, 'Sales', '000001', Buffer.from('x'), 'text/plain'),
  ).rejects.toThrow(/image/);
  await expect(
    uploadPhoto(deps, 'Sales', '000001', Buffer.alloc(16 * 1024 * 1024 + 1), 'image/png'),
  ).rejects.toThrow(/at most/);
  await uploadPhoto(deps, 'Sales', '000001', Buffer.from('png'), 'image/png');
  await deps.directory.delete('Sales', '000001');
  await removePhotosOfGoneEmployee(deps, 'Sales', '000001');
  expect(await blobs()).toEqual([]);
});
