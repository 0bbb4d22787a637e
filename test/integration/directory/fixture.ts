/**
 * A directory over this test's own `Employees` table on the shared Azurite, with a change sink
 * that records what it receives.
 */
import type { TableClient } from '@azure/data-tables';
import { expectedSamePartitionIndexes } from '../../../src/directory/entities/indexProjection';
import type { EmployeeChange, EmployeeChangeSink } from '../../../src/directory/changes';
import {
  createDirectory,
  type Directory,
  type DirectoryOptions,
} from '../../../src/directory/directory';
import { testClients, uniqueTableName } from '../../support/storage';

export interface DirectoryFixture {
  directory: Directory;
  table: TableClient;
  changes: EmployeeChange[];
  /** A second directory instance on the same table (another process, with its own caches). */
  another(options?: Partial<DirectoryOptions>): Directory;
  cleanup(): Promise<void>;
}

export function createDirectoryFixture(options: Partial<DirectoryOptions> = {}): DirectoryFixture {
  const table = testClients().table(uniqueTableName('Emp'));
  const changes: EmployeeChange[] = [];
  const sink: EmployeeChangeSink = {
    publish: async (batch) => {
      changes.push(...batch);
    },
  };
  return {
    directory: createDirectory({ employees: table, changes: sink, ...options }),
    table,
    changes,
    another: (more = {}) =>
      createDirectory({ employees: table, changes: sink, ...options, ...more }),
    cleanup: async () => {
      await table.deleteTable();
    },
  };
}

/** A valid employee body with id `n` (6 digits) and a predictable email. */
export function employeeBody(
  n: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const employeeId = String(n).padStart(6, '0');
  return {
    employeeId,
    firstName: `First${employeeId}`,
    lastName: `Last${n % 7}`,
    email: `user${employeeId}@contoso.com`,
    age: 20 + (n % 40),
    ...overrides,
  };
}

/** Every entity of one partition (for checking what storage holds). */
export async function partitionEntities(
  table: TableClient,
  partitionKey: string,
): Promise<Record<string, unknown>[]> {
  const { odata } = await import('@azure/data-tables');
  const entities: Record<string, unknown>[] = [];
  for await (const e of table.listEntities({
    queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` },
  })) {
    entities.push(e);
  }
  return entities;
}

/** Stored index entities and the projection's, both as comparable plain objects. */
export async function compareIndexes(
  table: TableClient,
  partitionKey: string,
): Promise<{ stored: unknown[]; expected: unknown[] }> {
  const entities = await partitionEntities(table, partitionKey);
  const strip = (e: Record<string, unknown>): Record<string, unknown> => {
    const { etag: _etag, timestamp: _timestamp, ...rest } = e;
    return rest;
  };
  const primaries = entities
    .filter((e) => e.EntityType === 'Employee.v1')
    .map((e) => strip(e) as { partitionKey: string; rowKey: string });
  const expected = expectedSamePartitionIndexes(primaries);
  const sortByKey = (list: Record<string, unknown>[]): Record<string, unknown>[] =>
    [...list].sort((a, b) => String(a.rowKey).localeCompare(String(b.rowKey)));
  return {
    stored: sortByKey(
      entities
        .filter((e) => e.EntityType === 'EmployeeEmail.v1' || e.EntityType === 'LastNameIndex.v1')
        .map(strip),
    ),
    expected: sortByKey([...expected.emailCopies, ...expected.lastNameIndexes] as Record<
      string,
      unknown
    >[]),
  };
}
