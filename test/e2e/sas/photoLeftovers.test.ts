/**
 * What an uploader can leave behind in the photos container, over HTTP through the local host: a
 * write SAS's `c` permission also takes snapshots, and a blob with snapshots refuses a plain
 * delete (409 `SnapshotsPresent`), so the app deletes every version with its snapshots; and an
 * earlier incarnation's archived photo can neither be adopted nor deleted by a replace.
 */
import { startHost, type RunningHost } from '../../support/host';
import { pngImage } from '../../support/images';
import { adminPrincipal, employeePrincipal, PRINCIPAL_HEADER } from '../../support/principals';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';
import type { BlobSasGrant } from '../../../src/sas/service';

const env = {
  EMPLOYEES_TABLE: uniqueTableName('EmpLeft'),
  ARCHIVE_TABLE: uniqueTableName('ArcLeft'),
  EMPLOYEE_INDEX_TABLE: uniqueTableName('IdxLeft'),
  PHOTOS_CONTAINER: uniqueName('photos-left'),
  LASTNAME_INDEX_CONTAINER: uniqueName('ln-left'),
};
const clients = testClients();
const photos = clients.container(env.PHOTOS_CONTAINER);
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env });
});
afterAll(async () => {
  await host?.stop();
  await Promise.allSettled([
    clients.table(env.EMPLOYEES_TABLE).deleteTable(),
    clients.table(env.ARCHIVE_TABLE).deleteTable(),
    clients.table(env.EMPLOYEE_INDEX_TABLE).deleteTable(),
    photos.deleteIfExists(),
    clients.container(env.LASTNAME_INDEX_CONTAINER).deleteIfExists(),
  ]);
});

async function api(
  method: string,
  path: string,
  principal: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${host.baseUrl}${path}`, {
    method,
    headers: { [PRINCIPAL_HEADER]: principal, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : {} };
}

async function createEmployee(department: string, employeeId: string): Promise<void> {
  expect((await api('PUT', `/departments/${department}`, adminPrincipal, {})).status).toBe(201);
  const created = await api('POST', `/departments/${department}/employees`, adminPrincipal, {
    employeeId,
    firstName: 'Ada',
    lastName: 'Jones',
    email: `ada${employeeId}@contoso.com`,
  });
  expect(created.status).toBe(201);
}

/** What the employee's client does: a write token, one Put Blob, and a snapshot with the token. */
async function uploadAndSnapshot(department: string, employeeId: string): Promise<string> {
  const self = employeePrincipal(department, employeeId);
  const issued = await api('POST', `/sas/photos/${department}/${employeeId}`, self, {
    access: 'write',
  });
  expect(issued.status).toBe(200);
  const grant = issued.json as unknown as BlobSasGrant;
  const upload = await fetch(grant.url, {
    method: 'PUT',
    headers: { ...grant.headers, 'content-type': 'image/png' },
    body: pngImage(),
  });
  expect(upload.status).toBe(201);
  const snapshot = await fetch(`${grant.url}&comp=snapshot`, { method: 'PUT' });
  expect(snapshot.status).toBe(201);
  // A lease (which would make the app's delete fail) needs Write, which the token lacks.
  const lease = await fetch(`${grant.url}&comp=lease`, {
    method: 'PUT',
    headers: { 'x-ms-lease-action': 'acquire', 'x-ms-lease-duration': '-1' },
  });
  expect(lease.status).toBe(403);
  return grant.blobName!;
}

/** Every blob and snapshot stored under the employee's prefix. */
async function storedUnder(department: string, employeeId: string): Promise<string[]> {
  const found: string[] = [];
  if (!(await photos.exists())) return found;
  for await (const blob of photos.listBlobsFlat({
    prefix: `${department}/${employeeId}/`,
    includeSnapshots: true,
  })) {
    found.push(blob.snapshot ? `${blob.name}@${blob.snapshot}` : blob.name);
  }
  return found.sort();
}

it('deletes every version with its snapshots: after replace and DELETE nothing of the employee remains', async () => {
  await createEmployee('Snapped', '000124');
  const self = employeePrincipal('Snapped', '000124');
  const path = '/departments/Snapped/employees/000124/photo';

  const first = await uploadAndSnapshot('Snapped', '000124');
  expect((await api('PUT', path, self, { blobName: first })).status).toBe(200);
  const second = await uploadAndSnapshot('Snapped', '000124');
  expect((await api('PUT', path, self, { blobName: second })).status).toBe(200);
  // The replaced version went with its snapshot; the current one keeps its own.
  expect((await storedUnder('Snapped', '000124')).map((name) => name.split('@')[0])).toEqual([
    second,
    second,
  ]);

  expect((await api('DELETE', path, adminPrincipal)).status).toBe(204);
  expect(await storedUnder('Snapped', '000124')).toEqual([]);
});

it("refuses to adopt an earlier incarnation's archived photo, and the archive keeps it", async () => {
  await createEmployee('Archived', '000125');
  const self = employeePrincipal('Archived', '000125');
  const path = '/departments/Archived/employees/000125/photo';
  const archivedPhoto = await uploadAndSnapshot('Archived', '000125');
  expect((await api('PUT', path, self, { blobName: archivedPhoto })).status).toBe(200);

  const archiving = await api(
    'POST',
    '/departments/Archived/employees/000125/archive',
    adminPrincipal,
  );
  expect(archiving.status).toBe(202);
  const deadline = Date.now() + WAIT_MS;
  let record = await api('GET', '/archive/departments/Archived/employees/000125', adminPrincipal);
  while (record.status !== 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    record = await api('GET', '/archive/departments/Archived/employees/000125', adminPrincipal);
  }
  expect(record.status).toBe(200);
  expect(String(record.json.photoUrl)).toMatch(new RegExp(`/${archivedPhoto.split('/').pop()}$`));

  // The same id again: a new person, who must not take the old person's photo.
  const created = await api('POST', '/departments/Archived/employees', adminPrincipal, {
    employeeId: '000125',
    firstName: 'Bo',
    lastName: 'Jones',
    email: 'bo000125@contoso.com',
  });
  expect(created.status).toBe(201);
  const adopted = await api('PUT', path, self, { blobName: archivedPhoto });
  expect(adopted.status).toBe(409);
  expect(adopted.json).toMatchObject({ error: { code: 'PhotoBlobArchived' } });

  // The new person's own photos come and go; the archived one stays.
  const own = await uploadAndSnapshot('Archived', '000125');
  expect((await api('PUT', path, self, { blobName: own })).status).toBe(200);
  expect((await api('DELETE', path, adminPrincipal)).status).toBe(204);
  expect((await storedUnder('Archived', '000125')).map((name) => name.split('@')[0])).toEqual([
    archivedPhoto,
    archivedPhoto,
  ]);
  const again = await api('GET', '/archive/departments/Archived/employees/000125', adminPrincipal);
  expect(again.json.photoUrl).toBe(record.json.photoUrl);
});
