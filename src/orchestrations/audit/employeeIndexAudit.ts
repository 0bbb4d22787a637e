/**
 * Audit of one department's inter-partition index in `EmployeeIndex`: the by-id entries
 * (`empid_<dept>`) and by-email entries (`email_<dept>`) recomputed from the primary employees
 * with the indexing code's own entity builders.
 *
 * Stale means the entry's employee data differs from the primary's, the by-id entry tracks keys
 * beyond the employee's current ones, or nothing in the directory backs the entry. Repairs go
 * through the indexing code's reconcile functions ("make the index match the current primary"),
 * which re-read the primaries and write conditionally; two drifts they would not notice on their
 * own (they skip an entry whose `SourceETag` is current) are first made visible to them: a
 * differing by-id entry is rewritten from the primary (conditional on its ETag, keeping what it
 * tracked), a differing by-email entry is removed (conditional) so the reconcile re-copies it.
 */
import type { EmployeeData } from '../../directory';
import {
  emailIndexEntity,
  idIndexEntity,
  type IndexStores,
  keysOf,
  readTracked,
  reconcileEmail,
  reconcileEmployeeIndexes,
  unionKeys,
} from '../../indexing';
import { tookEffect } from '../../storage/storageFaults';
import { isEmployeeId } from '../../storage/keys/identifiers';
import { parseEmailIndexRowKey } from '../../storage/keys/tables/employeeIndex';
import type { AuditCounts, CountsByIndex } from './auditCounts';
import { byKey, dataFingerprint, diffIndex, type IndexDiff } from './indexDiff';
import { readEmployeeData } from '../../directory/entities';
import type { StoredEntity } from '../../storage/tables/entities';

/** Bookkeeping of index entries that is not employee data. */
const BOOKKEEPING = ['SourceETag', 'TrackedEmails', 'TrackedLastNames'];

interface Expected {
  data: EmployeeData;
  etag: string;
}

/** The drift of one of the two indexes: expected entries against stored ones. */
type Drift = IndexDiff<Expected, StoredEntity>;

/**
 * Compares (and with `repair`, fixes) one department's `EmployeeIndex` entries against its
 * primary employees (read after the entries).
 *
 * @throws {DomainError} for storage faults; {@link ThrottledError} when an employee kept changing.
 */
export async function auditEmployeeIndex(
  stores: IndexStores,
  department: string,
  stored: { byId: StoredEntity[]; byEmail: StoredEntity[] },
  primaries: readonly StoredEntity[],
  repair: boolean,
): Promise<CountsByIndex> {
  const expected: Expected[] = [];
  for (const primary of primaries) {
    const data = readEmployeeData(primary);
    if (data) expected.push({ data, etag: primary.etag });
  }
  const ids = byIdDrift(department, expected, stored.byId);
  const emails = byEmailDrift(department, expected, stored.byEmail);
  const idCounts = countsOf(ids);
  const emailCounts = countsOf(emails);
  if (repair) {
    idCounts.repaired = await repairById(stores, department, ids);
    emailCounts.repaired = await repairByEmail(stores, department, emails);
  }
  return { employeeIndexById: idCounts, employeeIndexByEmail: emailCounts };
}

/** By-id entries against the primaries: data, and the keys each entry tracks. */
function byIdDrift(department: string, expected: Expected[], stored: StoredEntity[]): Drift {
  return diffIndex(
    byKey(expected, (e) => idIndexEntity(department, e.data, e.etag, keysOf(e.data)).rowKey),
    byKey(stored, (e) => e.rowKey),
    (want, have) => {
      const entity = idIndexEntity(department, want.data, want.etag, keysOf(want.data));
      return (
        dataFingerprint(entity, BOOKKEEPING) === dataFingerprint(have, BOOKKEEPING) &&
        entity.TrackedEmails === have.TrackedEmails &&
        entity.TrackedLastNames === have.TrackedLastNames
      );
    },
  );
}

/** By-email entries against the primaries: data only. */
function byEmailDrift(department: string, expected: Expected[], stored: StoredEntity[]): Drift {
  return diffIndex(
    byKey(expected, (e) => emailIndexEntity(department, e.data, e.etag).rowKey),
    byKey(stored, (e) => e.rowKey),
    (want, have) =>
      dataFingerprint(emailIndexEntity(department, want.data, want.etag), BOOKKEEPING) ===
      dataFingerprint(have, BOOKKEEPING),
  );
}

/** A drift's counts, before any repair. */
function countsOf(drift: Drift): AuditCounts {
  return {
    checked: drift.checked,
    missing: drift.missing.length,
    stale: drift.differing.length + drift.orphaned.length,
    repaired: 0,
  };
}

/**
 * Repairs the by-id drift through the reconcile: a differing entry is first rewritten from the
 * primary (conditional, keeping what it tracked), so the reconcile does not skip it.
 *
 * @returns the entries repaired.
 */
async function repairById(stores: IndexStores, department: string, ids: Drift): Promise<number> {
  const reconcile = (employeeId: string): Promise<unknown> =>
    reconcileEmployeeIndexes(stores, { department, employeeId });
  let repaired = 0;
  for (const missing of ids.missing) {
    await reconcile(missing.data.employeeId);
    repaired++;
  }
  for (const { expected: want, stored: have } of ids.differing) {
    const rewrite = idIndexEntity(
      department,
      want.data,
      want.etag,
      unionKeys(readTracked(have), keysOf(want.data)),
    );
    const rewritten = await tookEffect(() =>
      stores.index.updateEntity(rewrite, 'Replace', { etag: have.etag }),
    );
    if (!rewritten) continue;
    await reconcile(want.data.employeeId);
    repaired++;
  }
  for (const orphan of ids.orphaned) {
    if (!isEmployeeId(orphan.rowKey)) continue;
    await reconcile(orphan.rowKey);
    repaired++;
  }
  return repaired;
}

/**
 * Repairs the by-email drift through the reconcile: a differing entry is first removed
 * (conditional), so the reconcile copies it again.
 *
 * @returns the entries repaired.
 */
async function repairByEmail(
  stores: IndexStores,
  department: string,
  emails: Drift,
): Promise<number> {
  let repaired = 0;
  for (const missing of emails.missing) {
    await reconcileEmail(stores, department, missing.data.email);
    repaired++;
  }
  for (const { stored: have } of emails.differing) {
    const email = parseEmailIndexRowKey(have.rowKey);
    const removed =
      email !== undefined &&
      (await tookEffect(() =>
        stores.index.deleteEntity(have.partitionKey, have.rowKey, { etag: have.etag }),
      ));
    if (!removed) continue;
    await reconcileEmail(stores, department, email);
    repaired++;
  }
  for (const orphan of emails.orphaned) {
    const email = parseEmailIndexRowKey(orphan.rowKey);
    if (email === undefined) continue;
    await reconcileEmail(stores, department, email);
    repaired++;
  }
  return repaired;
}
