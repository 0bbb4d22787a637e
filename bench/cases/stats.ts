/**
 * Data series: a 24-hour message chart from one entity with 24 hourly counters (one point read)
 * against the naive design of one entity per hour, read either by 24 point reads or by one
 * partition range query — in the same run.
 */
import { odata, type TransactionAction } from '@azure/data-tables';
import { percentile } from '../harness';
import { MessageStats } from '../../src/stats/messageStats';
import { employeePartitionKey } from '../../src/storage/keys/tables/employeePartitions';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { exactly, judge } from '../goals';

const DAY = Date.parse('2026-05-20T00:00:00Z');

function hourRowKey(hour: number): string {
  return `hour_20260520${hour.toString().padStart(2, '0')}`;
}

async function sampled(
  env: BenchEnv,
  label: string,
  charts: number,
  readChart: () => Promise<number[]>,
): Promise<Measurement> {
  const samples: number[] = [];
  const measurement = await env.measure(label, charts, async () => {
    env.resetTraffic();
    for (let i = 0; i < charts; i++) {
      const started = process.hrtime.bigint();
      const hours = await readChart();
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (hours.length !== 24 || hours[13] !== 14)
        throw new Error(`${label} read a wrong chart: ${hours.join(',')}`);
    }
    // What storage returned, as the proxy counted it.
    return { entities: env.traffic().entitiesRead };
  });
  return { ...measurement, p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) };
}

const chart: BenchCase = {
  name: 'stats: 24-hour chart (data series vs one entity per hour)',
  async run(env: BenchEnv): Promise<Comparison[]> {
    const charts = env.size(500);
    const seriesTable = env.clients.table(env.uniqueName('StatsBench', { table: true }));
    const hourlyTable = env.clients.table(env.uniqueName('StatsBenchHours', { table: true }));
    const stats = new MessageStats(seriesTable);
    const partitionKey = employeePartitionKey('Sales', '000223');

    // The same counts in both designs: hour h has h + 1 messages.
    for (let hour = 0; hour < 24; hour++) {
      await stats.record('Sales', '000223', {
        at: new Date(DAY + hour * 3_600_000),
        count: hour + 1,
      });
    }
    await hourlyTable.createTable();
    await hourlyTable.submitTransaction(
      Array.from({ length: 24 }, (_, hour): TransactionAction => [
        'create',
        { partitionKey, rowKey: hourRowKey(hour), Count: hour + 1 },
      ]),
    );

    const pattern = await sampled(env, 'one point read of the day entity (H00..H23)', charts, () =>
      stats.hourly('Sales', '000223', new Date(DAY)),
    );
    const pointReads = await sampled(env, '24 point reads of hourly entities', charts, () =>
      Promise.all(
        Array.from({ length: 24 }, async (_, hour) => {
          const entity = await hourlyTable.getEntity<{ Count: number }>(
            partitionKey,
            hourRowKey(hour),
          );
          return entity.Count;
        }),
      ),
    );
    const rangeQuery = await sampled(
      env,
      'one range query over 24 hourly entities',
      charts,
      async () => {
        const hours = Array<number>(24).fill(0);
        const filter = odata`PartitionKey eq ${partitionKey} and RowKey ge ${hourRowKey(0)} and RowKey le ${hourRowKey(23)}`;
        for await (const entity of hourlyTable.listEntities<{ Count: number }>({
          queryOptions: { filter },
        })) {
          hours[Number(entity.rowKey!.slice(-2))] = entity.Count;
        }
        return hours;
      },
    );
    for (const table of [seriesTable, hourlyTable])
      await env.clients.tableService().deleteTable(table.tableName);

    const goal = judge('1 request and 1 entity per chart', [
      exactly('requests per chart', pattern.requests / charts, 1),
      exactly('entities per chart', (pattern.entities ?? NaN) / charts, 1),
    ]);
    return [
      {
        name: `24-hour chart vs 24 point reads (${charts} charts)`,
        pattern,
        baseline: pointReads,
        goal,
        notes:
          'per chart: pattern 1 request, 1 entity; baseline 24 requests (sent in parallel), 24 entities.',
      },
      {
        name: `24-hour chart vs one range query (${charts} charts)`,
        pattern,
        baseline: rangeQuery,
        goal,
        notes:
          'per chart: pattern 1 point read, 1 entity; baseline 1 query returning 24 entities (24× the entities billed as scanned on Azure).',
      },
    ];
  },
};

export default chart;
