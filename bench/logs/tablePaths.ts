/**
 * The logs case's baselines (bench/cases/logs.ts): the same entries written to a table, one
 * entity per line in the hour's partition — one insert each (the anti-pattern as usually written)
 * or entity group transactions of 100 (the best a table can do, still one hot partition per hour).
 */
import { odata, type TableClient, type TransactionAction } from '@azure/data-tables';
import type { LogBatch } from '../../src/logs/entry';
import { ticksRowKey, utcDayStamp } from '../../src/storage/keys/time';
import { mapSettled } from '../../src/storage/parallel';
import type { BenchEnv, Measurement } from '../types';
import { ENTRIES_PER_BATCH } from './logWorkload';

/** Inserts entry `i` of batch `b` as one entity of its hour's partition. */
export async function tableEntity(
  table: TableClient,
  batch: LogBatch,
  b: number,
  i: number,
): Promise<void> {
  const entry = batch.entries[i]!;
  const hour = `${utcDayStamp(entry.at)}${String(entry.at.getUTCHours()).padStart(2, '0')}`;
  await table.createEntity({
    partitionKey: `${batch.source}_${hour}`,
    rowKey: ticksRowKey(entry.at, `${b}-${i}`),
    Level: entry.level,
    Message: entry.message,
    Extra: JSON.stringify(entry.extra),
  });
}

/** Batch `b`'s entries as create actions, grouped by hour partition. */
export function tableActions(batch: LogBatch, b: number): Map<string, TransactionAction[]> {
  const byPartition = new Map<string, TransactionAction[]>();
  batch.entries.forEach((entry, i) => {
    const hour = `${utcDayStamp(entry.at)}${String(entry.at.getUTCHours()).padStart(2, '0')}`;
    const partitionKey = `${batch.source}_${hour}`;
    const actions = byPartition.get(partitionKey) ?? [];
    actions.push([
      'create',
      {
        partitionKey,
        rowKey: ticksRowKey(entry.at, `${b}-${i}`),
        Level: entry.level,
        Message: entry.message,
        Extra: JSON.stringify(entry.extra),
      },
    ]);
    byPartition.set(partitionKey, actions);
  });
  return byPartition;
}

/** The log entities in `table`. */
export async function countEntities(table: TableClient): Promise<number> {
  let count = 0;
  for await (const page of table
    .listEntities({
      queryOptions: { filter: odata`PartitionKey ge ${'web_'}`, select: ['RowKey'] },
    })
    .byPage({ maxPageSize: 1000 })) {
    count += page.length;
  }
  return count;
}

/** The table baselines, measured on a sample of the batches. */
export interface TablePaths {
  perEntry: Measurement;
  egt: Measurement;
  sampleLines: number;
}

/**
 * Azurite inserts a few hundred entities a second, so the table paths write a sample of the
 * same entries; every figure is compared per 10,000 lines.
 */
export async function measureTablePaths(
  env: BenchEnv,
  tables: { perEntryTable: TableClient; batchedTable: TableClient },
  batches: LogBatch[],
): Promise<TablePaths> {
  const sample = batches.slice(0, Math.max(1, Math.min(batches.length, env.size(100))));
  const sampleLines = sample.length * ENTRIES_PER_BATCH;
  const perEntry = await env.measure('table path: one insert per line', sampleLines, async () => {
    await mapSettled(
      sample.flatMap((batch, b) => batch.entries.map((_, i) => [batch, b, i] as const)),
      32,
      ([batch, b, i]) => tableEntity(tables.perEntryTable, batch, b, i),
    );
  });
  const egt = await env.measure(
    'table path: entity group transactions of 100',
    sampleLines,
    async () => {
      const transactions = sample.flatMap((batch, b) => [...tableActions(batch, b).values()]);
      await mapSettled(transactions, 16, (actions) =>
        tables.batchedTable.submitTransaction(actions),
      );
    },
  );
  const stored = await countEntities(tables.perEntryTable);
  if (stored !== sampleLines)
    throw new Error(`Table path stored ${stored} entities, expected ${sampleLines}.`);
  return { perEntry, egt, sampleLines };
}
