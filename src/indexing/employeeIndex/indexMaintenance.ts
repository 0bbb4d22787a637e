/**
 * The employee-by-employee reconcile: makes the inter-partition index (`EmployeeIndex`) and the
 * organisation-wide last-name index match the *current* primary entities of one employee. Writes
 * reach the indexes through the outbox drain (outboxDrain.ts); this reconcile serves the move
 * orchestration's re-pointing, the audit's repairs, and v1 change messages an earlier deploy left
 * on `index-updates` (indexUpdates.ts). It never trusts a message's payload for the new state:
 * read the primary and its by-id entry (which tracks every key the indexes may hold), record new
 * keys there first (write-ahead), reconcile each candidate email against the department's email
 * copy (emailReconcile.ts) and each last name's membership, then start over if the primary
 * changed, else write the by-id entry tracking only the current keys. Every step is idempotent; a
 * lost race (412/409/404) restarts the loop.
 *
 * Why: docs/queues.md "Employee-by-employee reconcile (v1 messages)".
 */
import { ensureTable } from '../../storage/createOnce';
import { tookEffect } from '../../storage/storageFaults';
import { departmentPartitionKey, employeeRowKey } from '../../storage/keys/tables/employees';
import { idIndexPartitionKey, idIndexRowKey } from '../../storage/keys/tables/employeeIndex';
import { normalizeEmail, normalizeLastName } from '../../storage/keys/text';
import {
  idIndexEntity,
  keysOf,
  readTracked,
  tracks,
  unionKeys,
  type TrackedKeys,
} from './indexEntities';
import { readEmployeeState, type EmployeeState } from '../../directory/entities';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';

import type { IndexStores } from '../indexStores';
import { employeeIndexesContended } from '../indexingErrors';
import { copyCurrentEmail, reconcileEmail } from './emailReconcile';
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

/** One reconcile of one employee: what its attempts share. */
interface Reconcile {
  readonly stores: IndexStores;
  readonly department: string;
  readonly employeeId: string;
  /** The department's partition of `Employees`. */
  readonly partitionKey: string;
  /** The employee's by-id entry. */
  readonly idKeys: { pk: string; rk: string };
  /** The keys the request says the employee had before (a hint: tracked keys suffice). */
  readonly hinted: TrackedKeys;
  /** Keys this invocation itself may have written entries for (kept across attempts). */
  touched: TrackedKeys;
}

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
  await Promise.all([ensureTable(stores.employees), ensureTable(stores.index)]);
  const previous = [request.previous ?? []].flat();
  const reconcile: Reconcile = {
    stores,
    department,
    employeeId,
    partitionKey: departmentPartitionKey(department),
    idKeys: { pk: idIndexPartitionKey(department), rk: idIndexRowKey(employeeId) },
    hinted: {
      emails: previous.flatMap((p) => (p.email ? [normalizeEmail(p.email)] : [])),
      lastNames: previous.flatMap((p) => (p.lastName ? [normalizeLastName(p.lastName)] : [])),
    },
    touched: { emails: [], lastNames: [] },
  };
  return retryOptimistically(
    {
      maxAttempts: MAX_ATTEMPTS,
      giveUp: (attempts) => employeeIndexesContended(department, employeeId, attempts),
    },
    (attempt) => reconcileAttempt(reconcile, attempt),
  );
}

/** What an attempt read: the primary, its by-id entry, and the keys they and the hints name. */
interface EmployeeKeys {
  /** The holder the reads were routed by (the process's cached placement). */
  holder: string | undefined;
  primary: EmployeeState | undefined;
  entry: StoredEntity | undefined;
  /** The keys the by-id entry tracks. */
  tracked: TrackedKeys;
  /** The keys of the primary as it is (none when it is gone). */
  wanted: TrackedKeys;
  /** Every key an entry may exist for: tracked, hinted, wanted, touched. */
  candidates: TrackedKeys;
}

/**
 * One attempt (the steps of the file comment): `RETRY` when the employee or its department's
 * holder changed meanwhile, or a conditional write lost.
 *
 * @throws {DomainError} for storage faults.
 */
async function reconcileAttempt(
  reconcile: Reconcile,
  attempt: number,
): Promise<ReconcileResult | Retry> {
  const { stores, department } = reconcile;
  const keys = await readEmployeeKeys(reconcile);
  if (isReconciled(reconcile, keys)) return { present: true, attempts: attempt };
  const entryEtag = await recordIntent(reconcile, keys);
  if (entryEtag === RETRY) return RETRY;
  reconcile.touched = unionKeys(reconcile.touched, keys.wanted);

  // The last-name lists live in accounts of their own, unfenced: decide them only on reads
  // from the account that holds the department now (a retry reads there).
  if (!(await sameHolder(stores, department, keys.holder))) return RETRY;
  await reconcileCandidates(reconcile, keys);

  // Also the check of the current email's entry: its email copy changes only with the primary.
  const now = await readEntity(
    stores.employees,
    reconcile.partitionKey,
    employeeRowKey(reconcile.employeeId),
    ['EmployeeId'],
  );
  if (now?.etag !== keys.primary?.etag) return RETRY; // changed meanwhile: reconcile the new version
  // Moved meanwhile: the lists are checked again against the new account's rows.
  if (!(await sameHolder(stores, department, keys.holder))) return RETRY;
  if (!(await settleEntry(reconcile, keys, entryEtag))) return RETRY;
  return { present: keys.primary !== undefined, attempts: attempt };
}

/** Reads the primary and its by-id entry side by side, and the keys they name. */
async function readEmployeeKeys(reconcile: Reconcile): Promise<EmployeeKeys> {
  const { stores, department, idKeys } = reconcile;
  const holder = await stores.holderOf?.(department, false);
  const [primary, entry] = await Promise.all([
    readEmployeeState(stores.employees, reconcile.partitionKey, reconcile.employeeId),
    readEntity(stores.index, idKeys.pk, idKeys.rk),
  ]);
  const tracked = readTracked(entry);
  const wanted = primary ? keysOf(primary.data) : { emails: [], lastNames: [] };
  const candidates = unionKeys(tracked, reconcile.hinted, wanted, reconcile.touched);
  return { holder, primary, entry, tracked, wanted, candidates };
}

/** Whether the by-id entry already says this very version of the primary was reconciled. */
function isReconciled(reconcile: Reconcile, keys: EmployeeKeys): boolean {
  const { primary, entry, tracked, wanted, candidates } = keys;
  return (
    primary !== undefined &&
    entry?.SourceETag === primary.etag &&
    tracked.emails.length === 1 &&
    tracked.lastNames.length === 1 &&
    tracks(wanted, candidates) &&
    // Entries this call wrote in an earlier attempt may be stale: verify them again.
    reconcile.touched.emails.length === 0
  );
}

/**
 * Write-ahead: records in the by-id entry the keys about to get entries, unless it tracks them
 * already — without `SourceETag` (not verified yet, so a crash before the final write cannot pass
 * for a finished reconcile). Returns the entry's ETag now, or `RETRY` when the entry changed.
 *
 * @throws {DomainError} for storage faults.
 */
async function recordIntent(
  reconcile: Reconcile,
  keys: EmployeeKeys,
): Promise<string | undefined | Retry> {
  const { stores, department } = reconcile;
  const { primary, entry, tracked, wanted } = keys;
  if (!primary || tracks(tracked, wanted)) return entry?.etag;
  const intent = idIndexEntity(department, primary.data, undefined, unionKeys(tracked, wanted));
  let written: { etag?: string } | undefined;
  const recorded = await tookEffect(async () => {
    written = entry
      ? await stores.index.updateEntity(intent, 'Replace', { etag: entry.etag })
      : await stores.index.createEntity(intent);
  });
  return recorded ? written?.etag : RETRY;
}

/**
 * Reconciles every candidate key: each email against the department's email copy, each last
 * name's membership. Emails and last names are different entities: side by side.
 *
 * @throws {ContentionError} when an address kept changing; {@link DomainError} for storage faults.
 */
async function reconcileCandidates(reconcile: Reconcile, keys: EmployeeKeys): Promise<void> {
  const { stores, department, employeeId } = reconcile;
  const { primary, wanted, candidates } = keys;
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
}

/**
 * The final write: the by-id entry of the primary as verified, tracking only its current keys,
 * or its removal when the employee is gone. False when the entry changed meanwhile.
 *
 * @throws {DomainError} for storage faults.
 */
async function settleEntry(
  reconcile: Reconcile,
  keys: EmployeeKeys,
  entryEtag: string | undefined,
): Promise<boolean> {
  const { stores, department, idKeys } = reconcile;
  const { primary, entry, wanted } = keys;
  if (primary) {
    const verified = idIndexEntity(department, primary.data, primary.etag, wanted);
    return tookEffect(() => stores.index.updateEntity(verified, 'Replace', { etag: entryEtag }));
  }
  if (!entry) return true;
  return tookEffect(() => stores.index.deleteEntity(idKeys.pk, idKeys.rk, { etag: entry.etag }));
}

/** True unless the department's holder, read afresh, is not `holder` (one account: true). */
async function sameHolder(
  stores: IndexStores,
  department: string,
  holder: string | undefined,
): Promise<boolean> {
  return !stores.holderOf || (await stores.holderOf(department, true)) === holder;
}
