/**
 * The import-at-scale case's department (bench/cases/importScale.ts): its rows (a quarter sharing
 * one last name, the others spread over the alphabet), a client policy counting the requests and
 * entities the directory's own table client sees, and the emulator's own insert cost measured
 * beside the import, so a slow-down of the emulator is not read as the app's.
 */
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import type { TableClient, TransactionAction } from '@azure/data-tables';
import type { IndexStores } from '../../src/indexing/indexStores';
import { newDrainCache } from '../../src/indexing/drain/drainCache';
import { lastNameStoreFor } from '../../src/indexing/lastNames/storeForMode';
import { rowKeyRangeFilter } from '../../src/storage/tables/filters';
import { departmentPartitionKey } from '../../src/storage/keys/tables/employees';
import { outboxRowKeyRange } from '../../src/storage/keys/tables/outbox';
import type { BenchEnv } from '../types';

export const DEPT = 'Big';
/** The last name every fourth employee shares. */
export const SHARED = 'Sharedname';

/**
 * Employee `n`: every fourth shares {@link SHARED}, the others each have a name of their own,
 * spread over the alphabet (a permutation of `n`), so the names of each call interleave with
 * those of the calls before it as real names do.
 */
export function row(n: number) {
  const employeeId = String(n).padStart(6, '0');
  return {
    employeeId,
    firstName: `First${n}`,
    lastName: n % 4 === 0 ? SHARED : `Family${String((n * 48_271) % 999_983).padStart(6, '0')}`,
    email: `e.${employeeId}@contoso.com`,
    age: 20 + (n % 45),
  };
}

/** Requests and entities one table client received (point reads count 1, queries their rows). */
export function countingPolicy(): { policy: PipelinePolicy; requests: number; entities: number } {
  const counts = {
    requests: 0,
    entities: 0,
    policy: {
      name: 'benchEntityCounter',
      // Counted before the answer: a 404 comes back as an error thrown through this policy.
      sendRequest: async (request, next) => {
        counts.requests++;
        const response = await next(request);
        if (request.method === 'GET' && response.status === 200 && response.bodyAsText) {
          try {
            const body = JSON.parse(response.bodyAsText) as { value?: unknown[] };
            counts.entities += Array.isArray(body.value) ? body.value.length : 1;
          } catch {
            // not JSON: not an entity read
          }
        }
        return response;
      },
    } satisfies PipelinePolicy,
  };
  return counts;
}

/**
 * Ms to insert 2,000 plain entities (an import call's employees and email copies) into the
 * department's partition, in transactions of 100, under keys no reader of the department uses.
 */
export async function rawInsertMs(table: TableClient, tag: string): Promise<number> {
  const partitionKey = departmentPartitionKey(DEPT);
  const started = performance.now();
  for (let start = 0; start < 2_000; start += 100) {
    await table.submitTransaction(
      Array.from({ length: 100 }, (_, i): TransactionAction => [
        'create',
        { partitionKey, rowKey: `zzraw_${tag}_${start + i}`, Data: 'x'.repeat(300) },
      ]),
    );
  }
  return performance.now() - started;
}

/** Outbox rows left in the department's partition. */
export async function outboxRows(stores: IndexStores): Promise<number> {
  let rows = 0;
  const filter = rowKeyRangeFilter(departmentPartitionKey(DEPT), outboxRowKeyRange());
  for await (const _ of stores.employees.listEntities({
    queryOptions: { filter, select: ['RowKey'] },
  })) {
    rows++;
  }
  return rows;
}

/** One simulated instance's index stores (its own drain cache, as a host has). */
export function storesOf(env: BenchEnv, names: { employees: string; index: string }): IndexStores {
  const index = env.clients.table(names.index);
  return {
    employees: env.clients.table(names.employees),
    index,
    lastNames: lastNameStoreFor('entity', index, env.clients.container('unused'), {}),
    drainCache: newDrainCache(),
  };
}
