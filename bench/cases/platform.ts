/**
 * Platform costs every pattern builds on.
 *
 * 1. Entity group transactions: 1,000 entities of one partition upserted in transactions of 100
 *    (`submitTransaction`) vs one `upsertEntity` call each — the round trips an EGT saves.
 * 2. Host overhead: the same storage work reached over HTTP through the local Functions host vs
 *    called in-process — `GET /api/departments/{dept}` (one point read) vs the SDK's `getEntity`,
 *    and `GET /api/health` (the instance's cached probe: one list call per service at most every
 *    5 s) vs `checkHealth` in-process, which probes on every call.
 *
 * The host is started from the build (`node dist/tools/host/cli.js`, as `npm run bench` builds
 * first) with only the functions file the comparison needs, so no queue trigger polls storage
 * while it is measured; it talks to storage through the counting proxy.
 */
import type { TableEntity, TransactionAction } from '@azure/data-tables';
import { checkHealth, HEALTH_PROBE_INTERVAL_MS } from '../../src/health/health';
import {
  DEPARTMENT_ROW_KEY,
  departmentPartitionKey,
  employeeRowKey,
} from '../../src/storage/keys/tables/employees';
import { startBuiltHost } from '../builtHost';
import { percentile } from '../harness';
import { adminPrincipal, asPrincipal, readerPrincipal } from '../principals';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { atLeast, atMost, exactly, holds, judge, num, type Criterion } from '../goals';

const TRANSACTION_SIZE = 100;

// ---------------------------------------------------------------------------------------------
// 1. Entity group transactions vs single upserts
// ---------------------------------------------------------------------------------------------

function employees(count: number): TableEntity[] {
  const partitionKey = departmentPartitionKey('Sales');
  return Array.from({ length: count }, (_, n) => {
    const id = String(n + 1).padStart(6, '0');
    return {
      partitionKey,
      rowKey: employeeRowKey(id),
      EntityType: 'Employee.v1',
      EmployeeId: id,
      FirstName: `First${n}`,
      LastName: `Last${n % 97}`,
      Email: `employee${n}@contoso.com`,
      Age: 20 + (n % 45),
    };
  });
}

async function countEntities(env: BenchEnv, tableName: string): Promise<number> {
  let count = 0;
  for await (const page of env.clients
    .table(tableName)
    .listEntities({ queryOptions: { select: ['RowKey'] } })
    .byPage()) {
    count += page.length;
  }
  return count;
}

const transactions: BenchCase = {
  name: 'platform: entity group transactions vs single upserts',
  async run(env) {
    const entities = employees(env.size(1_000));
    const batchedTable = env.uniqueName('BenchEgt', { table: true });
    const singleTable = env.uniqueName('BenchSingle', { table: true });
    await env.clients.tableService().createTable(batchedTable);
    await env.clients.tableService().createTable(singleTable);

    const pattern = await env.measure(
      `EGT upserts, ${TRANSACTION_SIZE} per transaction`,
      entities.length,
      async () => {
        const table = env.clients.table(batchedTable);
        for (let start = 0; start < entities.length; start += TRANSACTION_SIZE) {
          const actions: TransactionAction[] = entities
            .slice(start, start + TRANSACTION_SIZE)
            .map((entity) => ['upsert', entity, 'Replace']);
          await table.submitTransaction(actions);
        }
        return { entities: entities.length };
      },
    );
    const baseline = await env.measure(
      'one upsertEntity call per entity',
      entities.length,
      async () => {
        const table = env.clients.table(singleTable);
        for (const entity of entities) await table.upsertEntity(entity, 'Replace');
        return { entities: entities.length };
      },
    );

    for (const table of [batchedTable, singleTable]) {
      const stored = await countEntities(env, table);
      if (stored !== entities.length)
        throw new Error(`${table} holds ${stored} entities, expected ${entities.length}.`);
    }
    return {
      name: this.name,
      pattern,
      baseline,
      goal: judge(
        `${TRANSACTION_SIZE}× fewer requests (one per ${TRANSACTION_SIZE} entities), faster`,
        [
          atLeast(
            'requests single / batched',
            baseline.requests / pattern.requests,
            TRANSACTION_SIZE,
            '×',
          ),
          faster(pattern, baseline),
        ],
      ),
      notes:
        'Same entities, same partition; each transaction is atomic. Azure bills an EGT as one transaction, ' +
        'so the request ratio is also the cost ratio.',
    };
  },
};

// ---------------------------------------------------------------------------------------------
// 2. Host overhead
// ---------------------------------------------------------------------------------------------

/** Runs `operation` `count` times in sequence, timing each one; adds p50/p95 to the measurement. */
async function measureSequential(
  env: BenchEnv,
  label: string,
  count: number,
  operation: () => Promise<void>,
): Promise<Measurement> {
  const latencies: number[] = [];
  const measurement = await env.measure(label, count, async () => {
    for (let i = 0; i < count; i += 1) {
      const started = process.hrtime.bigint();
      await operation();
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  });
  return {
    ...measurement,
    p50Ms: Math.round(percentile(latencies, 50) * 100) / 100,
    p95Ms: Math.round(percentile(latencies, 95) * 100) / 100,
  };
}

async function expectOk(response: Response, what: string): Promise<void> {
  if (!response.ok)
    throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/** The pattern took less wall time than the baseline. */
function faster(pattern: Measurement, baseline: Measurement): Criterion {
  const ratio = baseline.wallMs / pattern.wallMs;
  return holds(
    `${num(ratio)}× faster`,
    ratio > 1,
    `time single / batched ${num(ratio)}×: not faster`,
  );
}

/** The host's overhead per call at p50, reported beside the judged figures. */
function overhead(pattern: Measurement, baseline: Measurement): string | undefined {
  return pattern.p50Ms === undefined || baseline.p50Ms === undefined
    ? undefined
    : `host overhead p50 +${num(pattern.p50Ms - baseline.p50Ms)} ms per call`;
}

const hostPointRead: BenchCase = {
  name: 'platform: host HTTP point read vs SDK point read',
  async run(env) {
    const department = 'Bench';
    const employeesTable = env.uniqueName('BenchEmployees', { table: true });
    await env.clients.tableService().createTable(employeesTable);
    const host = await startBuiltHost(env, 'dist/functions/departments.js', {
      EMPLOYEES_TABLE: employeesTable,
      // Every GET must reach storage, as the SDK side does.
      DEPARTMENT_CACHE_TTL_SECONDS: '0',
    });
    try {
      const url = `${host.baseUrl}/departments/${department}`;
      // An admin creates the department; a reader of it reads.
      await expectOk(
        await fetch(
          url,
          asPrincipal(adminPrincipal, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ description: 'Benchmark department' }),
          }),
        ),
        `PUT ${url}`,
      );
      const asReader = asPrincipal(readerPrincipal(department));
      const reads = env.size(500);
      const table = env.clients.table(employeesTable);
      const partitionKey = departmentPartitionKey(department);
      // Warm both paths (connections, JIT) before measuring.
      await expectOk(await fetch(url, asReader), `GET ${url}`);
      await table.getEntity(partitionKey, DEPARTMENT_ROW_KEY);

      const pattern = await measureSequential(
        env,
        'GET /api/departments/{dept} via local host',
        reads,
        async () => {
          await expectOk(await fetch(url, asReader), `GET ${url}`);
        },
      );
      const baseline = await measureSequential(
        env,
        'TableClient.getEntity in-process',
        reads,
        async () => {
          await table.getEntity(partitionKey, DEPARTMENT_ROW_KEY);
        },
      );
      const comparison: Comparison = {
        name: this.name,
        pattern,
        baseline,
        goal: judge(
          'same storage requests; host adds only HTTP + invocation overhead per call',
          [exactly('storage requests host − in-process', pattern.requests - baseline.requests, 0)],
          overhead(pattern, baseline),
        ),
        notes:
          'Here "pattern" is the deployed shape (HTTP through the Functions host) and the baseline the bare ' +
          'storage call: a time ratio below 1 is the host overhead. Requests should match one-for-one.',
      };
      return comparison;
    } finally {
      await host.stop();
    }
  },
};

/** One health probe: one list call per service. */
const PROBE_REQUESTS = 3;

const hostHealth: BenchCase = {
  name: 'platform: host HTTP health vs checkHealth in-process',
  async run(env) {
    const host = await startBuiltHost(env, 'dist/functions/health.js', {});
    try {
      const url = `${host.baseUrl}/health`;
      await expectOk(await fetch(url), `GET ${url}`);
      await checkHealth(env.clients);
      const calls = env.size(300);
      const pattern = await measureSequential(
        env,
        'GET /api/health via local host',
        calls,
        async () => {
          await expectOk(await fetch(url), `GET ${url}`);
        },
      );
      const baseline = await measureSequential(env, 'checkHealth() in-process', calls, async () => {
        const report = await checkHealth(env.clients);
        if (report.storage !== 'ok')
          throw new Error(`Storage unhealthy: ${JSON.stringify(report)}`);
      });
      return {
        name: this.name,
        pattern,
        baseline,
        goal: judge(
          'via the host at most one storage probe (3 requests) per health interval, however many ' +
            'calls; answered within the in-process probe’s p50',
          [
            atMost(
              'storage requests via the host',
              pattern.requests,
              PROBE_REQUESTS * (1 + Math.floor(pattern.wallMs / HEALTH_PROBE_INTERVAL_MS)),
            ),
            exactly('in-process per call', baseline.requests / calls, PROBE_REQUESTS),
            atMost(
              'host p50 / in-process p50',
              (pattern.p50Ms ?? NaN) / (baseline.p50Ms ?? NaN),
              1,
              '×',
            ),
          ],
        ),
        notes:
          'Both sides list one table, queue and container per probe (in parallel); the host ' +
          `reuses its last probe for ${HEALTH_PROBE_INTERVAL_MS / 1000} s (CachedHealthCheck), so ` +
          'its calls cost storage nothing in between.',
      };
    } finally {
      await host.stop();
    }
  },
};

export default [transactions, hostPointRead, hostHealth];
