/**
 * Orchestration services over unique tables, queue and container on the shared Azurite, with a
 * directory to seed data through and readers to inspect every copy and index.
 */
import type { TableClient } from '@azure/data-tables';
import type { LastNameIndexMode } from '../../../src/config';
import { discardChanges } from '../../../src/directory/changes';
import { createContext } from '../../../src/directory/context';
import { createDirectory, type Directory } from '../../../src/directory/directory';
import { lastNameStoreFor } from '../../../src/indexing/lastNames/storeForMode';
import type { CopyResult } from '../../../src/orchestrations/move/copyToTarget';
import {
  copyToTargetActivity,
  removeFromSourceActivity,
} from '../../../src/orchestrations/move/moveActivities';
import { MAX_COPY_ROUNDS, type MoveInput } from '../../../src/orchestrations/move/moveRequest';
import { isRefusal } from '../../../src/orchestrations/refusal';
import { isRelocationWait } from '../../../src/orchestrations/relocationWait';
import type { OrchestrationServices } from '../../../src/orchestrations/services';
import type { StorageClients } from '../../../src/storage/clients';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

export interface TestWorld {
  services: OrchestrationServices;
  /** A directory over the same table (for seeding and reading back). */
  directory: Directory;
  employees: TableClient;
  index: TableClient;
  archive: TableClient;
  clients: StorageClients;
  /** Every entity of the `Employees` table, as `rowKey@partitionKey` → entity. */
  snapshot(): Promise<Map<string, Record<string, unknown>>>;
  cleanup(): Promise<void>;
}

/** Builds services over fresh storage (optionally through another connection, e.g. a fault proxy). */
export async function createWorld(
  options: { connectionString?: string; lastNameMode?: LastNameIndexMode } = {},
): Promise<TestWorld> {
  const clients = testClients(options.connectionString);
  const names = {
    employees: uniqueTableName('OrchEmp'),
    index: uniqueTableName('OrchIdx'),
    archive: uniqueTableName('OrchArc'),
    container: uniqueName('orchnames'),
    photos: uniqueName('orchphotos'),
  };
  const employees = clients.table(names.employees);
  const index = clients.table(names.index);
  const archive = clients.table(names.archive);
  await Promise.all([employees.createTable(), index.createTable(), archive.createTable()]);
  const directory = createDirectory({ employees, departmentCacheTtlMs: 0 });
  const services: OrchestrationServices = {
    directory: createContext({ employees }),
    employees: directory.employees,
    archive,
    photos: clients.container(names.photos),
    changes: discardChanges,
    indexStores: {
      employees,
      index,
      lastNames: lastNameStoreFor(
        options.lastNameMode ?? 'entity',
        index,
        clients.container(names.container),
      ),
    },
  };
  return {
    services,
    directory,
    employees,
    index,
    archive,
    clients,
    snapshot: async () => {
      const all = new Map<string, Record<string, unknown>>();
      for await (const entity of employees.listEntities<Record<string, unknown>>()) {
        const { etag: _etag, timestamp: _timestamp, ...data } = entity;
        all.set(`${entity.rowKey}@${entity.partitionKey}`, data);
      }
      return all;
    },
    cleanup: async () => {
      await Promise.allSettled([
        employees.deleteTable(),
        index.deleteTable(),
        archive.deleteTable(),
        clients.container(names.container).deleteIfExists(),
        clients.container(names.photos).deleteIfExists(),
      ]);
    },
  };
}

/** Creates a department with employees `{id, lastName, email}` through the directory. */
export async function seed(
  directory: Directory,
  department: string,
  employees: { employeeId: string; lastName: string; email: string }[],
): Promise<void> {
  await directory.departments.put(department, { description: department });
  if (employees.length === 0) return;
  for (let i = 0; i < employees.length; i += 1000) {
    const rows = employees.slice(i, i + 1000).map((e) => ({ ...e, firstName: 'Pat', age: 40 }));
    const result = await directory.employees.import(department, rows);
    if (result.failed.length > 0) throw new Error(JSON.stringify(result.failed));
  }
}

/** `count` employees with ids from `first`, last names cycling over a few. */
export function people(
  count: number,
  first = 1,
): { employeeId: string; lastName: string; email: string }[] {
  const lastNames = ['Jones', 'Smith', 'Ng', 'Müller'];
  return Array.from({ length: count }, (_, i) => {
    const id = String(first + i).padStart(6, '0');
    return {
      employeeId: id,
      lastName: lastNames[i % lastNames.length]!,
      email: `p${id}@contoso.com`,
    };
  });
}

/**
 * Copy and remove as the move orchestrator does (each round refreshes only the target version the
 * previous round wrote), running `meanwhile` once between the first copy and the first removal.
 *
 * @returns how many copies it took.
 */
export async function runCopyAndRemove(
  services: OrchestrationServices,
  move: MoveInput,
  meanwhile: () => Promise<void> = async () => {},
): Promise<number> {
  let copy: CopyResult | undefined;
  for (let round = 1; round <= MAX_COPY_ROUNDS; round++) {
    const result = await copyToTargetActivity(services, { ...move, ownedEtag: copy?.targetEtag });
    if (isRefusal(result)) throw new Error(`${result.refused.code}: ${result.refused.message}`);
    if (isRelocationWait(result)) throw new Error(`Relocating: ${result.relocating.message}`);
    copy = result;
    if (round === 1) await meanwhile();
    const removal = await removeFromSourceActivity(services, { ...move, copied: copy });
    if (isRefusal(removal)) throw new Error(removal.refused.message);
    if (isRelocationWait(removal)) throw new Error(`Relocating: ${removal.relocating.message}`);
    if (!('sourceChanged' in removal)) return round;
  }
  throw new Error('the source kept changing');
}
