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
import { byKey, dataFingerprint, diffIndex } from './indexDiff';
import { readEmployeeData } from '../../directory/entities';
import type { StoredEntity } from '../../storage/tables/entities';

/** Bookkeeping of index entries that is not employee data. */
const BOOKKEEPING = ['SourceETag', 'TrackedEmails', 'TrackedLastNames'];

interface Expected {
  data: EmployeeData;
  etag: string;
}

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
  const ids = diffIndex(
    byKey(expected, (e) => idIndexEntity(department, e.data, e.etag, keysOf(e.data)).rowKey),
    byKey(stored.byId, (e) => e.rowKey),
    (want, have) => {
      const entity = idIndexEntity(department, want.data, want.etag, keysOf(want.data));
      return (
        dataFingerprint(entity, BOOKKEEPING) === dataFingerprint(have, BOOKKEEPING) &&
        entity.TrackedEmails === have.TrackedEmails &&
        entity.TrackedLastNames === have.TrackedLastNames
      );
    },
  );
  const emails = diffIndex(
    byKey(expected, (e) => emailIndexEntity(department, e.data, e.etag).rowKey),
    byKey(stored.byEmail, (e) => e.rowKey),
    (want, have) =>
      dataFingerprint(emailIndexEntity(department, want.data, want.etag), BOOKKEEPING) ===
      dataFingerprint(have, BOOKKEEPING),
  );
  const idCounts: AuditCounts = {
    checked: ids.checked,
    missing: ids.missing.length,
    stale: ids.differing.length + ids.orphaned.length,
    repaired: 0,
  };
  const emailCounts: AuditCounts = {
    checked: emails.checked,
    missing: emails.missing.length,
    stale: emails.differing.length + emails.orphaned.length,
    repaired: 0,
  };
  if (repair) {
    const reconcile = (employeeId: string): Promise<unknown> =>
      reconcileEmployeeIndexes(stores, { department, employeeId });
    for (const missing of ids.missing) {
      await reconcile(missing.data.employeeId);
      idCounts.repaired++;
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
      idCounts.repaired++;
    }
    for (const orphan of ids.orphaned) {
      if (!isEmployeeId(orphan.rowKey)) continue;
      await reconcile(orphan.rowKey);
      idCounts.repaired++;
    }
    for (const missing of emails.missing) {
      await reconcileEmail(stores, department, missing.data.email);
      emailCounts.repaired++;
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
      emailCounts.repaired++;
    }
    for (const orphan of emails.orphaned) {
      const email = parseEmailIndexRowKey(orphan.rowKey);
      if (email === undefined) continue;
      await reconcileEmail(stores, department, email);
      emailCounts.repaired++;
    }
  }
  return { employeeIndexById: idCounts, employeeIndexByEmail: emailCounts };
}
