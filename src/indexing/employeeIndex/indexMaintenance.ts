/**
 * The employee-by-employee reconcile: makes the inter-partition index (`EmployeeIndex`) and the
 * organisation-wide last-name index match the *current* primary entities of one employee. Writes
 * reach the indexes through the outbox drain (outboxDrain.ts); this reconcile serves the move
 * orchestration's re-pointing, the audit's repairs, and v1 change messages an earlier deploy left
 * on `index-updates` (indexUpdates.ts). It never trusts a message's payload for the new state:
 * read the primary and its by-id entry (which tracks every key the indexes may hold), record new
 * keys there first (write-ahead), reconcile each candidate email against the department's email
 * copy and each last name's membership, then start over if the primary changed, else write the
 * by-id entry tracking only the current keys. Every step is idempotent; a lost race (412/409/404)
 * restarts the loop.
 *
 * Why: docs/queues.md "Employee-by-employee reconcile (v1 messages)".
 */
import type { EmployeeData } from '../../directory';
import { ensureTable } from '../../storage/createOnce';
import { tookEffect } from '../../storage/storageFaults';
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKey,
} from '../../storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  emailIndexRowKey,
  idIndexPartitionKey,
  idIndexRowKey,
} from '../../storage/keys/tables/employeeIndex';
import { normalizeEmail, normalizeLastName } from '../../storage/keys/text';
import {
  emailIndexEntity,
  idIndexEntity,
  keysOf,
  readTracked,
  tracks,
  unionKeys,
  type TrackedKeys,
} from './indexEntities';
import {
  EntityTypes,
  isEntityOfType,
  readEmployeeData,
  readEmployeeState,
} from '../../directory/entities';
import { readEntity } from '../../storage/tables/entities';

import type { IndexStores } from '../indexStores';
import { emailIndexContended, employeeIndexesContended } from '../indexingErrors';
import { RETRY, retryOptimistically, type Retry } from '../../storage/optimisticRetry';

/** Which employee to reconcile, and what it was before (a hint: tracked keys suffice). */
export interface ReconcileRequest {
  department: string;
  employeeId: string;
  /** Email and last name before the change(s); one object or several (a batch of changes). */
  previous?: PreviousKeys | PreviousKeys[];
}

/** An employee's email and last name before a change. */
export interface PreviousKeys {
  email?: string;
  lastName?: string;
}

/** What reconciling found. */
export interface ReconcileResult {
  /** The employee exists in the directory. */
  present: boolean;
  /** Attempts the loop needed (1 without races). */
  attempts: number;
}

const MAX_ATTEMPTS = 20;

/**
 * Makes every index entry of one employee match the primary entities (idempotent, order-free).
 *
 * @throws {ContentionError} when the employee kept changing for {@link MAX_ATTEMPTS} rounds.
 * @throws {DomainError} for storage faults left after the SDK's retries (the message is retried).
 */
export async function reconcileEmployeeIndexes(
  stores: IndexStores,
  request: ReconcileRequest,
): Promise<ReconcileResult> {
  const { department, employeeId } = request;
  const partitionKey = departmentPartitionKey(department);
  await Promise.all([ensureTable(stores.employees), ensureTable(stores.index)]);
  const idKeys = { pk: idIndexPartitionKey(department), rk: idIndexRowKey(employeeId) };
  const previous = [request.previous ?? []].flat();
  const hinted: TrackedKeys = {
    emails: previous.flatMap((p) => (p.email ? [normalizeEmail(p.email)] : [])),
    lastNames: previous.flatMap((p) => (p.lastName ? [normalizeLastName(p.lastName)] : [])),
  };
  // Keys this invocation itself may have written entries for (kept across rounds).
  let touched: TrackedKeys = { emails: [], lastNames: [] };

  return retryOptimistically(
    {
      maxAttempts: MAX_ATTEMPTS,
      giveUp: (attempts) => employeeIndexesContended(department, employeeId, attempts),
    },
    async (attempt): Promise<ReconcileResult | Retry> => {
      // The holder the reads below are routed by (the process's cached placement).
      const holder = await stores.holderOf?.(department, false);
      const [primary, entry] = await Promise.all([
        readEmployeeState(stores.employees, partitionKey, employeeId),
        readEntity(stores.index, idKeys.pk, idKeys.rk),
      ]);
      const tracked = readTracked(entry);
      const wanted = primary ? keysOf(primary.data) : { emails: [], lastNames: [] };
      const candidates = unionKeys(tracked, hinted, wanted, touched);

      if (
        primary &&
        entry?.SourceETag === primary.etag &&
        tracked.emails.length === 1 &&
        tracked.lastNames.length === 1 &&
        tracks(wanted, candidates) &&
        // Entries this call wrote in an earlier round may be stale: verify them again.
        touched.emails.length === 0
      ) {
        return { present: true, attempts: attempt }; // already reconciled for this version
      }

      let entryEtag = entry?.etag;
      if (primary && !tracks(tracked, wanted)) {
        // Write-ahead: record the keys we are about to add entries for (without `SourceETag`: not
        // verified yet, so a crash before the final write cannot pass for a finished reconcile).
        const intent = idIndexEntity(
          department,
          primary.data,
          undefined,
          unionKeys(tracked, wanted),
        );
        let written: { etag?: string } | undefined;
        const recorded = await tookEffect(async () => {
          written = entry
            ? await stores.index.updateEntity(intent, 'Replace', { etag: entry.etag })
            : await stores.index.createEntity(intent);
        });
        if (!recorded) return RETRY;
        entryEtag = written?.etag;
      }
      touched = unionKeys(touched, wanted);

      // The last-name lists live in accounts of their own, unfenced: decide them only on reads
      // from the account that holds the department now (a retry reads there).
      if (!(await sameHolder(stores, department, holder))) return RETRY;
      // Emails and last names are different entities: reconcile them side by side.
      const memberOf = wanted.lastNames[0];
      const current = primary ? wanted.emails[0] : undefined;
      await Promise.all([
        ...candidates.emails.map((email) =>
          email === current
            ? copyCurrentEmail(stores, department, employeeId, email)
            : reconcileEmail(stores, department, email),
        ),
        ...candidates.lastNames.map((lastName) =>
          lastName === memberOf
            ? stores.lastNames.add(lastName, { department, employeeId })
            : stores.lastNames.remove(lastName, { department, employeeId }),
        ),
      ]);

      // Also the check of the current email's entry: its email copy changes only with the primary.
      const now = await readEntity(stores.employees, partitionKey, employeeRowKey(employeeId), [
        'EmployeeId',
      ]);
      if (now?.etag !== primary?.etag) return RETRY; // changed meanwhile: reconcile the new version
      // Moved meanwhile: the lists are checked again against the new account's rows.
      if (!(await sameHolder(stores, department, holder))) return RETRY;

      const settled = primary
        ? await tookEffect(() =>
            stores.index.updateEntity(
              idIndexEntity(department, primary.data, primary.etag, wanted),
              'Replace',
              { etag: entryEtag },
            ),
          )
        : entry
          ? await tookEffect(() =>
              stores.index.deleteEntity(idKeys.pk, idKeys.rk, { etag: entry.etag }),
            )
          : true;
      if (!settled) return RETRY;
      return { present: primary !== undefined, attempts: attempt };
    },
  );
}

/** True unless the department's holder, read afresh, is not `holder` (one account: true). */
async function sameHolder(
  stores: IndexStores,
  department: string,
  holder: string | undefined,
): Promise<boolean> {
  return !stores.holderOf || (await stores.holderOf(department, true)) === holder;
}

/**
 * The by-email entry of the address the primary holds, copied from its email copy without the
 * read-compare-recheck of {@link reconcileEmail}: the copy is rewritten in the same transaction as
 * the primary by every write, so the caller's final check that the primary is unchanged also
 * proves the copy was current when this upsert ran. Falls back to {@link reconcileEmail} when the
 * copy names someone else (the primary moved on; the caller's check will restart).
 *
 * @throws {DomainError} for storage faults.
 */
async function copyCurrentEmail(
  stores: IndexStores,
  department: string,
  employeeId: string,
  email: string,
): Promise<void> {
  const source = await readEntity(
    stores.employees,
    departmentPartitionKey(department),
    emailRowKey(email),
  );
  const data =
    source && isEntityOfType(source, EntityTypes.employeeEmail)
      ? readEmployeeData(source)
      : undefined;
  if (!source || data?.employeeId !== employeeId) {
    await reconcileEmail(stores, department, email);
    return;
  }
  await tookEffect(() =>
    stores.index.upsertEntity(emailIndexEntity(department, data, source.etag), 'Replace'),
  );
}

/**
 * Makes the by-email index entry of one address match the department's email copy in
 * `Employees` (whoever holds the address now), or removes it when nobody does.
 *
 * @throws {ContentionError} when the address kept changing; {@link DomainError} for storage faults.
 */
export async function reconcileEmail(
  stores: IndexStores,
  department: string,
  email: string,
): Promise<void> {
  const partitionKey = departmentPartitionKey(department);
  const sourceRowKey = emailRowKey(email);
  const target = { pk: emailIndexPartitionKey(department), rk: emailIndexRowKey(email) };
  await retryOptimistically(
    {
      maxAttempts: MAX_ATTEMPTS,
      giveUp: (attempts) => emailIndexContended(department, attempts),
    },
    async (): Promise<true | Retry> => {
      const source = await readEntity(stores.employees, partitionKey, sourceRowKey);
      const data: EmployeeData | undefined =
        source && isEntityOfType(source, EntityTypes.employeeEmail)
          ? readEmployeeData(source)
          : undefined;
      const stored = await readEntity(stores.index, target.pk, target.rk, ['SourceETag']);
      if (data && source) {
        if (stored?.SourceETag === source.etag) return true;
        await tookEffect(() =>
          stores.index.upsertEntity(emailIndexEntity(department, data, source.etag), 'Replace'),
        );
      } else {
        if (!stored) return true;
        const removed = await tookEffect(() =>
          stores.index.deleteEntity(target.pk, target.rk, { etag: stored.etag }),
        );
        if (!removed) return RETRY;
      }
      // The copy may have changed while we wrote: only stop once what we copied is still current.
      const check = await readEntity(stores.employees, partitionKey, sourceRowKey, ['EmployeeId']);
      if (check?.etag === source?.etag) return true;
      return RETRY;
    },
  );
}
