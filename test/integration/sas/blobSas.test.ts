/**
 * Blob SAS (service SAS, account key) against real Azurite: a photo token reads exactly one blob
 * (served with its checked type) or creates exactly one new blob, the logs token reads and lists
 * one container, and nothing more.
 */
import { ForbiddenError, NotFoundError } from '../../../src/domainErrors';
import { directoryReaderRole } from '../../../src/identity/roles';
import { employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { parsePhotoBlobName, photoBlobName } from '../../../src/storage/keys/blobs/photoBlobs';
import { PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY } from '../../../src/photos/photoLocator';
import { pngImage } from '../../support/images';
import {
  admin,
  blobClientFrom,
  containerClientFrom,
  createSasFixture,
  principal,
  type SasFixture,
} from './fixture';

let fx: SasFixture;
const DEPT = 'Human Resources';
const jane = principal({ employee: { department: DEPT, employeeId: '000223' } });
const hrReader = principal({ roles: [directoryReaderRole(DEPT)] });
const photoBytes = pngImage();

beforeAll(async () => {
  fx = await createSasFixture();
  const photos = fx.clients.container(fx.config.containers.photos);
  const current = photoBlobName(DEPT, '000223', 'v1');
  await photos.getBlockBlobClient(current).uploadData(photoBytes);
  const employees = fx.clients.table(fx.config.tables.employees);
  await employees.createEntity({
    partitionKey: DEPT,
    rowKey: employeeRowKey('000223'),
    [PHOTO_BLOB_PROPERTY]: current,
    [PHOTO_TYPE_PROPERTY]: 'image/png',
  });
  await employees.createEntity({ partitionKey: DEPT, rowKey: employeeRowKey('000224') });
  const logs = fx.clients.container(fx.config.containers.logs);
  await logs.getBlockBlobClient('web/2026/11/22/1000/000000.log').uploadData(Buffer.from('line\n'));
});

afterAll(() => fx.cleanup());

describe('photo SAS', () => {
  it('write: a create-only token for a new version blob of that employee only', async () => {
    const grant = await fx.service.photoSas(jane, DEPT, '000223', 'write');
    expect(grant.permissions).toBe('c');
    expect(grant.container).toBe(fx.config.containers.photos);
    expect(parsePhotoBlobName(grant.blobName!)).toMatchObject({
      department: DEPT,
      employeeId: '000223',
    });
    expect(grant.blobName).not.toBe(photoBlobName(DEPT, '000223', 'v1'));

    const blob = blobClientFrom(grant.url);
    await blob.uploadData(photoBytes, { blobHTTPHeaders: { blobContentType: 'image/png' } });
    const stored = await fx.clients
      .container(fx.config.containers.photos)
      .getBlobClient(grant.blobName!)
      .downloadToBuffer();
    expect(stored.equals(photoBytes)).toBe(true);

    // Create only: no second write, no read, no delete.
    await expect(blob.uploadData(Buffer.from('again'))).rejects.toMatchObject({ statusCode: 403 });
    await expect(blob.downloadToBuffer()).rejects.toMatchObject({ statusCode: 403 });
    await expect(blob.delete()).rejects.toMatchObject({ statusCode: 403 });
    // The signature names the blob: the token cannot write the current photo or another blob.
    const other = grant.url.replace(encodeURIComponent(grant.blobName!.split('/')[2]!), 'v1');
    expect(other).not.toBe(grant.url);
    await expect(blobClientFrom(other).uploadData(Buffer.from('x'))).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('write: only for an employee that exists (404 EmployeeNotFound), after the role check', async () => {
    await expect(fx.service.photoSas(admin, DEPT, '000999', 'write')).rejects.toMatchObject({
      code: 'EmployeeNotFound',
    });
    await expect(
      fx.service.photoSas(
        principal({ employee: { department: DEPT, employeeId: '000999' } }),
        DEPT,
        '000999',
        'write',
      ),
    ).rejects.toThrow(NotFoundError);
    await expect(fx.service.photoSas(admin, 'Nowhere', '000223', 'write')).rejects.toMatchObject({
      code: 'EmployeeNotFound',
    });
    // One projected point read (keys only) decides; nothing is signed or stored.
    const employees = fx.clients.table(fx.config.tables.employees);
    const getEntity = jest.spyOn(employees, 'getEntity');
    try {
      // Authorization stays first: a caller who may not upload learns nothing, costs no read.
      await expect(fx.service.photoSas(hrReader, DEPT, '000999', 'write')).rejects.toThrow(
        ForbiddenError,
      );
      expect(getEntity).not.toHaveBeenCalled();
      await fx.service.photoSas(admin, DEPT, '000224', 'write');
      await expect(fx.service.photoSas(admin, DEPT, '000998', 'write')).rejects.toMatchObject({
        code: 'EmployeeNotFound',
      });
      expect(getEntity).toHaveBeenCalledTimes(2);
      for (const call of getEntity.mock.calls) {
        expect(call[2]).toEqual({ queryOptions: { select: ['PartitionKey', 'RowKey'] } });
      }
    } finally {
      getEntity.mockRestore();
    }
    const names: string[] = [];
    for await (const blob of fx.clients
      .container(fx.config.containers.photos)
      .listBlobsFlat({ prefix: `${DEPT}/000999/` }))
      names.push(blob.name);
    expect(names).toEqual([]);
  });

  it('write: each token targets a fresh version', async () => {
    const a = await fx.service.photoSas(jane, DEPT, '000223', 'write');
    const b = await fx.service.photoSas(admin, DEPT, '000223', 'write');
    expect(a.blobName).not.toBe(b.blobName);
  });

  it('read: a read token for the current photo blob, its checked type pinned', async () => {
    const grant = await fx.service.photoSas(hrReader, DEPT, '000223', 'read');
    expect(grant).toMatchObject({
      permissions: 'r',
      blobName: photoBlobName(DEPT, '000223', 'v1'),
    });
    expect(new URLSearchParams(grant.sas).get('rsct')).toBe('image/png');
    const blob = blobClientFrom(grant.url);
    expect((await blob.downloadToBuffer()).equals(photoBytes)).toBe(true);
    // The blob itself was stored without a type (application/octet-stream): the token decides.
    expect((await blob.download()).contentType).toBe('image/png');
    await expect(blob.uploadData(Buffer.from('overwrite'))).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(blob.delete()).rejects.toMatchObject({ statusCode: 403 });
  });

  it('read: 404 when the employee has no photo or does not exist', async () => {
    await expect(fx.service.photoSas(admin, DEPT, '000224', 'read')).rejects.toMatchObject({
      code: 'PhotoNotFound',
    });
    await expect(fx.service.photoSas(admin, DEPT, '000999', 'read')).rejects.toThrow(NotFoundError);
  });

  it('refuses callers without the right role', async () => {
    const salesReader = principal({ roles: ['DirectoryReader:Sales'] });
    await expect(fx.service.photoSas(salesReader, DEPT, '000223', 'read')).rejects.toThrow(
      ForbiddenError,
    );
    await expect(fx.service.photoSas(hrReader, DEPT, '000223', 'write')).rejects.toThrow(
      ForbiddenError,
    );
    await expect(
      fx.service.photoSas(
        principal({ employee: { department: DEPT, employeeId: '000224' } }),
        DEPT,
        '000223',
        'write',
      ),
    ).rejects.toThrow(ForbiddenError);
  });

  it('asks the configured PhotoLocator for the current photo', async () => {
    const blobName = photoBlobName(DEPT, '000224', 'from-locator');
    await fx.clients
      .container(fx.config.containers.photos)
      .getBlockBlobClient(blobName)
      .uploadData(photoBytes);
    const service = fx.serviceWith({
      photoLocator: { currentPhoto: async () => ({ blobName, contentType: 'image/gif' }) },
    });
    const grant = await service.photoSas(admin, DEPT, '000224', 'read');
    expect(grant.blobName).toBe(blobName);
    expect(new URLSearchParams(grant.sas).get('rsct')).toBe('image/gif');
    expect((await blobClientFrom(grant.url).downloadToBuffer()).equals(photoBytes)).toBe(true);

    const foreign = fx.serviceWith({
      photoLocator: {
        currentPhoto: async () => ({
          blobName: photoBlobName(DEPT, '000223', 'v1'),
          contentType: 'image/png',
        }),
      },
    });
    // Someone else's blob is never signed: the same 404 as an employee without a photo.
    await expect(foreign.photoSas(admin, DEPT, '000224', 'read')).rejects.toMatchObject({
      code: 'PhotoNotFound',
    });
  });
});

describe('logs SAS', () => {
  it('lets a DirectoryAdmin list and read the logs container, not write it', async () => {
    const grant = await fx.service.logsSas(admin);
    expect(grant).toMatchObject({ permissions: 'rl', container: fx.config.containers.logs });
    expect(grant.blobName).toBeUndefined();
    const container = containerClientFrom(grant);
    const names: string[] = [];
    for await (const blob of container.listBlobsFlat()) names.push(blob.name);
    expect(names).toEqual(['web/2026/11/22/1000/000000.log']);
    expect((await container.getBlobClient(names[0]!).downloadToBuffer()).toString()).toBe('line\n');
    await expect(
      container
        .getBlockBlobClient('web/2026/11/22/1000/000001.log')
        .uploadData(Buffer.from('forged')),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect(container.getBlobClient(names[0]!).delete()).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('refuses anyone but a DirectoryAdmin', async () => {
    await expect(fx.service.logsSas(hrReader)).rejects.toThrow(ForbiddenError);
    await expect(fx.service.logsSas(jane)).rejects.toThrow(ForbiddenError);
  });

  it('refuses a lifetime above the cap', async () => {
    await expect(fx.service.logsSas(admin, 1000)).rejects.toMatchObject({
      code: 'SasLifetimeTooLong',
    });
  });
});
