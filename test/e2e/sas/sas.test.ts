/**
 * The SAS endpoints over HTTP through the local Functions host: a client signs in (principal
 * header), asks for a token, and then talks to storage directly with it.
 */
import { odata } from '@azure/data-tables';
import { createDirectory } from '../../../src/directory/directory';
import { employeePartitionKey } from '../../../src/storage/keys/tables/employeePartitions';
import { startHost, type RunningHost } from '../../support/host';
import { htmlBytes, pngImage, svgBytes } from '../../support/images';
import { adminPrincipal, employeePrincipal, PRINCIPAL_HEADER } from '../../support/principals';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';
import { containerClientFrom, listAll, tableClientFrom } from '../../integration/sas/fixture';
import type { BlobSasGrant, TableSasGrant } from '../../../src/sas/service';

const names = {
  EMPLOYEES_TABLE: uniqueTableName('Emp'),
  EXPENSES_TABLE: uniqueTableName('Exp'),
  PHOTOS_CONTAINER: uniqueName('photos'),
  LOGS_CONTAINER: uniqueName('logs'),
};
const clients = testClients();
let host: RunningHost;

/** Employee 000223 of Sales (self is the pair department + employee id). */
const jane = employeePrincipal('Sales', '000223');
const adminHeader = adminPrincipal;

/** Posts as `principal`; without one the request is anonymous. */
function post(path: string, principal?: string, body?: unknown): Promise<Response> {
  return fetch(`${host.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(principal ? { [PRINCIPAL_HEADER]: principal } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

beforeAll(async () => {
  await clients.table(names.EXPENSES_TABLE).createTable();
  await clients.table(names.EMPLOYEES_TABLE).createTable();
  await clients.container(names.PHOTOS_CONTAINER).create();
  await clients.container(names.LOGS_CONTAINER).create();
  await clients.table(names.EXPENSES_TABLE).createEntity({
    partitionKey: employeePartitionKey('Sales', '000223'),
    rowKey: 'claim-1',
    Amount: 42,
  });
  await clients
    .container(names.LOGS_CONTAINER)
    .getBlockBlobClient('web/2026/11/22/1000/000000.log')
    .uploadData(Buffer.from('hello\n'));
  host = await startHost({ env: names });
});

afterAll(async () => {
  await host?.stop();
  await clients.table(names.EXPENSES_TABLE).deleteTable();
  await clients.table(names.EMPLOYEES_TABLE).deleteTable();
  await clients.container(names.PHOTOS_CONTAINER).deleteIfExists();
  await clients.container(names.LOGS_CONTAINER).deleteIfExists();
});

describe('POST /api/sas/* through the local host', () => {
  it('hands the employee a token that reads their expenses directly from storage', async () => {
    const response = await post('/sas/expenses/Sales/000223', jane, { minutes: 5 });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const grant = (await response.json()) as TableSasGrant;
    expect(grant.sas).toMatch(/(^|&)spk=Sales_000223(&|$)/);
    expect(grant.sas).toMatch(/(^|&)epk=Sales_000223(&|$)/);
    const rows: unknown[] = [];
    for await (const e of tableClientFrom(grant).listEntities({
      queryOptions: { filter: odata`PartitionKey eq ${grant.partitionKey}` },
    })) {
      rows.push(e);
    }
    expect(rows).toHaveLength(1);
  });

  it('answers 401 without a principal and for a malformed one', async () => {
    const none = await post('/sas/expenses/Sales/000223');
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: { code: 'Unauthenticated' } });
    const malformed = await post('/sas/logs', 'not*base64');
    expect(malformed.status).toBe(401);
    expect(await malformed.json()).toMatchObject({ error: { code: 'InvalidPrincipal' } });
  });

  it('answers 403 for another employee and 400 above the lifetime cap', async () => {
    expect((await post('/sas/expenses/Sales/000224', jane)).status).toBe(403);
    // The same id in another department is another employee.
    const namesake = employeePrincipal('Marketing', '000223');
    expect((await post('/sas/expenses/Sales/000223', namesake)).status).toBe(403);
    const tooLong = await post('/sas/expenses/Sales/000223', jane, { minutes: 24 * 60 });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ error: { code: 'SasLifetimeTooLong' } });
  });

  it('lets an admin revoke outstanding table tokens by rotating the policy', async () => {
    const grant = (await (await post('/sas/expenses/Sales/000223', jane)).json()) as TableSasGrant;
    await expect(listAll(tableClientFrom(grant))).resolves.toHaveLength(1);
    const rotate = await post(`/sas/policies/${names.EXPENSES_TABLE}/rotate`, adminHeader);
    expect(rotate.status).toBe(200);
    expect(await rotate.json()).toMatchObject({ revokedPolicyId: grant.policyId });
    await expect(listAll(tableClientFrom(grant))).rejects.toMatchObject({ statusCode: 403 });
    const fresh = (await (await post('/sas/expenses/Sales/000223', jane)).json()) as TableSasGrant;
    await expect(listAll(tableClientFrom(fresh))).resolves.toHaveLength(1);
  });

  it('gives a DirectoryAdmin a read+list token on the logs container', async () => {
    const response = await post('/sas/logs', adminHeader);
    expect(response.status).toBe(200);
    const grant = (await response.json()) as BlobSasGrant;
    const listed: string[] = [];
    for await (const blob of containerClientFrom(grant).listBlobsFlat()) listed.push(blob.name);
    expect(listed).toEqual(['web/2026/11/22/1000/000000.log']);
    expect((await post('/sas/logs', jane)).status).toBe(403);
  });
});

describe('photos through the local host: write SAS, upload, adopt, read', () => {
  const dept = 'Photo Dept';
  const photoPath = `/departments/${encodeURIComponent(dept)}/employees/000223/photo`;
  const admin = { 'x-ms-client-principal': adminHeader };

  beforeAll(async () => {
    const directory = createDirectory({ employees: clients.table(names.EMPLOYEES_TABLE) });
    await directory.departments.put(dept, {});
    await directory.employees.create(dept, {
      employeeId: '000223',
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@contoso.com',
    });
  });

  /** A client's single Put Blob with the token. */
  function putBlob(url: string, body: Buffer, contentType: string): Promise<Response> {
    return fetch(url, {
      method: 'PUT',
      headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': contentType },
      body,
    });
  }

  async function writeGrant(): Promise<BlobSasGrant> {
    const response = await post(`/sas/photos/${encodeURIComponent(dept)}/000223`, adminHeader, {
      access: 'write',
    });
    expect(response.status).toBe(200);
    return (await response.json()) as BlobSasGrant;
  }

  function adopt(blobName: string): Promise<Response> {
    return fetch(`${host.baseUrl}${photoPath}`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ blobName }),
    });
  }

  it('adopts a PNG from a create-only token, serves it as image/png, and the token cannot overwrite it', async () => {
    const png = pngImage();
    const grant = await writeGrant();
    expect(grant.permissions).toBe('c');
    // The uploader's declared type does not count; the bytes do.
    expect((await putBlob(grant.url, png, 'text/html')).status).toBe(201);
    const adopted = await adopt(grant.blobName!);
    expect(adopted.status).toBe(200);

    // The token that wrote the photo cannot replace it with a script.
    expect((await putBlob(grant.url, htmlBytes, 'text/html')).status).toBe(403);

    const redirect = await fetch(`${host.baseUrl}${photoPath}`, {
      headers: admin,
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(new URL(location).searchParams.get('rsct')).toBe('image/png');
    const viaRedirect = await fetch(location);
    expect(viaRedirect.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await viaRedirect.arrayBuffer()).equals(png)).toBe(true);

    const read = await post(`/sas/photos/${encodeURIComponent(dept)}/000223`, adminHeader, {
      access: 'read',
    });
    const readGrant = (await read.json()) as BlobSasGrant;
    expect(new URLSearchParams(readGrant.sas).get('rsct')).toBe('image/png');
    const viaSas = await fetch(readGrant.url);
    expect(viaSas.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await viaSas.arrayBuffer()).equals(png)).toBe(true);
  });

  it('answers 400 UnsupportedPhotoType for SVG or HTML, adopted or PUT directly', async () => {
    const grant = await writeGrant();
    expect((await putBlob(grant.url, svgBytes, 'image/svg+xml')).status).toBe(201);
    const adopted = await adopt(grant.blobName!);
    expect(adopted.status).toBe(400);
    expect(await adopted.json()).toMatchObject({ error: { code: 'UnsupportedPhotoType' } });

    for (const [body, type] of [
      [svgBytes, 'image/svg+xml'],
      [htmlBytes, 'image/png'],
      [pngImage(), 'image/jpeg'],
    ] as const) {
      const direct = await fetch(`${host.baseUrl}${photoPath}`, {
        method: 'PUT',
        headers: { ...admin, 'content-type': type },
        body,
      });
      expect(direct.status).toBe(400);
      expect(await direct.json()).toMatchObject({ error: { code: 'UnsupportedPhotoType' } });
    }
  });
});
