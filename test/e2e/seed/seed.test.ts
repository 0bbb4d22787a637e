/**
 * `npm run seed` against a running app (the local host): a small organisation is written through
 * the API — department, people, manager, avatars, reviews, expenses, message counts, log lines —
 * and a second run finds everything there and writes nothing (idempotent).
 */
import { seedDirectory } from '../../../tools/seed/run';
import { startHost, type RunningHost } from '../../support/host';
import { send, seg, uniqueDepartment } from '../acceptance/client';

let host: RunningHost;
const department = uniqueDepartment('Seeded');
const logSource = `seed${Date.now().toString(36)}`;
const options = {
  departments: [{ name: department, description: 'A small sample.', size: 3 }],
  activePerDepartment: 2,
  chattyPerDepartment: 1,
  logSource,
  messageDays: 40,
  // Both runs plan for the same moment: a log line stamped between them would be new to the second.
  now: new Date(),
};

beforeAll(async () => {
  host = await startHost();
});
afterAll(() => host?.stop());

it('writes a small organisation through the API, and a second run writes nothing', async () => {
  const first = await seedDirectory(host.baseUrl, () => undefined, options);
  expect(first).toMatchObject({
    departments: 1,
    employeesCreated: 3,
    photosUploaded: 3,
    reviewsWritten: 6,
    logLinesPosted: expect.any(Number),
  });
  expect(first.expensesAdded).toBeGreaterThanOrEqual(12);
  expect(first.messageCountsPosted).toBeGreaterThan(30);
  expect(first.logLinesPosted).toBeGreaterThan(0);

  const d = (await send(host.baseUrl, 'GET', `/departments/${seg(department)}`)).body as {
    employeeCount: number;
    manager: { employeeId: string } | null;
  };
  expect(d.employeeCount).toBe(3);
  expect(d.manager?.employeeId).toBe('000001');
  const photo = await send(
    host.baseUrl,
    'GET',
    `/departments/${seg(department)}/employees/000002/photo`,
  );
  expect(photo.status).toBe(302);
  const image = await fetch(photo.headers.get('location')!);
  expect(image.headers.get('content-type')).toBe('image/png');

  const second = await seedDirectory(host.baseUrl, () => undefined, options);
  expect(second).toEqual({
    departments: 1,
    employeesCreated: 0,
    photosUploaded: 0,
    reviewsWritten: 6, // PUT of the same review: written again, changed nothing
    expensesAdded: 0,
    messageCountsPosted: 0,
    logLinesPosted: 0,
  });
  const year = new Date().getUTCFullYear();
  const daily = (
    await send(
      host.baseUrl,
      'GET',
      `/departments/${seg(department)}/employees/000001/messages/daily?year=${year}`,
    )
  ).body as { days: number[] };
  expect(daily.days.filter((n) => n > 0).length).toBeGreaterThan(20);
}, 240_000);
