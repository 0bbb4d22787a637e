/**
 * A move against edits made while it runs, and a moved employee's photo (real Azurite): the
 * activities are driven as the orchestrator drives them (copy, re-point, remove; copy again while
 * the removal reports that the source changed).
 *
 * The copy is visible in the target from its insert on, so a PATCH or a review PUT there answers
 * 200 and must survive the move's later rounds and a repeated try of the copy activity.
 */
import { copyToTargetActivity } from '../../../src/orchestrations/move/moveActivities';
import type { MoveInput } from '../../../src/orchestrations/move/moveRequest';
import {
  PHOTO_SWEEP_GRACE_MS,
  photoReadUrl,
  removePhotosOfGoneEmployee,
  uploadPhoto,
  type PhotoDependencies,
} from '../../../src/photos/photos';
import { accountKeySigner } from '../../../src/storage/blobSas';
import { deletesEntity, holdFirstBatch } from '../../support/batchGate';
import { createWorld, runCopyAndRemove as copyRounds, seed, type TestWorld } from './support';
import { pngImage } from '../../support/images';

let world: TestWorld;

beforeEach(async () => {
  world = await createWorld();
  await seed(world.directory, 'Sales', [
    { employeeId: '000001', lastName: 'Jones', email: 'jones@contoso.com' },
  ]);
  await seed(world.directory, 'Marketing', [
    { employeeId: '000009', lastName: 'Jones', email: 'other@contoso.com' },
  ]);
  await world.directory.reviews.put('Sales', '000001', 2023, {
    managerRating: 3,
    peerRating: 4,
    comments: 'fine',
  });
});
afterEach(async () => {
  await world.cleanup();
});

const move: MoveInput = {
  department: 'Sales',
  employeeId: '000001',
  toDepartment: 'Marketing',
  moveId: 'instance-1',
};

function runCopyAndRemove(meanwhile?: () => Promise<void>): Promise<number> {
  return copyRounds(world.services, move, meanwhile);
}

it('carries an edit and a new review made between the copy and the removal to the target', async () => {
  const { directory } = world;
  const rounds = await runCopyAndRemove(async () => {
    await directory.employees.patch('Sales', '000001', { lastName: 'Smith' });
    await directory.reviews.put('Sales', '000001', 2024, {
      managerRating: 5,
      peerRating: 5,
      comments: 'great',
    });
  });
  await expect(directory.employees.get('Sales', '000001')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect((await directory.employees.get('Marketing', '000001')).value).toMatchObject({
    lastName: 'Smith',
    email: 'jones@contoso.com',
  });
  expect(
    (await directory.employees.getByEmail('Marketing', 'jones@contoso.com')).value,
  ).toMatchObject({ employeeId: '000001', lastName: 'Smith' });
  expect((await directory.reviews.list('Marketing', '000001')).items).toEqual([
    expect.objectContaining({ year: 2023, comments: 'fine' }),
    expect.objectContaining({ year: 2024, comments: 'great' }),
  ]);
  // The target's last-name index moved with the refresh; the counts are those of one move.
  const smiths = await directory.employees.findByLastName('Marketing', 'Smith');
  expect(smiths.items.map((e) => e.employeeId)).toEqual(['000001']);
  const joneses = await directory.employees.findByLastName('Marketing', 'Jones');
  expect(joneses.items.map((e) => e.employeeId)).toEqual(['000009']);
  expect((await directory.departments.get('Marketing')).value.employeeCount).toBe(2);
  expect((await directory.departments.get('Sales')).value.employeeCount).toBe(0);
  const left = [...(await world.snapshot()).keys()].filter((key) => key.endsWith('@Sales'));
  expect(left.filter((key) => key.includes('000001'))).toEqual([]);
  // The first removal found the source changed and sent the move round once more.
  expect(rounds).toBe(2);
});

it("carries a PATCH that lands between the removal's read and its transaction", async () => {
  // The removal has checked the source version and planned its delete; the PATCH commits before
  // that transaction reaches storage. The delete's ETag then no longer matches: the source stays,
  // and the move copies again.
  const { directory } = world;
  const gate = holdFirstBatch(world.employees, deletesEntity('Sales', 'empid_000001'));
  const moving = runCopyAndRemove();
  await gate.reached;
  await directory.employees.patch('Sales', '000001', { firstName: 'Patched' });
  gate.release();

  expect(await moving).toBe(2);
  expect((await directory.employees.get('Marketing', '000001')).value).toMatchObject({
    firstName: 'Patched',
  });
  await expect(directory.employees.get('Sales', '000001')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect((await directory.departments.get('Sales')).value.employeeCount).toBe(0);
  expect((await directory.departments.get('Marketing')).value.employeeCount).toBe(2);
});

it('carries a review changed between the copy and the removal to the target', async () => {
  const { directory } = world;
  const rounds = await runCopyAndRemove(async () => {
    await directory.reviews.put('Sales', '000001', 2023, {
      managerRating: 9,
      peerRating: 9,
      comments: 'revised',
    });
  });
  expect((await directory.reviews.list('Marketing', '000001')).items).toEqual([
    expect.objectContaining({ year: 2023, managerRating: 9, comments: 'revised' }),
  ]);
  await expect(directory.employees.get('Sales', '000001')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect(rounds).toBe(2);
});

it('moves the photo: the target serves it, and the source sweep leaves it alone', async () => {
  const { services, directory, employees } = world;
  const photos = services.photos!;
  const deps: PhotoDependencies = {
    employees,
    archive: world.archive,
    photos,
    directory: directory.employees,
    signer: accountKeySigner(world.clients.sharedKey!),
    allowHttp: true,
  };
  const png = pngImage();
  const uploaded = await uploadPhoto(deps, 'Sales', '000001', png, 'image/png');

  expect(await runCopyAndRemove()).toBe(1);
  // A repeated copy (the runtime may run it again) copies the blob again, harmlessly.
  expect(await copyToTargetActivity(services, move)).toMatchObject({ copied: false });

  const moved = (await directory.employees.get('Marketing', '000001')).value;
  expect(moved.photoUrl).toMatch(/\/Marketing\/000001\/[^/]+$/);
  expect(moved.photoUrl).not.toBe(uploaded.photoUrl);
  const { url } = await photoReadUrl(deps, 'Marketing', '000001');
  const read = await fetch(url);
  expect(read.status).toBe(200);
  // The copy keeps the checked type: the target's read token still pins it.
  expect(new URL(url).searchParams.get('rsct')).toBe('image/png');
  expect(read.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await read.arrayBuffer()).equals(png)).toBe(true);

  // The index worker's sweep of the gone source employee.
  // (past the grace period, which spares versions uploaded or copied just now)
  const later = () => new Date(Date.now() + PHOTO_SWEEP_GRACE_MS + 60_000);
  await removePhotosOfGoneEmployee({ ...deps, now: later }, 'Sales', '000001');
  const names: string[] = [];
  for await (const blob of photos.listBlobsFlat()) names.push(blob.name);
  expect(names).toEqual([moved.photoUrl!.slice(moved.photoUrl!.indexOf('Marketing/'))]);
  expect((await fetch((await photoReadUrl(deps, 'Marketing', '000001')).url)).status).toBe(200);
});

/** The photo feature over the world's storage. */
function photoDeps(): PhotoDependencies {
  return {
    employees: world.employees,
    archive: world.archive,
    photos: world.services.photos!,
    directory: world.directory.employees,
    signer: accountKeySigner(world.clients.sharedKey!),
    allowHttp: true,
  };
}

/** A clock past the sweep's grace period, which spares versions uploaded or copied just now. */
const afterGrace = (): Date => new Date(Date.now() + PHOTO_SWEEP_GRACE_MS + 60_000);

/** Matches a transaction that updates the employee's primary entity in the target. */
function updatesTargetEmployee(body: string): boolean {
  const target = `(PartitionKey='Marketing',RowKey='empid_000001') HTTP/1.1`;
  return body
    .split('\r\n')
    .some((line) => /^(PUT|MERGE|PATCH) /.test(line) && line.endsWith(target));
}

async function expectGoneFromSource(): Promise<void> {
  await expect(world.directory.employees.get('Sales', '000001')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect((await world.directory.departments.get('Sales')).value.employeeCount).toBe(0);
  expect((await world.directory.departments.get('Marketing')).value.employeeCount).toBe(2);
}

/**
 * An employee without reviews (a review copied to the target gives the copy a data version of its
 * own; without one, only the writes below can keep it), moved by its own instance.
 */
const bare: MoveInput = { ...move, employeeId: '000002', moveId: 'instance-2' };

async function createBare(): Promise<void> {
  await world.directory.employees.create('Sales', {
    employeeId: '000002',
    firstName: 'Pat',
    lastName: 'Ng',
    email: 'ng@contoso.com',
    age: 40,
  });
}

async function expectBareMoved(): Promise<void> {
  await expect(world.directory.employees.get('Sales', '000002')).rejects.toMatchObject({
    code: 'EmployeeNotFound',
  });
  expect((await world.directory.departments.get('Sales')).value.employeeCount).toBe(1);
  expect((await world.directory.departments.get('Marketing')).value.employeeCount).toBe(2);
}

it('stops with both kept when the source and the target copy were both PATCHed', async () => {
  // Neither PATCH may be lost: the target's was answered 200 and is not rewritten, so the source's
  // version is in no department but the source, which therefore stays.
  await createBare();
  const { directory } = world;
  await expect(
    copyRounds(world.services, bare, async () => {
      await directory.employees.patch('Marketing', '000002', { firstName: 'Edited' });
      await directory.employees.patch('Sales', '000002', { age: 41 });
    }),
  ).rejects.toThrow(
    /^MoveConflict: Employee 000002 was edited in "Sales" and in "Marketing" \(its data\)/,
  );

  expect((await directory.employees.get('Marketing', '000002')).value).toMatchObject({
    firstName: 'Edited',
    age: 40,
  });
  expect((await directory.employees.get('Sales', '000002')).value).toMatchObject({
    firstName: 'Pat',
    age: 41,
  });
  expect((await directory.departments.get('Sales')).value.employeeCount).toBe(2);
});

it('carries a source PATCH past the target department naming the copy its manager', async () => {
  // setManager merges IsManager into the target copy: bookkeeping, not data. The copy keeps its
  // data version, so the next round still knows it as the move's own and refreshes it.
  await createBare();
  const { directory } = world;
  const rounds = await copyRounds(world.services, bare, async () => {
    await directory.departments.setManager('Marketing', '000002');
    await directory.employees.patch('Sales', '000002', { lastName: 'Smith', age: 41 });
  });

  expect(rounds).toBe(2);
  expect((await directory.employees.get('Marketing', '000002')).value).toMatchObject({
    lastName: 'Smith',
    age: 41,
  });
  // Still the manager, and the department's copy of its manager follows the refresh.
  expect((await directory.departments.get('Marketing')).value.manager).toMatchObject({
    employeeId: '000002',
    lastName: 'Smith',
  });
  const smiths = await directory.employees.findByLastName('Marketing', 'Smith');
  expect(smiths.items.map((e) => e.employeeId)).toEqual(['000002']);
  await expectBareMoved();
});

it("carries a photo uploaded to the source while the target's copy is made manager, blob and all", async () => {
  await createBare();
  const { directory } = world;
  const deps = photoDeps();
  const png = pngImage();
  let uploaded = '';
  const rounds = await copyRounds(world.services, bare, async () => {
    await directory.departments.setManager('Marketing', '000002');
    uploaded = (await uploadPhoto(deps, 'Sales', '000002', png, 'image/png')).blobName;
  });

  expect(rounds).toBe(2);
  const moved = (await directory.employees.get('Marketing', '000002')).value;
  const version = uploaded.slice(uploaded.lastIndexOf('/') + 1);
  expect(moved.photoUrl).toMatch(new RegExp(`/Marketing/000002/${version}$`));
  await expectBareMoved();
  // The index worker's sweep of the gone source employee takes the source's blobs, not the copy.
  await removePhotosOfGoneEmployee({ ...deps, now: afterGrace }, 'Sales', '000002');
  const read = await fetch((await photoReadUrl(deps, 'Marketing', '000002')).url);
  expect(read.status).toBe(200);
  expect(Buffer.from(await read.arrayBuffer()).equals(png)).toBe(true);
});

it('carries a source PATCH past a photo uploaded to the target copy, and keeps that photo', async () => {
  // The photo is the target's own edit (answered 200): kept. It is not an edit of the fields,
  // which the move still owns and refreshes.
  await createBare();
  const { directory } = world;
  const deps = photoDeps();
  let targetPhoto = '';
  const rounds = await copyRounds(world.services, bare, async () => {
    targetPhoto = (await uploadPhoto(deps, 'Marketing', '000002', pngImage(), 'image/png'))
      .photoUrl;
    await directory.employees.patch('Sales', '000002', { firstName: 'Patched' });
  });

  expect(rounds).toBe(2);
  expect((await directory.employees.get('Marketing', '000002')).value).toMatchObject({
    firstName: 'Patched',
    photoUrl: targetPhoto,
  });
  await expectBareMoved();
});

it('carries a photo uploaded to the source past a PATCH of the target copy', async () => {
  // The fields are the target's (its PATCH wins); the photo is still the move's, and the source's
  // new photo replaces it there before the source goes.
  await createBare();
  const { directory } = world;
  const deps = photoDeps();
  let uploaded = '';
  const rounds = await copyRounds(world.services, bare, async () => {
    await directory.employees.patch('Marketing', '000002', { firstName: 'Edited' });
    uploaded = (await uploadPhoto(deps, 'Sales', '000002', pngImage(), 'image/png')).blobName;
  });

  expect(rounds).toBe(2);
  const moved = (await directory.employees.get('Marketing', '000002')).value;
  expect(moved.firstName).toBe('Edited');
  expect(moved.photoUrl).toMatch(
    new RegExp(`/Marketing/000002/${uploaded.slice(uploaded.lastIndexOf('/') + 1)}$`),
  );
  await expectBareMoved();
});

it('stops with both kept when the source and the target copy both got a new photo', async () => {
  await createBare();
  const { directory } = world;
  const deps = photoDeps();
  let targetPhoto = '';
  let sourcePhoto = '';
  await expect(
    copyRounds(world.services, bare, async () => {
      targetPhoto = (await uploadPhoto(deps, 'Marketing', '000002', pngImage(), 'image/png'))
        .photoUrl;
      sourcePhoto = (await uploadPhoto(deps, 'Sales', '000002', pngImage(), 'image/png')).photoUrl;
    }),
  ).rejects.toThrow(/^MoveConflict: .*\(its photo\)/);
  expect((await directory.employees.get('Marketing', '000002')).value.photoUrl).toBe(targetPhoto);
  expect((await directory.employees.get('Sales', '000002')).value.photoUrl).toBe(sourcePhoto);
});

it('keeps a PATCH of the target copy when the copy activity runs again', async () => {
  const { directory, services } = world;
  const first = await copyToTargetActivity(services, move);
  expect(first).toMatchObject({ copied: true });
  await directory.employees.patch('Marketing', '000001', { firstName: 'Edited' });

  // The runtime runs the first round's copy again (its answer was lost): same input.
  expect(await copyToTargetActivity(services, move)).toMatchObject({ copied: false });

  expect((await directory.employees.get('Marketing', '000001')).value.firstName).toBe('Edited');
  expect(await copyRounds(services, move)).toBe(1);
  expect((await directory.employees.get('Marketing', '000001')).value.firstName).toBe('Edited');
  await expectGoneFromSource();
});

it("keeps a review PUT on the target, and still carries the source's new review", async () => {
  const { directory } = world;
  const rounds = await copyRounds(world.services, move, async () => {
    await directory.reviews.put('Marketing', '000001', 2023, {
      managerRating: 8,
      peerRating: 8,
      comments: 'written on the target',
    });
    await directory.reviews.put('Sales', '000001', 2024, {
      managerRating: 5,
      peerRating: 5,
      comments: 'new in the source',
    });
  });

  expect(rounds).toBe(2);
  expect((await directory.reviews.list('Marketing', '000001')).items).toEqual([
    expect.objectContaining({ year: 2023, managerRating: 8, comments: 'written on the target' }),
    expect.objectContaining({ year: 2024, comments: 'new in the source' }),
  ]);
  await expectGoneFromSource();
});

it("keeps a PATCH of the target that lands between the refresh's read and its transaction", async () => {
  const { directory, services } = world;
  const first = await copyToTargetActivity(services, move);
  if (!('copied' in first)) throw new Error('refused');
  await directory.employees.patch('Sales', '000001', { lastName: 'Smith' });

  // The second round decided to refresh (the target was still its copy); hold its transaction.
  const gate = holdFirstBatch(world.employees, updatesTargetEmployee);
  const second = copyToTargetActivity(services, { ...move, ownedEtag: first.targetEtag });
  await gate.reached;
  await directory.employees.patch('Marketing', '000001', { firstName: 'Edited' });
  gate.release();
  // The refresh lost its condition: the activity fails and the runtime runs it again.
  await expect(second).rejects.toMatchObject({ code: 'StorageBusy' });
  // Its retry finds both sides edited: the record of what the copy carries was written with the
  // fields (not ahead of them), so the source's edit is not taken for carried.
  const retried = await copyToTargetActivity(services, { ...move, ownedEtag: first.targetEtag });
  expect(retried).toMatchObject({ refused: { code: 'MoveConflict' } });

  expect((await directory.employees.get('Marketing', '000001')).value).toMatchObject({
    firstName: 'Edited',
    lastName: 'Jones',
  });
  expect((await directory.employees.get('Sales', '000001')).value.lastName).toBe('Smith');
});
