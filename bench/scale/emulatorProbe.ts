/**
 * The emulator's own cost of the import's access at the department's current size: time to insert
 * 1,000 plain entities into the department's partition (transactions of 100, as the import
 * writes), then delete them again. Azurite scans a partition on every insert and point read, so
 * its times grow with the partition whatever the app does; on Azure they do not. The real-size
 * scenario probes before the first import call and after the last one, so a reader can tell the
 * app's growth from the emulator's.
 */
import { TableClient, type TransactionAction } from '@azure/data-tables';
import { departmentPartitionKey } from '../../src/storage/keys/tables/employees';

/** Entities per probe: one import call's employees. */
export const PROBE_ENTITIES = 1_000;
const PER_TRANSACTION = 100;

/** Where the probe writes: the app's storage and its employees table. */
export interface ProbeTarget {
  connectionString: string;
  employeesTable: string;
}

/** A table client for the app's employees table (plain HTTP allowed: the emulator). */
export function probeTable(target: ProbeTarget): TableClient {
  return TableClient.fromConnectionString(target.connectionString, target.employeesTable, {
    allowInsecureConnection: true,
  });
}

function probeActions(
  kind: 'create' | 'delete',
  partitionKey: string,
  tag: string,
  start: number,
): TransactionAction[] {
  return Array.from({ length: PER_TRANSACTION }, (_, i): TransactionAction => {
    // "~" sorts after every key the app writes, so no reader of the department sees these rows.
    const rowKey = `~probe_${tag}_${String(start + i).padStart(5, '0')}`;
    return kind === 'create'
      ? ['create', { partitionKey, rowKey, Data: 'x'.repeat(300) }]
      : ['delete', { partitionKey, rowKey }];
  });
}

/**
 * Ms to insert {@link PROBE_ENTITIES} entities into `department`'s partition; the rows are
 * deleted again afterwards (not timed).
 *
 * @throws the SDK's `RestError` when the storage refuses a transaction.
 */
export async function probeInsertMs(
  table: TableClient,
  department: string,
  tag: string,
): Promise<number> {
  const partitionKey = departmentPartitionKey(department);
  const started = performance.now();
  for (let start = 0; start < PROBE_ENTITIES; start += PER_TRANSACTION) {
    await table.submitTransaction(probeActions('create', partitionKey, tag, start));
  }
  const ms = performance.now() - started;
  for (let start = 0; start < PROBE_ENTITIES; start += PER_TRANSACTION) {
    await table.submitTransaction(probeActions('delete', partitionKey, tag, start));
  }
  return ms;
}
