/**
 * The valet-key photo upload on a fresh storage account, as a fresh `npm start` has it: no photos
 * container yet. Issuing the write SAS makes sure the container exists (else the upload is 404
 * `ContainerNotFound`), and the grant names the header the upload must send (`x-ms-blob-type:
 * BlockBlob`; without it storage refuses the Put Blob).
 */
import { startHost, type RunningHost } from '../../support/host';
import { pngImage } from '../../support/images';
import { adminPrincipal, employeePrincipal, PRINCIPAL_HEADER } from '../../support/principals';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';
import type { BlobSasGrant } from '../../../src/sas/service';

const names = {
  EMPLOYEES_TABLE: uniqueTableName('EmpFresh'),
  PHOTOS_CONTAINER: uniqueName('photos-fresh'),
};
const clients = testClients();
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env: names });
});
afterAll(async () => {
  await host?.stop();
  await clients.table(names.EMPLOYEES_TABLE).deleteTable();
  await clients.container(names.PHOTOS_CONTAINER).deleteIfExists();
});

async function api(
  path: string,
  principal: string,
  method: string,
  body: unknown,
): Promise<Response> {
  return fetch(`${host.baseUrl}${path}`, {
    method,
    headers: { [PRINCIPAL_HEADER]: principal, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

it('creates the photos container with the first write SAS, and the grant names the upload headers', async () => {
  expect((await api('/departments/Fresh', adminPrincipal, 'PUT', {})).status).toBe(201);
  const employee = {
    employeeId: '000001',
    firstName: 'Ada',
    lastName: 'Jones',
    email: 'ada@x.org',
  };
  expect((await api('/departments/Fresh/employees', adminPrincipal, 'POST', employee)).status).toBe(
    201,
  );
  expect(await clients.container(names.PHOTOS_CONTAINER).exists()).toBe(false);

  const ada = employeePrincipal('Fresh', '000001');
  const response = await api('/sas/photos/Fresh/000001', ada, 'POST', { access: 'write' });
  expect(response.status).toBe(200);
  const grant = (await response.json()) as BlobSasGrant;
  expect(grant.headers).toEqual({ 'x-ms-blob-type': 'BlockBlob' });
  expect(await clients.container(names.PHOTOS_CONTAINER).exists()).toBe(true);

  const png = pngImage();
  // Without the header the grant names, storage refuses the upload.
  const bare = await fetch(grant.url, {
    method: 'PUT',
    headers: { 'content-type': 'image/png' },
    body: png,
  });
  expect(bare.status).toBe(400);
  // With it, the upload lands and the app adopts it.
  const upload = await fetch(grant.url, {
    method: 'PUT',
    headers: { ...grant.headers, 'content-type': 'image/png' },
    body: png,
  });
  expect(upload.status).toBe(201);
  const adopted = await api('/departments/Fresh/employees/000001/photo', ada, 'PUT', {
    blobName: grant.blobName,
  });
  expect(adopted.status).toBe(200);
});
