/**
 * One address's by-email entry in `EmployeeIndex`, reconciled against the department's email copy
 * in `Employees` (whoever holds the address now): the employee reconcile (indexMaintenance.ts)
 * runs it for each candidate email, and the audit for each entry it repairs. It never trusts a
 * caller's data: it reads the copy, writes or removes the entry, and stops only once the copy it
 * wrote from is still current.
 *
 * Why: docs/queues.md "Employee-by-employee reconcile (v1 messages)".
 */
import type { EmployeeData } from '../../directory';
import { tookEffect } from '../../storage/storageFaults';
import { departmentPartitionKey, emailRowKey } from '../../storage/keys/tables/employees';
import { emailIndexPartitionKey, emailIndexRowKey } from '../../storage/keys/tables/employeeIndex';
import { emailIndexEntity } from './indexEntities';
import { EntityTypes, isEntityOfType, readEmployeeData } from '../../directory/entities';
import { readEntity } from '../../storage/tables/entities';
import type { IndexStores } from '../indexStores';
import { emailIndexContended } from '../indexingErrors';
import { RETRY, retryOptimistically, type Retry } from '../../storage/optimisticRetry';

/** Attempts before an address that keeps changing gives up. */
const MAX_ATTEMPTS = 20;

/**
 * The by-email entry of the address the primary holds, copied from its email copy without the
 * read-compare-recheck of {@link reconcileEmail}: the copy is rewritten in the same transaction as
 * the primary by every write, so the caller's final check that the primary is unchanged also
 * proves the copy was current when this upsert ran. Falls back to {@link reconcileEmail} when the
 * copy names someone else (the primary moved on; the caller's check will restart).
 *
 * @throws {DomainError} for storage faults.
 */
export async function copyCurrentEmail(
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
