/**
 * Moving an employee between departments through the local host: the starter answers 202
 * `{id, statusUri}`, `GET statusUri` reaches Completed, and the employee (email copy,
 * counts, last-name index, reviews) is in the target and gone from the source. A move onto a
 * taken id fails with the reason and moves nothing. A moved photo is served in the target, also
 * after the index worker swept the source employee's blobs.
 */
import { pngImage } from '../../support/images';
import type { RunningHost } from '../../support/host';
import { asAdmin } from '../../support/principals';
import { testClients } from '../../support/storage';
import { hostWith, isolatedSettings, pollUntilEnded, seedDepartment, send } from './support';

let host: RunningHost;
const settings = isolatedSettings();

beforeAll(async () => {
  host = await hostWith(settings);
  await seedDepartment(host, 'Sales', [
    { employeeId: '000001', lastName: 'Jones', email: 'jones@contoso.com' },
    { employeeId: '000002', lastName: 'Smith', email: 'smith@contoso.com' },
  ]);
  await seedDepartment(host, 'Marketing', [
    { employeeId: '000002', lastName: 'Other', email: 'other@contoso.com' },
  ]);
});
afterAll(async () => {
  await host?.stop();
});

it('moves an employee and reports Completed through statusUri', async () => {
  const review = await send(host, 'PUT', '/departments/Sales/employees/000001/reviews/2024', {
    managerRating: 4,
    peerRating: 5,
    comments: 'steady',
  });
  expect(review.status).toBeLessThan(300);

  const started = await send(host, 'POST', '/departments/Sales/employees/000001/move', {
    toDepartment: 'Marketing',
  });
  expect(started.status).toBe(202);
  expect(started.json).toEqual({
    id: expect.any(String),
    statusUri: `/api/orchestrations/${String(started.json.id)}`,
  });
  const status = await pollUntilEnded(host, String(started.json.statusUri));
  expect(status).toMatchObject({
    id: started.json.id,
    name: 'MoveEmployeeOrchestrator',
    runtimeStatus: 'Completed',
    output: {
      department: 'Sales',
      toDepartment: 'Marketing',
      employeeId: '000001',
      moved: true,
      reviewsCopied: 1,
    },
  });

  expect((await send(host, 'GET', '/departments/Sales/employees/000001')).status).toBe(404);
  expect(await send(host, 'GET', '/departments/Marketing/employees/000001')).toMatchObject({
    status: 200,
    json: { department: 'Marketing', lastName: 'Jones' },
  });
  expect(
    (await send(host, 'GET', '/departments/Marketing/employees/by-email/jones@contoso.com')).status,
  ).toBe(200);
  expect((await send(host, 'GET', '/departments/Sales')).json.employeeCount).toBe(1);
  expect((await send(host, 'GET', '/departments/Marketing')).json.employeeCount).toBe(2);
  const byName = await send(host, 'GET', '/employees?lastName=Jones&department=Marketing');
  expect(byName.json.items).toEqual([expect.objectContaining({ employeeId: '000001' })]);
  const reviews = await send(host, 'GET', '/departments/Marketing/employees/000001/reviews');
  expect(reviews.json.items).toEqual([expect.objectContaining({ year: 2024, comments: 'steady' })]);
});

it('fails with the reason when the id is taken in the target, and moves nothing', async () => {
  const started = await send(host, 'POST', '/departments/Sales/employees/000002/move', {
    toDepartment: 'Marketing',
  });
  expect(started.status).toBe(202);
  const status = await pollUntilEnded(host, String(started.json.statusUri));
  expect(status).toEqual({
    id: started.json.id,
    name: 'MoveEmployeeOrchestrator',
    runtimeStatus: 'Failed',
    failure: expect.stringMatching(
      /^EmployeeExists: Employee 000002 already exists in department "Marketing"/,
    ),
    progress: { step: 'validate' }, // it got no further
  });
  expect(await send(host, 'GET', '/departments/Sales/employees/000002')).toMatchObject({
    status: 200,
    json: { lastName: 'Smith' },
  });
  expect(await send(host, 'GET', '/departments/Marketing/employees/000002')).toMatchObject({
    json: { lastName: 'Other' },
  });
});

it('refuses a move into the same department with 400', async () => {
  const response = await send(host, 'POST', '/departments/Sales/employees/000002/move', {
    toDepartment: 'Sales',
  });
  expect(response).toMatchObject({ status: 400, json: { error: { code: 'SameDepartment' } } });
});

it('moves the photo: the target serves it, also while the source’s old version waits out the sweep’s grace', async () => {
  const created = await send(host, 'POST', '/departments/Sales/employees', {
    employeeId: '000003',
    firstName: 'Pat',
    lastName: 'Ng',
    email: 'ng@contoso.com',
  });
  expect(created.status).toBe(201);
  const png = pngImage();
  const upload = await fetch(
    `${host.baseUrl}/departments/Sales/employees/000003/photo`,
    asAdmin({
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: png,
    }),
  );
  expect(upload.status).toBe(200);

  const started = await send(host, 'POST', '/departments/Sales/employees/000003/move', {
    toDepartment: 'Marketing',
  });
  const status = await pollUntilEnded(host, String(started.json.statusUri));
  expect(status).toMatchObject({ runtimeStatus: 'Completed', output: { moved: true } });

  // The target has its own copy. The source's version is younger than the photo sweeps' grace
  // period (PHOTO_SWEEP_GRACE_MINUTES): the index worker's sweep of the gone source employee
  // leaves it to the daily sweep (test/integration/photos/sweepGrace.test.ts).
  const photos = testClients().container(settings.PHOTOS_CONTAINER!);
  const names: string[] = [];
  for await (const blob of photos.listBlobsFlat()) names.push(blob.name);
  expect(names.filter((name) => !name.startsWith('Sales/'))).toEqual([
    expect.stringMatching(/^Marketing\/000003\//),
  ]);

  const photo = await fetch(
    `${host.baseUrl}/departments/Marketing/employees/000003/photo`,
    asAdmin({ redirect: 'manual' }),
  );
  expect(photo.status).toBe(302);
  const read = await fetch(photo.headers.get('location')!);
  expect(read.status).toBe(200);
  expect(read.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await read.arrayBuffer()).equals(png)).toBe(true);
});
