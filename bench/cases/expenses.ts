/**
 * Log tail: the 10 newest of 10,000 expense claims by one `$top=10` query over inverted-ticks
 * RowKeys, against reading the whole partition and sorting client-side — in the same run.
 */
import { odata, type TransactionAction } from '@azure/data-tables';
import { percentile } from '../harness';
import { expenseClaimEntity, ExpenseClaimLog } from '../../src/expenses/expenseClaims';
import { employeePartitionKey } from '../../src/storage/keys/tables/employeePartitions';
import { parseInvertedTicksRowKey } from '../../src/storage/keys/time';
import type { BenchCase, BenchEnv, Measurement } from '../types';
import { exactly, judge } from '../goals';

const HOUR = Date.parse('2026-04-01T09:00:00Z');

async function sampled(
  env: BenchEnv,
  label: string,
  reads: number,
  read: () => Promise<Date[]>,
  expected: Date[],
): Promise<Measurement> {
  const samples: number[] = [];
  const measurement = await env.measure(label, reads, async () => {
    env.resetTraffic();
    for (let i = 0; i < reads; i++) {
      const started = process.hrtime.bigint();
      const newest = await read();
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (newest.map((d) => d.getTime()).join() !== expected.map((d) => d.getTime()).join()) {
        throw new Error(`${label} returned the wrong claims.`);
      }
    }
    // What storage returned, as the proxy counted it.
    return { entities: env.traffic().entitiesRead };
  });
  return { ...measurement, p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) };
}

const newestClaims: BenchCase = {
  name: 'expenses: newest 10 claims (log tail $top vs partition read + sort)',
  async run(env: BenchEnv) {
    const claims = env.size(10_000);
    const table = env.clients.table(env.uniqueName('ExpensesBench', { table: true }));
    await table.createTable();
    const partitionKey = employeePartitionKey('Sales', '000223');
    // Claims spread over one hour, loaded in random order by EGT creates of 100.
    const times = Array.from(
      { length: claims },
      (_, i) => new Date(HOUR + Math.floor((i * 3_600_000) / claims)),
    );
    const shuffled = [...times].sort(() => Math.random() - 0.5);
    for (let i = 0; i < shuffled.length; i += 100) {
      await table.submitTransaction(
        shuffled.slice(i, i + 100).map((at, k): TransactionAction => [
          'create',
          expenseClaimEntity(partitionKey, at, (i + k).toString(16).padStart(8, '0'), {
            amount: 12.5,
            currency: 'EUR',
            description: `Claim ${i + k}`,
          }),
        ]),
      );
    }
    const expected = [...times].sort((a, b) => b.getTime() - a.getTime()).slice(0, 10);
    const log = new ExpenseClaimLog(table);
    // Both sides do the same number of reads so the harness's ratios compare like with like.
    const reads = env.size(20);
    await log.newest('Sales', '000223', 10); // warm-up: the per-process create-table check

    const pattern = await sampled(
      env,
      '$top=10 on inverted ticks',
      reads,
      async () => (await log.newest('Sales', '000223', 10)).map((c) => c.submittedAt),
      expected,
    );
    const baseline = await sampled(
      env,
      'read the partition, sort client-side',
      reads,
      async () => {
        const all: Date[] = [];
        const filter = odata`PartitionKey eq ${partitionKey}`;
        for await (const entity of table.listEntities({ queryOptions: { filter } })) {
          all.push(parseInvertedTicksRowKey(entity.rowKey!)!.at);
        }
        return all.sort((a, b) => b.getTime() - a.getTime()).slice(0, 10);
      },
      expected,
    );
    await env.clients.tableService().deleteTable(table.tableName);

    return {
      name: `newest 10 of ${claims} claims in one partition`,
      pattern,
      baseline,
      goal: judge('1 request and 10 entities per read, against the whole partition', [
        exactly('requests per read', pattern.requests / reads, 1),
        exactly('entities per read', (pattern.entities ?? NaN) / reads, 10),
      ]),
      notes:
        `per read: pattern ${(pattern.requests / reads).toFixed(1)} request, 10 entities; ` +
        `baseline ${(baseline.requests / reads).toFixed(1)} requests (pages of 1,000), ${claims} entities.`,
    };
  },
};

export default newestClaims;
