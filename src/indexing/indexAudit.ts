/**
 * Recomputes the asynchronous indexes from the primary entities and compares them with what is
 * stored: the convergence tests use it, and the index audit orchestration can reuse it.
 */
import { odata, type TableClient } from '@azure/data-tables';
import { readEmployeeData, type StoredProperties } from '../directory/employeeEntity';
import { EntityTypes, isEntityOfType } from '../directory/entityTypes';
import { ensureTable } from '../directory/tables';
import { withStorageErrors } from '../storage/errors';
import {
  emailIndexRowKey,
  normalizeLastName,
  parseDepartmentPartitionKey,
  parseIndexPartitionKey,
} from '../storage/keys';
import { IndexEntityTypes } from './indexEntities';
import { encodeMember, type LastNameStore } from './lastNameStore';

/** Differences between stored and recomputed indexes (entries named `kind:key`). */
export interface IndexAuditReport {
  checked: number;
  missing: string[];
  stale: string[];
}

/**
 * Compares `EmployeeIndex` (by-id and by-email entries) and the last-name store with the entries
 * the current primary employees imply. Reads whole tables: for audits and tests, not hot paths.
 *
 * @throws {DomainError} for storage faults.
 */
export async function auditIndexes(
  employees: TableClient,
  index: TableClient,
  lastNames: LastNameStore,
): Promise<IndexAuditReport> {
  await Promise.all([ensureTable(employees), ensureTable(index)]);
  const expected = new Map<string, string>();
  const expectedNames = new Map<string, Set<string>>();
  await withStorageErrors(async () => {
    for await (const entity of employees.listEntities<StoredProperties>({
      queryOptions: { filter: odata`EntityType eq ${EntityTypes.employee}` },
    })) {
      const department = parseDepartmentPartitionKey(entity.partitionKey ?? '');
      const data = isEntityOfType(entity, EntityTypes.employee)
        ? readEmployeeData(entity)
        : undefined;
      if (department === undefined || !data) continue;
      const fingerprint = JSON.stringify([
        data.firstName,
        data.lastName,
        data.email,
        data.age ?? null,
        data.photoUrl ?? null,
      ]);
      expected.set(`id:${department}/${data.employeeId}`, fingerprint);
      expected.set(`email:${department}/${emailIndexRowKey(data.email)}`, fingerprint);
      const name = normalizeLastName(data.lastName);
      const set = expectedNames.get(name) ?? new Set<string>();
      set.add(encodeMember({ department, employeeId: data.employeeId }));
      expectedNames.set(name, set);
    }
  });

  const stored = new Map<string, string>();
  await withStorageErrors(async () => {
    for await (const entity of index.listEntities<StoredProperties>()) {
      const parsed = parseIndexPartitionKey(entity.partitionKey ?? '');
      if (!parsed) continue;
      const type = parsed.index === 'id' ? IndexEntityTypes.byId : IndexEntityTypes.byEmail;
      if (entity.EntityType !== type) continue;
      const fingerprint = JSON.stringify([
        entity.FirstName,
        entity.LastName,
        entity.Email,
        entity.Age ?? null,
        entity.PhotoUrl ?? null,
      ]);
      stored.set(`${parsed.index}:${parsed.department}/${entity.rowKey}`, fingerprint);
    }
  });

  const missing: string[] = [];
  const stale: string[] = [];
  for (const [key, fingerprint] of expected) {
    const found = stored.get(key);
    if (found === undefined) missing.push(key);
    else if (found !== fingerprint) stale.push(key);
  }
  for (const key of stored.keys()) if (!expected.has(key)) stale.push(key);

  const storedNames = await lastNames.all();
  for (const [name, members] of expectedNames) {
    const have = new Set((storedNames.get(name) ?? []).map(encodeMember));
    for (const member of members) if (!have.has(member)) missing.push(`lastName:${name}:${member}`);
  }
  for (const [name, members] of storedNames) {
    for (const member of members.map(encodeMember)) {
      if (!expectedNames.get(name)?.has(member)) stale.push(`lastName:${name}:${member}`);
    }
  }
  return {
    checked: expected.size + [...expectedNames.values()].reduce((n, s) => n + s.size, 0),
    missing,
    stale,
  };
}
