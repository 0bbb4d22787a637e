/**
 * Storage requests per API operation, against the minimum each needs (issue 15, item 5).
 *
 * The built local host runs the HTTP functions together with the queue-triggered workers they feed
 * (index updates, archive, log batches), against the counting proxy. Each operation is called
 * `ops` times over HTTP, one after another; then the case waits until the asynchronous work it
 * caused has finished (every queue empty, read directly from Azurite and not counted, and no
 * request other than a queue receive for {@link QUIET_MS}). Per operation it reports:
 *
 * - sync ("during"): requests made while the HTTP calls ran, queue receives excluded — the
 *   workers run meanwhile, so this includes whatever asynchronous work kept up with the calls;
 * - async ("after"): requests after the last call returned, queue receives excluded (index
 *   maintenance, archive, log flush that had not finished yet);
 * - receives: queue receives above the idle polling rate measured before the operations (the
 *   workers' polls; an estimate, since the host's poll interval adapts);
 * - total = sync + async + receives, against the minimum: the fewest requests that can store the
 *   operation's effect (see {@link OPERATIONS}); the minimum of a create, patch, delete or archive
 *   counts its synchronous transaction only, index maintenance being amortisable to a fraction of a
 *   request per write by batching per index partition.
 *
 * The comparisons it returns use "pattern" for what the service does and "baseline" for the
 * minimum, so the requests ratio is minimum / actual (1× = at the minimum).
 */
import { loadConfig } from '../../src/config';
import { createStorageClients } from '../../src/storage/clients';
import { startBuiltHost, type BuiltHost } from '../builtHost';
import { benchEmployee } from '../employees';
import { requestsPerOperationByKind } from '../harness';
import { adminPrincipal, asPrincipal, employeePrincipal, telemetryPrincipal } from '../principals';
import type { BenchCase, BenchEnv, Comparison, TrafficCounts } from '../types';

const DEPT = 'Cost';
/** No request but queue receives for this long = the asynchronous work is done. */
const QUIET_MS = 2_500;
const DRAIN_TIMEOUT_MS = 120_000;
const LOG_LINES_PER_BATCH = 100;

const FUNCTIONS =
  'dist/functions/{departments,employees,archive,indexUpdates,reviews,expenses,messageStats,logs,logBatches}.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One operation's figures, per operation. */
export interface OperationCost {
  operation: string;
  ops: number;
  sync: number;
  async: number;
  receives: number;
  total: number;
  minimum: number;
  minimumReason: string;
  byKind: string;
  wallMs: number;
}

interface Operation {
  name: string;
  /** The fewest requests that can store the effect of one operation, and why. */
  minimum: number;
  minimumReason: string;
  /** Runs the calls; returns how many operations they were. */
  run(api: Api, ops: number): Promise<number>;
}

/** HTTP calls against the host, failing on any unexpected status. */
class Api {
  constructor(
    private readonly baseUrl: string,
    /** What the host printed, attached to an unexpected 5xx so its cause is not lost. */
    private readonly hostOutput: () => string = () => '',
  ) {}

  async call(
    method: string,
    path: string,
    principal: string,
    body: unknown,
    expected: number[],
  ): Promise<unknown> {
    const response = await fetch(
      `${this.baseUrl}/${path}`,
      asPrincipal(principal, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    if (!expected.includes(response.status)) {
      const log =
        response.status >= 500 ? `\nHost output (tail):\n${this.hostOutput().slice(-4000)}` : '';
      throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}${log}`);
    }
    return text ? (JSON.parse(text) as unknown) : undefined;
  }
}

const employeesPath = `departments/${DEPT}/employees`;
const id = (n: number): string => benchEmployee(n).employeeId;

/**
 * The operations, in the order they run (each works on employees the earlier ones left):
 * creates 1..ops, patches and reviews them, archives the first half and deletes the second.
 */
const OPERATIONS: Operation[] = [
  {
    name: 'create',
    minimum: 1,
    minimumReason: 'one EGT (employee, email copy, count, last-name index)',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++)
        await api.call('POST', employeesPath, adminPrincipal, benchEmployee(n), [201]);
      return ops;
    },
  },
  {
    name: 'patch',
    minimum: 1,
    minimumReason: 'one EGT (employee, email copy) when its ETag is known',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++)
        await api.call('PATCH', `${employeesPath}/${id(n)}`, adminPrincipal, { age: 30 }, [200]);
      return ops;
    },
  },
  {
    name: 'review',
    minimum: 1,
    minimumReason: 'one EGT (review + employee merge) when the employee ETag is known',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++) {
        await api.call(
          'PUT',
          `${employeesPath}/${id(n)}/reviews/2024`,
          adminPrincipal,
          { managerRating: 7, peerRating: 8, comments: 'Bench review' },
          [200],
        );
      }
      return ops;
    },
  },
  {
    name: 'expense',
    minimum: 1,
    minimumReason: 'one insert',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++) {
        await api.call(
          'POST',
          `${employeesPath}/${id(n)}/expenses`,
          employeePrincipal(DEPT, id(n)),
          { amount: 12.5, currency: 'EUR', description: 'Taxi' },
          [201],
        );
      }
      return ops;
    },
  },
  {
    name: 'increment',
    minimum: 2,
    minimumReason: 'two counter merges (hourly and daily entities) with cached ETags',
    async run(api, ops) {
      for (let n = 1; n <= ops; n++) {
        await api.call(
          'POST',
          `${employeesPath}/${id(n)}/messages`,
          telemetryPrincipal,
          { count: 1 },
          [204],
        );
      }
      return ops;
    },
  },
  {
    name: 'log line',
    minimum: 1 / LOG_LINES_PER_BATCH,
    minimumReason: `one block append per ${LOG_LINES_PER_BATCH}-line batch`,
    async run(api, ops) {
      const batches = Math.max(1, Math.ceil(ops / 10));
      const at = Date.now() - 60_000;
      for (let b = 0; b < batches; b++) {
        const entries = Array.from({ length: LOG_LINES_PER_BATCH }, (_, i) => ({
          at: new Date(at + b * LOG_LINES_PER_BATCH + i).toISOString(),
          level: 'Information',
          message: `bench line ${b}-${i}`,
        }));
        await api.call('POST', 'logs', telemetryPrincipal, { source: 'bench', entries }, [202]);
      }
      return batches * LOG_LINES_PER_BATCH;
    },
  },
  {
    name: 'import row',
    minimum: 1 / 48,
    minimumReason: 'one EGT per ~48 rows (2 operations per row, index and count)',
    async run(api, ops) {
      const rows = Math.max(100, ops * 10);
      const employees = Array.from({ length: rows }, (_, i) => benchEmployee(100_001 + i));
      const result = (await api.call(
        'POST',
        `${employeesPath}/import`,
        adminPrincipal,
        {
          employees,
        },
        [200],
      )) as { created: number };
      if (result.created !== rows) throw new Error(`Import created ${result.created} of ${rows}.`);
      return rows;
    },
  },
  {
    name: 'archive',
    minimum: 3,
    minimumReason: 'read, archive upsert, delete EGT',
    async run(api, ops) {
      const half = Math.ceil(ops / 2);
      for (let n = 1; n <= half; n++)
        await api.call(
          'POST',
          `${employeesPath}/${id(n)}/archive`,
          adminPrincipal,
          undefined,
          [202],
        );
      return half;
    },
  },
  {
    name: 'delete',
    minimum: 2,
    minimumReason: 'read (ETag, review years) + one delete EGT',
    async run(api, ops) {
      const half = Math.ceil(ops / 2);
      for (let n = half + 1; n <= ops; n++)
        await api.call('DELETE', `${employeesPath}/${id(n)}`, adminPrincipal, undefined, [204]);
      return ops - half;
    },
  },
];

function isReceive(kind: string): boolean {
  return kind === 'queue:GET';
}

function withoutReceives(traffic: TrafficCounts): number {
  return traffic.requests - (traffic.byKind['queue:GET'] ?? 0);
}

/** Formats the table the case prints. */
export function formatCostTable(rows: readonly OperationCost[]): string {
  const header = [
    'operation',
    'ops',
    'during',
    'after',
    'receives',
    'total',
    'minimum',
    'total/min',
  ];
  const lines = rows.map((r) => [
    r.operation,
    String(r.ops),
    r.sync.toFixed(2),
    r.async.toFixed(2),
    r.receives.toFixed(2),
    r.total.toFixed(2),
    r.minimum.toFixed(2),
    `${(r.total / r.minimum).toFixed(1)}×`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  return [header, ...lines]
    .map((cells) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

const requestCost: BenchCase = {
  name: 'cost: storage requests per API operation',
  async run(env: BenchEnv) {
    const ops = env.size(60);
    const directConfig = loadConfig({ AzureWebJobsStorage: env.directConnectionString });
    const direct = createStorageClients(directConfig.storage, directConfig.retry);
    const queues = {
      ARCHIVE_QUEUE: env.uniqueName('cost-arc'),
      INDEX_QUEUE: env.uniqueName('cost-idx'),
      LOG_QUEUE: env.uniqueName('cost-log'),
    };
    const host: BuiltHost = await startBuiltHost(env, FUNCTIONS, {
      EMPLOYEES_TABLE: env.uniqueName('CostEmp', { table: true }),
      ARCHIVE_TABLE: env.uniqueName('CostArc', { table: true }),
      EMPLOYEE_INDEX_TABLE: env.uniqueName('CostIdx', { table: true }),
      EXPENSES_TABLE: env.uniqueName('CostExp', { table: true }),
      MESSAGE_STATS_TABLE: env.uniqueName('CostMsg', { table: true }),
      LASTNAME_INDEX_CONTAINER: env.uniqueName('cost-lastname'),
      LOGS_CONTAINER: env.uniqueName('cost-logs'),
      ...queues,
    });

    const queueClients = Object.values(queues).map((name) => direct.queue(name));
    const backlog = async (): Promise<number> => {
      let total = 0;
      for (const queue of queueClients) {
        try {
          total += (await queue.getProperties()).approximateMessagesCount ?? 0;
        } catch {
          // Not created yet: nothing waiting in it.
        }
      }
      return total;
    };
    /** Waits until queues are empty and only receives have been seen for QUIET_MS. */
    const settle = async (): Promise<void> => {
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      let last = withoutReceives(env.traffic());
      let quietSince = Date.now();
      for (;;) {
        await sleep(100);
        const now = withoutReceives(env.traffic());
        if (now !== last) {
          last = now;
          quietSince = Date.now();
        }
        if (Date.now() - quietSince >= QUIET_MS && (await backlog()) === 0) return;
        if (Date.now() > deadline) throw new Error('The asynchronous work did not settle.');
      }
    };

    const api = new Api(host.baseUrl, () => host.output());
    const rows: OperationCost[] = [];
    const comparisons: Comparison[] = [];
    let idleReceivesPerMs: number;
    try {
      await api.call(
        'PUT',
        `departments/${DEPT}`,
        adminPrincipal,
        { description: 'Cost' },
        [200, 201],
      );
      // Warm every path once (clients, tables, queues created) on employee 999999, then settle.
      await api.call('POST', employeesPath, adminPrincipal, benchEmployee(999_999), [201]);
      await api.call('DELETE', `${employeesPath}/${id(999_999)}`, adminPrincipal, undefined, [204]);
      await settle();
      // The idle polling rate: queue receives per ms with nothing to do.
      env.resetTraffic();
      const idleStarted = Date.now();
      await sleep(6_000);
      idleReceivesPerMs = (env.traffic().byKind['queue:GET'] ?? 0) / (Date.now() - idleStarted);

      for (const operation of OPERATIONS) {
        env.resetTraffic();
        const started = Date.now();
        const count = await operation.run(api, ops);
        const wallMs = Date.now() - started;
        const sync = env.traffic();
        await settle();
        const settledMs = Date.now() - started - QUIET_MS;
        const all = env.traffic();
        const syncRequests = withoutReceives(sync);
        const asyncRequests = withoutReceives(all) - withoutReceives(sync);
        const receives = Math.max(
          0,
          (all.byKind['queue:GET'] ?? 0) - idleReceivesPerMs * Math.max(0, settledMs),
        );
        const allBut = {
          ...all,
          byKind: Object.fromEntries(Object.entries(all.byKind).filter(([k]) => !isReceive(k))),
        };
        const row: OperationCost = {
          operation: operation.name,
          ops: count,
          sync: syncRequests / count,
          async: asyncRequests / count,
          receives: receives / count,
          total: (syncRequests + asyncRequests + receives) / count,
          minimum: operation.minimum,
          minimumReason: operation.minimumReason,
          byKind: requestsPerOperationByKind(allBut, count),
          wallMs,
        };
        rows.push(row);
        comparisons.push({
          name: `requests per ${operation.name}`,
          pattern: {
            label: `service over HTTP, async work included (${count} ops)`,
            wallMs,
            operations: count,
            opsPerSecond: Math.round((count / wallMs) * 10_000) / 10,
            requests: Math.round(syncRequests + asyncRequests + receives),
            bytes: all.bytesSent + all.bytesReceived,
          },
          baseline: {
            label: `minimum: ${operation.minimumReason}`,
            wallMs: 0,
            operations: count,
            opsPerSecond: 0,
            requests: Math.round(operation.minimum * count),
            bytes: 0,
          },
          notes:
            `per op: during calls ${row.sync.toFixed(2)}, after ${row.async.toFixed(2)}, receives ≈ ${row.receives.toFixed(2)}, ` +
            `total ${row.total.toFixed(2)} vs minimum ${row.minimum.toFixed(2)}; by kind (receives excluded): ${row.byKind}`,
        });
      }
    } finally {
      await host.stop();
    }
    process.stdout.write(
      `\nStorage requests per operation (idle queue receives, ${(idleReceivesPerMs * 1000).toFixed(2)}/s, subtracted):\n` +
        `${formatCostTable(rows)}\n\n`,
    );
    return comparisons;
  },
};

export default requestCost;
