/**
 * The forward pass's audits of the copies in the employee's own partition (employeePageAudit.ts
 * reads them): email copies and the same-partition last-name index entities. Apart because each
 * repair here is one transaction that carries a no-op Merge of the employees it concerns,
 * conditional on the ETags judged, so a repair never brings back an employee deleted meanwhile.
 */
import type { TableAccess } from '../../storage/tables/tableAccess';
import {
  MAX_TRANSACTION_OPERATIONS,
  submitEntityGroupTransaction,
  type EntityGroupAction,
} from '../../storage/tables/entityGroupTransaction';
import { tookEffect } from '../../storage/storageFaults';
import { normalizeLastName } from '../../storage/keys/text';
import { readEntity, type StoredEntity } from '../../storage/tables/entities';
import {
  emailCopyEntity,
  lastNameIndexEntity,
  readLastNameIndex,
  withIds,
} from '../../directory/entities';
import { noCounts, type AuditCounts } from './auditCounts';
import { dataFingerprint } from './indexDiff';

/** The employee's own entity, unchanged since `etag`: a no-op Merge that fails otherwise. */
function unchanged(primary: StoredEntity): EntityGroupAction {
  return [
    'update',
    { partitionKey: primary.partitionKey, rowKey: primary.rowKey },
    'Merge',
    { etag: primary.etag },
  ];
}

/** Email copies of the judged employees: missing ones created, differing ones replaced. */
export async function auditEmailCopies(
  table: TableAccess,
  judged: readonly StoredEntity[],
  stored: readonly (readonly [StoredEntity, StoredEntity | undefined])[],
  repair: boolean,
): Promise<AuditCounts> {
  const copyOf = new Map(stored);
  const counts = noCounts();
  for (const primary of judged) {
    counts.checked++;
    const want = emailCopyEntity(primary);
    const have = copyOf.get(primary);
    if (have && dataFingerprint(want) === dataFingerprint(have)) continue;
    if (have) counts.stale++;
    else counts.missing++;
    if (!repair) continue;
    const write = have
      ? () => table.updateEntity(want, 'Replace', { etag: have.etag })
      : // Created only while the employee is still as read: never a copy of a deleted employee.
        () => submitEntityGroupTransaction(table, [['create', want], unchanged(primary)]);
    if (await tookEffect(write)) counts.repaired++;
  }
  return counts;
}

/**
 * The same-partition last-name index entities must list every judged employee under its
 * normalised last name (one count per employee; ids listed by no employee are the reverse pass's).
 * A missing id is added in one transaction with no-op Merges of the employees added, conditional
 * on their ETags, so an employee deleted since is never listed again.
 */
export async function auditLastNameMembership(
  table: TableAccess,
  judged: readonly StoredEntity[],
  entities: ReadonlyMap<string, StoredEntity | undefined>,
  repair: boolean,
): Promise<AuditCounts> {
  const counts = noCounts();
  const missingByName = new Map<string, StoredEntity[]>();
  for (const primary of judged) {
    counts.checked++;
    const name = normalizeLastName(String(primary.LastName));
    const entity = entities.get(name);
    const ids = entity ? (readLastNameIndex(entity)?.ids ?? []) : [];
    if (ids.includes(String(primary.EmployeeId))) continue;
    counts.missing++;
    missingByName.set(name, [...(missingByName.get(name) ?? []), primary]);
  }
  if (!repair) return counts;
  for (const [name, missing] of missingByName) {
    let entity = entities.get(name);
    for (let i = 0; i < missing.length; i += MAX_TRANSACTION_OPERATIONS - 1) {
      const group = missing.slice(i, i + MAX_TRANSACTION_OPERATIONS - 1);
      const index = entity ? readLastNameIndex(entity) : undefined;
      const ids = withIds(
        index?.ids ?? [],
        group.map((p) => String(p.EmployeeId)),
      );
      const write = lastNameIndexEntity(group[0]!.partitionKey, { lastName: name, ids });
      const actions: EntityGroupAction[] = [
        entity ? ['update', write, 'Replace', { etag: entity.etag }] : ['create', write],
        ...group.map(unchanged),
      ];
      if (!(await tookEffect(() => submitEntityGroupTransaction(table, actions)))) break;
      counts.repaired += group.length;
      // The entity just written (the next group's condition); the Merges proved its employees.
      entity = await readEntity(table, write.partitionKey, write.rowKey);
    }
  }
  return counts;
}
