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
import { adminPrincipal } from '../principals';
import {
  Api,
  DEPT,
  employeesPath,
  id,
  OPERATIONS,
  type Operation,
} from '../requestCost/operations';
import type { BenchCase, BenchEnv, Comparison, TrafficCounts } from '../types';

/** No request but queue receives for this long = the asynchronous work is done. */
const QUIET_MS = 2_500;
const DRAIN_TIMEOUT_MS = 120_000;

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

/** The built host on fresh tables, containers and queues; `queues` are its queue names. */
async function startCostHost(
  env: BenchEnv,
): Promise<{ host: BuiltHost; queues: Record<string, string> }> {
  const queues = {
    ARCHIVE_QUEUE: env.uniqueName('cost-arc'),
    INDEX_QUEUE: env.uniqueName('cost-idx'),
    LOG_QUEUE: env.uniqueName('cost-log'),
  };
  const host = await startBuiltHost(env, FUNCTIONS, {
    EMPLOYEES_TABLE: env.uniqueName('CostEmp', { table: true }),
    ARCHIVE_TABLE: env.uniqueName('CostArc', { table: true }),
    EMPLOYEE_INDEX_TABLE: env.uniqueName('CostIdx', { table: true }),
    EXPENSES_TABLE: env.uniqueName('CostExp', { table: true }),
    MESSAGE_STATS_TABLE: env.uniqueName('CostMsg', { table: true }),
    LASTNAME_INDEX_CONTAINER: env.uniqueName('cost-lastname'),
    LOGS_CONTAINER: env.uniqueName('cost-logs'),
    ...queues,
  });
  return { host, queues };
}

/**
 * A wait until the queues are empty (read directly, not counted) and only receives have been seen
 * for {@link QUIET_MS}: the asynchronous work the calls caused is done.
 */
function settler(env: BenchEnv, queueNames: readonly string[]): () => Promise<void> {
  const directConfig = loadConfig({ AzureWebJobsStorage: env.directConnectionString });
  const direct = createStorageClients(directConfig.storage, directConfig.retry);
  const queueClients = queueNames.map((name) => direct.queue(name));
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
  return async () => {
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
}

/** Warms every path once, then measures the idle polling rate: queue receives per ms. */
async function idleReceiveRate(
  env: BenchEnv,
  api: Api,
  settle: () => Promise<void>,
): Promise<number> {
  await api.call('PUT', `departments/${DEPT}`, adminPrincipal, { description: 'Cost' }, [200, 201]);
  // Warm every path once (clients, tables, queues created) on employee 999999, then settle.
  await api.call('POST', employeesPath, adminPrincipal, benchEmployee(999_999), [201]);
  await api.call('DELETE', `${employeesPath}/${id(999_999)}`, adminPrincipal, undefined, [204]);
  await settle();
  env.resetTraffic();
  const idleStarted = Date.now();
  await sleep(6_000);
  return (env.traffic().byKind['queue:GET'] ?? 0) / (Date.now() - idleStarted);
}

/** Runs one operation `ops` times and waits for its asynchronous work; its figures per op. */
async function measureOperation(
  env: BenchEnv,
  api: Api,
  operation: Operation,
  ops: number,
  settle: () => Promise<void>,
  idleReceivesPerMs: number,
): Promise<{ row: OperationCost; comparison: Comparison }> {
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
  const requests = Math.round(syncRequests + asyncRequests + receives);
  return { row, comparison: costComparison(row, requests, all.bytesSent + all.bytesReceived) };
}

/** One operation's row as a comparison: the service (all its requests) beside its minimum. */
function costComparison(row: OperationCost, requests: number, bytes: number): Comparison {
  const count = row.ops;
  return {
    name: `requests per ${row.operation}`,
    pattern: {
      label: `service over HTTP, async work included (${count} ops)`,
      wallMs: row.wallMs,
      operations: count,
      opsPerSecond: Math.round((count / row.wallMs) * 10_000) / 10,
      requests,
      bytes,
    },
    baseline: {
      label: `minimum: ${row.minimumReason}`,
      wallMs: 0,
      operations: count,
      opsPerSecond: 0,
      requests: Math.round(row.minimum * count),
      bytes: 0,
    },
    notes:
      `per op: during calls ${row.sync.toFixed(2)}, after ${row.async.toFixed(2)}, receives ≈ ${row.receives.toFixed(2)}, ` +
      `total ${row.total.toFixed(2)} vs minimum ${row.minimum.toFixed(2)}; by kind (receives excluded): ${row.byKind}`,
  };
}

const requestCost: BenchCase = {
  name: 'cost: storage requests per API operation',
  async run(env: BenchEnv) {
    const ops = env.size(60);
    const { host, queues } = await startCostHost(env);
    const settle = settler(env, Object.values(queues));
    const api = new Api(host.baseUrl, () => host.output());
    const rows: OperationCost[] = [];
    const comparisons: Comparison[] = [];
    let idleReceivesPerMs: number;
    try {
      idleReceivesPerMs = await idleReceiveRate(env, api, settle);
      for (const operation of OPERATIONS) {
        const measured = await measureOperation(
          env,
          api,
          operation,
          ops,
          settle,
          idleReceivesPerMs,
        );
        rows.push(measured.row);
        comparisons.push(measured.comparison);
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
