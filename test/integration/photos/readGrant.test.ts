/**
 * The two photo URL paths, `GET .../photo` (photoReadUrl) and the SAS service's photo grant
 * (`POST /sas/photos/...`), as the composition root wires them: one read-grant routine and one
 * signer, so a photo that is missing answers the same 404 `PhotoNotFound` on both (the SAS path
 * answered 500 for an entity that named another employee's blob), and a photo that exists is
 * signed by the same credential for the same blob.
 */
import { createServices } from '../../../functions/shared/services';
import { errorResponse } from '../../../functions/shared/http';
import { loadConfig } from '../../../src/config';
import { photoReadUrl } from '../../../src/photos/photos';
import { PHOTO_BLOB_PROPERTY, PHOTO_TYPE_PROPERTY } from '../../../src/photos/photoLocator';
import { employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { photoBlobName } from '../../../src/storage/keys/blobs/photoBlobs';
import { pngImage } from '../../support/images';
import { uniqueName, uniqueTableName } from '../../support/storage';
import { admin } from '../sas/fixture';

const DEPT = 'Sales';
const config = loadConfig({
  ...process.env,
  EMPLOYEES_TABLE: uniqueTableName('EmpRg'),
  ARCHIVE_TABLE: uniqueTableName('ArcRg'),
  PHOTOS_CONTAINER: uniqueName('photos-rg'),
});
const services = createServices(() => config);
const employees = services.clients().table(config.tables.employees);
const photos = services.clients().container(config.containers.photos);

/** The employee's entity, naming `blobName` as its photo (or nothing). */
async function employeeNaming(employeeId: string, blobName?: string): Promise<void> {
  await employees.upsertEntity({
    partitionKey: DEPT,
    rowKey: employeeRowKey(employeeId),
    ...(blobName !== undefined
      ? { [PHOTO_BLOB_PROPERTY]: blobName, [PHOTO_TYPE_PROPERTY]: 'image/png' }
      : {}),
  });
}

/** What each path answers: the HTTP status and error code of its failure, or `ok`. */
async function answers(employeeId: string): Promise<{ get: unknown; sas: unknown }> {
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: unknown) => {
        const response = errorResponse(error);
        const body = response.jsonBody as { error: { code: string } };
        return { status: response.status, code: body.error.code };
      },
    );
  return {
    get: await outcome(photoReadUrl(services.photos(), DEPT, employeeId)),
    sas: await outcome(services.sas().photoSas(admin, DEPT, employeeId, 'read')),
  };
}

const notFound = { status: 404, code: 'PhotoNotFound' };

beforeAll(async () => {
  await employees.createTable();
  await photos.create();
  const own = photoBlobName(DEPT, '000001', 'v1');
  await photos.getBlockBlobClient(own).uploadData(pngImage());
  await employeeNaming('000001', own);
});
afterAll(async () => {
  await Promise.allSettled([employees.deleteTable(), photos.deleteIfExists()]);
});

describe('a missing photo answers the same on both photo URL paths', () => {
  it('an employee without a photo: 404 PhotoNotFound on both', async () => {
    await employeeNaming('000002');
    await expect(answers('000002')).resolves.toEqual({ get: notFound, sas: notFound });
  });

  it('an employee that does not exist: 404 PhotoNotFound on both', async () => {
    await expect(answers('000404')).resolves.toEqual({ get: notFound, sas: notFound });
  });

  it("an entity that names another employee's blob: 404 on both, never a token for it", async () => {
    await employeeNaming('000003', photoBlobName(DEPT, '000001', 'v1'));
    await expect(answers('000003')).resolves.toEqual({ get: notFound, sas: notFound });
  });

  it('an entity that names something that is no photo version: 404 on both', async () => {
    await employeeNaming('000004', 'not/a/photo/version');
    await expect(answers('000004')).resolves.toEqual({ get: notFound, sas: notFound });
  });
});

it('signs an existing photo with the one signer of the root, for the same blob, on both paths', async () => {
  const { url } = await photoReadUrl(services.photos(), DEPT, '000001');
  const grant = await services.sas().photoSas(admin, DEPT, '000001', 'read');
  expect(url.split('?')[0]).toBe(grant.url.split('?')[0]);
  expect(grant.signedWith).toBe(services.photos().signer.kind);
  for (const signed of [url, grant.url]) {
    const sas = new URL(signed).searchParams;
    expect(sas.get('sp')).toBe('r');
    expect(sas.get('rsct')).toBe('image/png');
    const response = await fetch(signed);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(pngImage())).toBe(true);
  }
});
