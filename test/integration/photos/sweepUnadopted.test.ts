/**
 * The daily sweep of unadopted photo versions (real Azurite): uploads nobody adopted, of an
 * existing employee or of one that does not exist, go once past the grace period; the current
 * photo, the archived employee's photo, fresh uploads and blobs that are no photo versions stay;
 * a second run, or two runs at once, delete nothing more.
 *
 * Blob creation times come from Azurite (whole seconds), so the test makes its "old" versions,
 * waits a little over two seconds, makes its "fresh" ones, and runs the sweep with a one-second
 * grace period on a clock fixed half a second after the oldest fresh version's creation: at least
 * two recorded seconds lie between old and fresh, however the uploads fall across second marks.
 */
import { uploadPhoto, type PhotoDependencies } from '../../../src/photos/photos';
import { sweepUnadoptedPhotos } from '../../../src/photos/sweepUnadopted';
import { PHOTO_BLOB_PROPERTY } from '../../../src/photos/photoLocator';
import { sweepPhotoVersions } from '../../../src/photos/sweep';
import { departmentPartitionKey, employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { photoBlobName } from '../../../src/storage/keys/blobs/photoBlobs';
import { pngImage } from '../../support/images';
import { photoFixture } from './fixture';

const DEPT = 'Sales';
const GRACE_MS = 1000;

let deps: PhotoDependencies;

beforeEach(async () => {
  deps = await photoFixture('Sw');
});

afterEach(async () => {
  await Promise.allSettled([
    deps.employees.deleteTable(),
    deps.archive.deleteTable(),
    deps.photos.deleteIfExists(),
  ]);
});

/** What a client with a write token does: one Put Blob of a fresh version. */
async function upload(employeeId: string, version: string): Promise<string> {
  const name = photoBlobName(DEPT, employeeId, version);
  await deps.photos.createIfNotExists();
  await deps.photos.getBlockBlobClient(name).uploadData(pngImage());
  return name;
}

async function blobs(): Promise<{ names: string[]; createdAt: Map<string, number> }> {
  const createdAt = new Map<string, number>();
  for await (const blob of deps.photos.listBlobsFlat()) {
    const created = blob.properties.createdOn ?? blob.properties.lastModified;
    createdAt.set(blob.name, created.getTime());
  }
  return { names: [...createdAt.keys()].sort(), createdAt };
}

/**
 * Stores the scenario: returns the versions that must go and those that must stay, and the
 * sweep's dependencies (one-second grace, clock fixed after the fresh uploads).
 */
async function scenario(): Promise<{
  doomed: string[];
  kept: string[];
  sweepDeps: PhotoDependencies;
}> {
  // Old: the current photo of 000001 (adopted), an upload of 000001 nobody adopted, uploads for
  // 000009 (no such employee), and archived 000002's photo beside one of its stray uploads.
  const current = (await uploadPhoto(deps, DEPT, '000001', pngImage([1, 2, 3]), 'image/png'))
    .blobName;
  const archived = await upload('000002', 'archived');
  await deps.archive.createTable();
  await deps.archive.createEntity({
    partitionKey: departmentPartitionKey(DEPT),
    rowKey: employeeRowKey('000002'),
    [PHOTO_BLOB_PROPERTY]: archived,
  });
  const doomed = [
    await upload('000001', 'unadopted'),
    await upload('000002', 'stray'),
    await upload('000009', 'a'),
    await upload('000009', 'b'),
  ];
  const foreign = 'notes/readme.txt';
  await deps.photos.getBlockBlobClient(foreign).uploadData(Buffer.from('not a photo'));
  await new Promise((resolve) => setTimeout(resolve, 2_200));
  // Fresh: uploads still within the grace period (a client may adopt them next).
  const fresh = [await upload('000001', 'fresh'), await upload('000009', 'fresh')];
  const { createdAt } = await blobs();
  const oldestFresh = Math.min(...fresh.map((name) => createdAt.get(name)!));
  const clock = new Date(oldestFresh + GRACE_MS / 2);
  return {
    doomed: doomed.sort(),
    kept: [current, archived, foreign, ...fresh].sort(),
    sweepDeps: { ...deps, sweepGraceMs: GRACE_MS, now: () => clock },
  };
}

it('deletes old unadopted versions (existing or unknown employee) and keeps the rest; a second run deletes nothing', async () => {
  const { doomed, kept, sweepDeps } = await scenario();

  // Small pages and a concurrency of 2: paging and the bounded pool are exercised.
  const first = await sweepUnadoptedPhotos(sweepDeps, { pageSize: 2, concurrency: 2 });
  expect(first.deleted).toEqual(doomed);
  expect(first.failed).toEqual([]);
  expect(first).toMatchObject({ listed: doomed.length + kept.length, ignored: 1, employees: 3 });
  expect((await blobs()).names).toEqual(kept);

  // The employee still shows its photo.
  const employee = await deps.directory.get(DEPT, '000001');
  expect(employee.value.photoUrl).toBe(
    deps.photos.getBlockBlobClient(kept.find((n) => n.startsWith(`${DEPT}/000001/`))!).url,
  );

  const second = await sweepUnadoptedPhotos(sweepDeps, { pageSize: 2, concurrency: 2 });
  expect(second.deleted).toEqual([]);
  expect(second.failed).toEqual([]);
  expect((await blobs()).names).toEqual(kept);
});

it('is safe to run twice at once: together they delete each unadopted version once', async () => {
  const { doomed, kept, sweepDeps } = await scenario();
  const [a, b] = await Promise.all([
    sweepUnadoptedPhotos(sweepDeps, { concurrency: 1 }),
    sweepUnadoptedPhotos(sweepDeps),
  ]);
  expect([...a.failed, ...b.failed]).toEqual([]);
  expect([...a.deleted, ...b.deleted].sort()).toEqual(doomed);
  expect((await blobs()).names).toEqual(kept);
});

it('never deletes a version the employee adopted after the listing', async () => {
  // The references are read again right before the deletes: an old upload the employee adopts
  // while the sweep runs is seen as referenced.
  const stale = await upload('000001', 'adopted-late');
  const clock = new Date(Date.now() + 60_000);
  const listing = deps.photos.listBlobsFlat.bind(deps.photos);
  let adopted = false;
  const sweepDeps: PhotoDependencies = {
    ...deps,
    sweepGraceMs: GRACE_MS,
    now: () => clock,
  };
  // Adopt between the per-employee listing and the reference read (simulated by a merge).
  jest.spyOn(deps.photos, 'listBlobsFlat').mockImplementation((options) => {
    const iterator = listing(options);
    if (options?.prefix && !adopted) {
      adopted = true;
      return (async function* () {
        for await (const item of iterator) yield item;
        await deps.employees.updateEntity(
          {
            partitionKey: departmentPartitionKey(DEPT),
            rowKey: employeeRowKey('000001'),
            [PHOTO_BLOB_PROPERTY]: stale,
          },
          'Merge',
        );
      })() as unknown as ReturnType<typeof listing>;
    }
    return iterator;
  });
  const report = await sweepUnadoptedPhotos(sweepDeps);
  jest.restoreAllMocks();
  expect(adopted).toBe(true);
  expect(report.deleted).toEqual([]);
  expect((await blobs()).names).toEqual([stale]);
});

it('deletes versions with their snapshots, and reports a version storage refuses to delete', async () => {
  // A write SAS's `c` also takes snapshots; a blob with snapshots refuses a plain delete (409).
  const snapped = await upload('000001', 'snapped');
  await deps.photos.getBlockBlobClient(snapped).createSnapshot();
  // A lease makes the delete fail (412 LeaseIdMissing): no ETag race, a refusal to report.
  const leased = await upload('000009', 'leased');
  const after = await upload('000009', 'other');
  const lease = deps.photos.getBlobClient(leased).getBlobLeaseClient();
  await lease.acquireLease(-1);
  const clock = new Date(Date.now() + 60_000);
  try {
    const report = await sweepUnadoptedPhotos({
      ...deps,
      sweepGraceMs: GRACE_MS,
      now: () => clock,
    });
    // The refusal stops neither the employee's other versions nor the other employees.
    expect(report.deleted).toEqual([snapped, after].sort());
    expect(report.failed).toEqual([
      {
        department: DEPT,
        employeeId: '000009',
        error: expect.objectContaining({ code: 'PhotoVersionNotDeleted' }),
      },
    ]);
    const left: string[] = [];
    for await (const blob of deps.photos.listBlobsFlat({ includeSnapshots: true })) {
      left.push(blob.snapshot ? `${blob.name}@snapshot` : blob.name);
    }
    expect(left).toEqual([leased]);
  } finally {
    await lease.releaseLease();
  }
});

it('sweeps a missing container without error, and without creating it', async () => {
  const report = await sweepUnadoptedPhotos(deps);
  expect(report).toEqual({ listed: 0, employees: 0, deleted: [], ignored: 0, failed: [] });
  await expect(sweepPhotoVersions(deps, DEPT, '000001', [])).resolves.toEqual({
    deleted: [],
    refused: [],
  });
  expect(await deps.photos.exists()).toBe(false);
});

it('sweeps an empty container without error', async () => {
  await deps.photos.createIfNotExists();
  const report = await sweepUnadoptedPhotos(deps);
  expect(report).toEqual({ listed: 0, employees: 0, deleted: [], ignored: 0, failed: [] });
});
