/**
 * High-volume delete: removing one day of login attempts by dropping the day table (one request)
 * against the alternative of keeping them in a table that lives on — list the day's entities,
 * then delete them in entity group transactions of 100 — in the same run, 20,000 attempts each.
 */
import type { TableClient, TransactionAction } from '@azure/data-tables';
import { LoginDayTables } from '../../src/logins/loginDayTables';
import { invertedTicksRowKey } from '../../src/storage/keys/time';
import { loginAttemptPartitionKey } from '../../src/storage/keys/tables/logins';
import type { BenchCase, BenchEnv } from '../types';
import { atLeast, exactly, judge } from '../goals';

const USERS = 200;
const DAY = Date.parse('2026-03-01T00:00:00Z');

/** One day of attempts: `count` entities spread over {@link USERS} user partitions. */
function attemptsByUser(count: number): Map<string, TransactionAction[]> {
  const byUser = new Map<string, TransactionAction[]>();
  for (let i = 0; i < count; i++) {
    const partitionKey = loginAttemptPartitionKey(`user${i % USERS}@contoso.com`);
    const at = new Date(DAY + Math.floor((i * 86_400_000) / count));
    const action: TransactionAction = [
      'upsert',
      {
        partitionKey,
        rowKey: invertedTicksRowKey(at, i.toString(16).padStart(8, '0')),
        EntityType: 'LoginAttempt.v1',
        Succeeded: i % 7 !== 0,
        Ip: '203.0.113.7',
      },
      'Replace',
    ];
    byUser.set(partitionKey, [...(byUser.get(partitionKey) ?? []), action]);
  }
  return byUser;
}

/** Seeds with EGT upserts of up to 100 entities (one partition each), four transactions at a time. */
async function seed(table: TableClient, count: number): Promise<void> {
  await table.createTable();
  const batches: TransactionAction[][] = [];
  for (const actions of attemptsByUser(count).values()) {
    for (let i = 0; i < actions.length; i += 100) batches.push(actions.slice(i, i + 100));
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < batches.length) await table.submitTransaction(batches[next++]!);
    }),
  );
}

/** The baseline's clean-up: list the keys of every entity, delete them 100 per transaction. */
async function deleteEntityByEntity(table: TableClient): Promise<number> {
  const byPartition = new Map<string, string[]>();
  for await (const entity of table.listEntities({
    queryOptions: { select: ['PartitionKey', 'RowKey'] },
  })) {
    byPartition.set(entity.partitionKey!, [
      ...(byPartition.get(entity.partitionKey!) ?? []),
      entity.rowKey!,
    ]);
  }
  let deleted = 0;
  for (const [partitionKey, rowKeys] of byPartition) {
    for (let i = 0; i < rowKeys.length; i += 100) {
      await table.submitTransaction(
        rowKeys
          .slice(i, i + 100)
          .map((rowKey): TransactionAction => ['delete', { partitionKey, rowKey }]),
      );
      deleted += Math.min(100, rowKeys.length - i);
    }
  }
  return deleted;
}

async function count(table: TableClient): Promise<number> {
  let n = 0;
  for await (const _ of table.listEntities({ queryOptions: { select: ['RowKey'] } })) n++;
  return n;
}

const dropDay: BenchCase = {
  name: 'logins: delete one day of attempts (drop the day table vs batch deletes)',
  async run(env: BenchEnv) {
    const attempts = env.size(20_000);
    const prefix = env.uniqueName('LoginBench', { table: true });
    const tables = new LoginDayTables(env.clients, prefix);
    const dayTable = tables.clientOf(new Date(DAY));
    const keptTable = env.clients.table(env.uniqueName('LoginBenchKept', { table: true }));
    await seed(dayTable, attempts);
    await seed(keptTable, attempts);

    const pattern = await env.measure('drop the day table', attempts, async () => {
      const outcome = await tables.drop(dayTable.tableName);
      if (outcome !== 'dropped') throw new Error(`The day table was ${outcome}.`);
      return { entities: 0 };
    });
    const baseline = await env.measure('list + EGT deletes of 100', attempts, async () => {
      const deleted = await deleteEntityByEntity(keptTable);
      if (deleted !== attempts) throw new Error(`Deleted ${deleted} of ${attempts} attempts.`);
      return { entities: attempts };
    });
    const left = await count(keptTable);
    await env.clients.tableService().deleteTable(keptTable.tableName);
    if (left !== 0) throw new Error(`${left} attempts survived the batch deletes.`);

    return {
      name: `delete one day of ${attempts} login attempts (${USERS} users)`,
      pattern,
      baseline,
      goal: judge('≥ 500× faster; 1 request against ~1 per 100 entities plus the listing', [
        atLeast('time baseline / pattern', baseline.wallMs / pattern.wallMs, 500, '×'),
        exactly('requests to drop the day', pattern.requests, 1),
      ]),
      notes:
        `pattern: ${pattern.requests} request; baseline: ${baseline.requests} requests ` +
        `(${Math.ceil(attempts / 1000)} listing pages + ${Math.ceil(attempts / 100)} transactions). ` +
        'On Azure a deleted table name stays unusable for a while (about 40 s), which is why every day gets a new table.',
    };
  },
};

export default dropDay;
