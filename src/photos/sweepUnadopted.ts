/**
 * The daily sweep of photo versions nobody adopted. A write SAS lets a client create one fresh
 * version blob; the per-employee sweep (sweep.ts) removes the versions an employee does not use
 * whenever that employee's photo is adopted or deleted, or the employee leaves. Uploads
 * that are never adopted, and versions of employees that no longer exist, would otherwise stay
 * forever: this sweep walks the whole `photos` container (flat listing, page by page), groups the
 * versions by employee (`<dept>/<id>/<version>`, {@link parsePhotoBlobName}) and runs the same
 * per-employee sweep for every employee that has a version past the grace period, a few at a time.
 *
 * It deletes exactly what {@link sweepPhotoVersions} deletes: every version older than the grace
 * period that neither the employee entity (`Employees`) nor its archived copy (`EmployeesArchive`)
 * names, with its snapshots, the references being read again right before the deletes. Running it
 * twice, or two runs at once, deletes nothing more. Blobs whose names are not photo versions are
 * left alone.
 */
import { parsePhotoBlobName } from '../storage/keys/blobs/photoBlobs';
import { isContainerMissing } from '../storage/createOnce';
import { withStorageErrors } from '../storage/storageFaults';
import type { PhotoDependencies } from './dependencies';
import { PHOTO_SWEEP_GRACE_MS, sweepPhotoVersions } from './sweep';
import { invalidSweepOptions } from './photoErrors';

/** How many employees are swept at the same time by default. */
const UNADOPTED_SWEEP_CONCURRENCY = 8;

/** Blob names asked for per listing page by default (the service's maximum is 5,000). */
const UNADOPTED_SWEEP_PAGE_SIZE = 1000;

/** Tunables of {@link sweepUnadoptedPhotos}. */
export interface UnadoptedPhotoSweepOptions {
  /** Employees swept at the same time (default {@link UNADOPTED_SWEEP_CONCURRENCY}). */
  concurrency?: number;
  /** Blob names per listing page (default {@link UNADOPTED_SWEEP_PAGE_SIZE}). */
  pageSize?: number;
}

/** An employee whose sweep failed; the next run tries again. */
export interface UnadoptedPhotoSweepFailure {
  department: string;
  employeeId: string;
  error: unknown;
}

/** What one run did. */
export interface UnadoptedPhotoSweepReport {
  /** Blobs listed in the container. */
  listed: number;
  /** Employees swept (those with at least one version past the grace period). */
  employees: number;
  /** Versions deleted by this run. */
  deleted: string[];
  /** Blobs whose names are no photo version, left alone. */
  ignored: number;
  /** Employees whose sweep failed on a storage fault or a version storage refused to delete. */
  failed: UnadoptedPhotoSweepFailure[];
}

interface Owner {
  department: string;
  employeeId: string;
}

/**
 * Deletes every photo version, across the whole container, that is past the grace period
 * (`deps.sweepGraceMs`, default {@link PHOTO_SWEEP_GRACE_MS}) and is neither the current photo of
 * its employee nor that of the archived copy, including every such version of an employee that no
 * longer exists, with its snapshots. A storage fault while sweeping one employee, or a version
 * storage refuses to delete (a lease...), is reported in {@link UnadoptedPhotoSweepReport.failed}
 * and the others are still swept.
 *
 * @throws {RangeError} for a concurrency or page size below 1.
 * @throws {DomainError} for a storage fault while listing the container (the employees already
 *   dispatched are swept first).
 */
export async function sweepUnadoptedPhotos(
  deps: PhotoDependencies,
  options: UnadoptedPhotoSweepOptions = {},
): Promise<UnadoptedPhotoSweepReport> {
  const concurrency = options.concurrency ?? UNADOPTED_SWEEP_CONCURRENCY;
  const pageSize = options.pageSize ?? UNADOPTED_SWEEP_PAGE_SIZE;
  if (!(concurrency >= 1) || !(pageSize >= 1)) {
    throw invalidSweepOptions();
  }
  const report: UnadoptedPhotoSweepReport = {
    listed: 0,
    employees: 0,
    deleted: [],
    ignored: 0,
    failed: [],
  };
  const cutoff =
    (deps.now?.() ?? new Date()).getTime() - (deps.sweepGraceMs ?? PHOTO_SWEEP_GRACE_MS);
  const running = new Set<Promise<void>>();

  const sweepOne = async (owner: Owner): Promise<void> => {
    const fail = (error: unknown): void => {
      report.failed.push({ department: owner.department, employeeId: owner.employeeId, error });
    };
    try {
      const { deleted, refused } = await sweepPhotoVersions(
        deps,
        owner.department,
        owner.employeeId,
        [],
      );
      report.deleted.push(...deleted);
      // A version storage refused to delete (a lease, a policy...) fails the employee's sweep.
      if (refused.length > 0) fail(refused[0]);
    } catch (error) {
      fail(error);
    }
  };
  const dispatch = async (owner: Owner): Promise<void> => {
    while (running.size >= concurrency) await Promise.race(running);
    report.employees++;
    const task: Promise<void> = sweepOne(owner).finally(() => running.delete(task));
    running.add(task);
  };

  // A flat listing is in name order, so one employee's versions (`<dept>/<id>/...`) come together:
  // an employee is dispatched once its last version is listed, and memory stays bounded.
  let current: (Owner & { key: string; due: boolean }) | undefined;
  try {
    await listUnlessMissing(async () => {
      for await (const page of deps.photos.listBlobsFlat().byPage({ maxPageSize: pageSize })) {
        for (const blob of page.segment.blobItems) {
          report.listed++;
          const owner = parsePhotoBlobName(blob.name);
          if (!owner) {
            report.ignored++;
            continue;
          }
          const key = `${owner.department}/${owner.employeeId}`;
          if (current?.key !== key) {
            if (current?.due) await dispatch(current);
            current = {
              department: owner.department,
              employeeId: owner.employeeId,
              key,
              due: false,
            };
          }
          const created = blob.properties.createdOn ?? blob.properties.lastModified;
          if (created.getTime() <= cutoff) current.due = true;
        }
      }
    });
    if (current?.due) await dispatch(current);
  } finally {
    await Promise.all(running);
  }
  report.deleted.sort();
  return report;
}

/** Runs the listing; a container not created yet (a fresh account) lists nothing. */
async function listUnlessMissing(list: () => Promise<void>): Promise<void> {
  try {
    await withStorageErrors(list);
  } catch (error) {
    if (!isContainerMissing(error)) throw error;
  }
}
