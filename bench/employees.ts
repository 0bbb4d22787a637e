/**
 * Deterministic employee bodies shared by the benchmark cases: ids 000001.., 200 last names (so
 * last-name index entities hold many ids), unique emails.
 */
import type { TransactionAction } from '@azure/data-tables';
import {
  countShardEntity,
  DEPARTMENT_COUNT_SHARDS,
  emailCopyEntity,
  employeeEntity,
  lastNameIndexEntity,
  outboxEntity,
} from '../src/directory/entities';
import { departmentPartitionKey } from '../src/storage/keys/tables/employees';
import { normalizeLastName } from '../src/storage/keys/text';

/** The API body of employee number `n`. */
export interface BenchEmployee {
  employeeId: string;
  firstName: string;
  lastName: string;
  email: string;
  age: number;
}

/** Employee number `n` (1-based), the same in every case and run. */
export function benchEmployee(n: number): BenchEmployee {
  const employeeId = String(n).padStart(6, '0');
  return {
    employeeId,
    firstName: `First${n % 500}`,
    lastName: `Surname${String(n % 200).padStart(3, '0')}`,
    email: `employee.${employeeId}@contoso.com`,
    age: 20 + (n % 45),
  };
}

/**
 * The raw transaction of the entities a service create writes, with nothing around it: employee,
 * email copy, a count shard, the department's last-name index entity (holding every id of that
 * name so far, tracked in `ids`) and, with `outbox`, an index outbox row. Upserts, so no ETag is
 * tracked or read.
 */
export function rawCreateOfSameEntities(
  department: string,
  ids: Map<string, string[]>,
  n: number,
  outbox: boolean,
): TransactionAction[] {
  const data = benchEmployee(n);
  const partitionKey = departmentPartitionKey(department);
  const primary = employeeEntity(partitionKey, data, {
    isManager: false,
    writeId: 'raw',
    reviewYears: [],
  });
  const lastName = normalizeLastName(data.lastName);
  const members = [...(ids.get(lastName) ?? []), data.employeeId];
  ids.set(lastName, members);
  const actions: TransactionAction[] = [
    ['create', primary],
    ['create', emailCopyEntity(primary)],
    ['upsert', countShardEntity(partitionKey, n % DEPARTMENT_COUNT_SHARDS, n), 'Merge'],
    ['upsert', lastNameIndexEntity(partitionKey, { lastName, ids: members }), 'Replace'],
  ];
  if (outbox) {
    const current = { email: data.email, lastName: data.lastName };
    const change = { employeeId: data.employeeId, reason: 'created' as const, current };
    actions.push(['upsert', outboxEntity(partitionKey, [change]), 'Replace']);
  }
  return actions;
}
