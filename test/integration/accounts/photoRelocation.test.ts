/**
 * A photo write whose upload spans a relocation of its department (docs/accounts.md "Photos
 * across a switch"): the request resolves its account, then its upload is held until the
 * relocation reaches one step and its naming write (the write that names the photo on the
 * employee) until it reaches a later one; released there, the naming write either
 * answers 503 `Relocating` or names a photo that is readable where the employee lives once the
 * source is deleted. Never acknowledged, then lost. The same for a move's photo copy whose target
 * department is switched between the copy of the blob and the insert that names it.
 */
import { ThrottledError } from '../../../src/domainErrors';
import { copyToTargetActivity } from '../../../src/orchestrations/move/moveActivities';
import type { MoveInput } from '../../../src/orchestrations/move/moveRequest';
import { photoReadUrl, uploadPhoto, type PhotoDependencies } from '../../../src/photos/photos';
import { isRelocationWait } from '../../../src/orchestrations/relocationWait';
import { otherDataAccount, spreadDeployment, spreadPerson } from '../../support/accounts';
import { pngImage } from '../../support/images';
import type { BlockBlobClient } from '@azure/storage-blob';
import type { PhotoBlobs } from '../../../src/photos/dependencies';
import { relocateInProcess, relocationDeps, type RelocationStep } from '../../support/relocation';

const { services } = spreadDeployment({ INDEX_DRAIN_LINGER_MS: '1' });

const placementOf = (department: string) =>
  services.accounts()!.placement.ofDepartment(department, { fresh: true });

/** A gate: `wait()` resolves once `open()` was called. */
function gate(): { wait: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open };
}

/**
 * `container` whose uploads (and copies) of blobs named `prefix…` run once `before` resolves, and
 * answer once `after` resolves (`uploaded` is called in between).
 */
function heldUploads<C extends PhotoBlobs>(
  container: C,
  prefix: string,
  hold: { before?: Promise<void>; uploaded?: () => void; after?: Promise<void> },
): C {
  const held = (blob: BlockBlobClient): BlockBlobClient =>
    new Proxy(blob, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== 'function') return value;
        if (property !== 'uploadData' && property !== 'beginCopyFromURL') return value.bind(target);
        return async (...args: unknown[]) => {
          await hold.before;
          const done: unknown = await (value as (...a: unknown[]) => unknown).apply(target, args);
          hold.uploaded?.();
          await hold.after;
          return done;
        };
      },
    });
  return new Proxy(container, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      if (property !== 'getBlockBlobClient') return value.bind(target);
      return (name: string) => {
        const blob = target.getBlockBlobClient(name);
        return name.startsWith(prefix) ? held(blob) : blob;
      };
    },
  });
}

/** `deps` whose naming write waits for `held` (the upload is done by then). */
function heldBeforeNaming(deps: PhotoDependencies, held: Promise<void>): PhotoDependencies {
  const writePhoto: PhotoDependencies['directory']['writePhoto'] = async (...args) => {
    await held;
    return deps.directory.writePhoto(...args);
  };
  return { ...deps, directory: { ...deps.directory, writePhoto } };
}

/** Whether the employee's photo, as the directory names it now, can be read. */
async function photoReadable(department: string, employeeId: string): Promise<boolean> {
  const { url } = await photoReadUrl(await services.photosFor(department), department, employeeId);
  return (await fetch(url)).status === 200;
}

type At = [RelocationStep, number];

it.each<[At, At]>([
  [
    ['fence', 0],
    ['copy', 1],
  ],
  [
    ['copy', 2],
    ['sync', 0],
  ],
  [
    ['sync', 0],
    ['switch', 0],
  ],
  [
    ['sync', 0],
    ['delete', 0],
  ],
  [
    ['delete', 0],
    ['delete', 0],
  ],
])(
  'a photo uploaded at %j and named at %j, across a relocation, is refused or readable',
  async (uploadAt, nameAt) => {
    const department = `Photo ${uploadAt.join('')} ${nameAt.join('')}`;
    await services.directory().departments.put(department, { description: department });
    for (let n = 1; n <= 3; n++)
      await services.directory().employees.create(department, spreadPerson(n));
    const to = otherDataAccount((await placementOf(department)).account);
    // The request resolves its account now; its upload and its naming write run where held.
    const upload = gate();
    const uploaded = gate();
    const name = gate();
    const resolved = await services.photosFor(department);
    const deps = heldBeforeNaming(
      {
        ...resolved,
        photos: heldUploads(resolved.photos, `${department}/`, {
          before: upload.wait(),
          uploaded: uploaded.open,
        }),
      },
      name.wait(),
    );
    const request = uploadPhoto(deps, department, '000002', pngImage(), 'image/png').then(
      () => 'named' as const,
      (error: unknown) => error,
    );
    let outcome: unknown;
    const at = (step: RelocationStep, index: number, [s, i]: At) => step === s && index === i;
    await relocateInProcess(relocationDeps(services, 2), department, to, async (step, index) => {
      if (at(step, index, uploadAt)) {
        upload.open();
        await Promise.race([uploaded.wait(), request]);
      }
      if (at(step, index, nameAt)) {
        name.open();
        outcome = await request;
      }
    });
    expect((await placementOf(department)).account).toBe(to);
    if (outcome === 'named') {
      expect(await photoReadable(department, '000002')).toBe(true);
    } else {
      expect(outcome).toBeInstanceOf(ThrottledError);
      expect(outcome).toMatchObject({ code: 'Relocating' });
      const employee = await services.directory().employees.get(department, '000002');
      expect(employee.value.photoUrl ?? null).toBeNull();
    }
    // Named past the switch, in the source's container: that is the lost photo.
    if (nameAt[0] === 'delete') expect(outcome).not.toBe('named');
  },
);

it("a move's photo copy whose target is switched before the insert waits, then names a readable photo", async () => {
  const source = 'Photo move from';
  const target = 'Photo move to';
  const { departments, employees } = services.directory();
  await departments.put(source, { description: source });
  await departments.put(target, { description: target });
  await employees.create(source, spreadPerson(1));
  await employees.create(target, spreadPerson(9));
  await uploadPhoto(await services.photosFor(source), source, '000001', pngImage(), 'image/png');
  const to = otherDataAccount((await placementOf(target)).account);
  const move: MoveInput = {
    department: source,
    employeeId: '000001',
    toDepartment: target,
    moveId: 'photo-move',
  };
  const activities = services.orchestrations();
  // Held right after the photo blob is copied to the target's name, before the insert names it.
  const reached = gate();
  const release = gate();
  const pinnedFor = activities.pinnedFor!;
  const held = {
    ...activities,
    pinnedFor: async (departments: readonly string[]) => {
      const pinned = await pinnedFor(departments);
      const hold = { uploaded: reached.open, after: release.wait() };
      return { ...pinned, photos: heldUploads(pinned.photos, `${target}/`, hold) };
    },
  };
  const first = copyToTargetActivity(held, move);
  await reached.wait();
  await relocateInProcess(relocationDeps(services, 2), target, to, async (at) => {
    if (at === 'delete') release.open();
  });
  const answer = await first;
  expect(isRelocationWait(answer)).toBe(true);
  // The orchestrator calls the step again after its wait: resolved anew, in the target's account.
  const again = await copyToTargetActivity(activities, move);
  expect(again).toMatchObject({ copied: true });
  expect(await photoReadable(target, '000001')).toBe(true);
});
