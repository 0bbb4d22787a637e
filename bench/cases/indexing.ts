/**
 * Index lag of the inter-partition index (`EmployeeIndex`, docs/queues.md): employees created
 * through the directory service with the `index-updates` queue sink (index outbox rows and
 * post-commit nudges, as the HTTP adapters wire it) at a steady 200 writes/s (the issue's load),
 * and again at 50 writes/s, while index-updates workers drain. Lag = from the create returning
 * (committed, nudge sent) to the worker having drained that employee's outbox row into
 * `EmployeeIndex`; p50/p95 over every write. Each rate runs on fresh tables and a fresh queue. On this 2-core machine the
 * single-threaded emulator serves about 1,500 requests/s, and a write with its reconcile takes
 * about 13, so 200 writes/s builds a backlog the lag then measures; 50 writes/s does not (100 is
 * at the knee).
 *
 * The workers run in this process (not through the host, so each employee's reconcile time is
 * known exactly without polling the index): two pollers receive up to 16 messages each, handle
 * them in parallel with `handleIndexUpdateMessage` — the queue trigger's own code — and delete
 * them, backing off from 100 ms to 2 s on an empty queue like the host's queue listener.
 * Baseline: the same write load without the queue sink (no asynchronous index at all), to show what
 * the sink adds to the write path.
 */
import { loadConfig } from '../../src/config';
import { createDirectory, type EmployeeService } from '../../src/directory';
import type { IndexStores } from '../../src/indexing/indexStores';
import { parseIndexQueueMessage } from '../../src/indexing/queue/indexMessages';
import { getEmployeeByEmailEventually } from '../../src/indexing/employeeIndex/indexQueries';
import { handleIndexUpdateMessage } from '../../src/indexing/queue/indexUpdates';
import { newDrainCache } from '../../src/indexing/drain/drainCache';
import { lastNameStoreFor } from '../../src/indexing/lastNames/storeForMode';
import {
  DEFAULT_DRAIN_LINGER_MS,
  outboxNudgeSender,
  queueChangeSink,
  coverDelayFor,
} from '../../src/indexing/queue/queueChangeSink';
import { sweepOutboxes } from '../../src/indexing/drain/outboxSweep';
import { createStorageClients } from '../../src/storage/clients';
import type { QueueClient } from '@azure/storage-queue';
import { SharedDrains } from '../../src/indexing/drain/sharedDrains';
import { drainAfterWrite, writerDrains } from '../../src/indexing/drain/writerDrain';
import { ensureQueue } from '../../src/storage/createOnce';
import { mapBounded } from '../../src/storage/parallel';
import { decodeQueueMessage } from '../../src/storage/queue';
import { percentile, requestsPerOperationByKind } from '../harness';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { benchEmployee } from '../employees';
import { perOperation, requestKindCounter, type RequestKinds } from '../requestKinds';
import { atMost, judge, notJudged, num, type GoalVerdict } from '../goals';

/**
 * Writes are spread over this many departments (10/s each): every create of a department updates
 * its count entity, so 200/s into one department measures that entity's contention, not the index.
 */
const DEPARTMENTS = 20;
/** The spread case of issue #22 (item 5): 10 departments at 2.5 writes/s each. */
const SPREAD_DEPARTMENTS = 10;
const SPREAD_WRITES_PER_SECOND = 25;
/** Rows of the import that runs beside the writes at 50/s (issue #22, item 2). */
const CONCURRENT_IMPORT_ROWS = 1_000;
const IMPORT_DEPARTMENT = 'Imported';
const departmentName = (d: number): string => `Dept${String(d).padStart(2, '0')}`;
const WRITES_PER_SECOND = 200;
/** A rate this 2-core machine's emulator sustains with the worker running (docs/queues.md). */
const SUSTAINABLE_WRITES_PER_SECOND = 50;
const POLLERS = 2;
const BATCH_SIZE = 16;
const DRAIN_TIMEOUT_MS = 60_000;
const MAX_IN_FLIGHT = 64;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const round2 = (ms: number): number => Math.round(ms * 100) / 100;

/**
 * Creates employees 1..`count` at {@link WRITES_PER_SECOND}, without waiting for one write to
 * finish before the next is due; returns per-id commit times and write latencies.
 */
async function steadyWrites(
  employees: EmployeeService,
  count: number,
  writesPerSecond: number,
  departments: number,
): Promise<{
  committedAt: Map<string, number>;
  latencies: number[];
  seconds: number;
  failed: number;
}> {
  // `seconds`: how long issuing took (the offered rate); completion may trail behind.
  const committedAt = new Map<string, number>();
  const latencies: number[] = [];
  const failures: unknown[] = [];
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / writesPerSecond;
  const started = now();
  for (let i = 0; i < count; i++) {
    // Bounded: when storage falls behind, the offered rate drops instead of sockets piling up.
    while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
    const due = started + i * interval;
    const wait = due - now();
    if (wait > 1) await sleep(wait);
    const n = i + 1;
    const body = benchEmployee(n);
    const department = departmentName(n % departments);
    const key = `${department}/${body.employeeId}`;
    const sent = now();
    const write: Promise<void> = employees.create(department, body).then(
      () => {
        const done = now();
        committedAt.set(key, done);
        latencies.push(done - sent);
      },
      (error: unknown) => {
        failures.push(error);
      },
    );
    inFlight.add(write);
    void write.finally(() => inFlight.delete(write));
  }
  const issueSeconds = (now() - started) / 1000;
  await Promise.all(inFlight);
  // A saturated emulator drops the odd connection; a write that failed has no lag to measure, so
  // a few are reported, not fatal.
  if (failures.length > count / 100) {
    throw new Error(`${failures.length} of ${count} creates failed; first: ${String(failures[0])}`);
  }
  return { committedAt, latencies, seconds: issueSeconds, failed: failures.length };
}

/** One handled outbox nudge: its drain of `department` started after `invokedAt`. */
interface HandledNudge {
  department: string;
  invokedAt: number;
  doneAt: number;
}

/**
 * In-process index-updates workers. A nudge's handler returns after a drain of its department
 * that started after the handler was called, and a drain takes every outbox row committed before
 * it started: an employee committed at `t` is indexed at the latest when the first handler of
 * its department called after `t` returns (`indexedAt`).
 */
function startWorkers(
  env: BenchEnv,
  drains: SharedDrains,
  queueName: string,
): {
  indexedAt(department: string, committedAt: number): number | undefined;
  /** Records a drain of `department` run elsewhere (a writer's own) that read its outbox after `invokedAt`. */
  record(department: string, invokedAt: number, doneAt: number): void;
  failures(): number;
  stop(): Promise<void>;
} {
  const queue = env.clients.queue(queueName);
  const handled = new Map<string, HandledNudge[]>();
  const record = (department: string, invokedAt: number, doneAt: number): void => {
    handled.set(department, [
      ...(handled.get(department) ?? []),
      { department, invokedAt, doneAt },
    ]);
  };
  let running = true;
  let failures = 0;
  const poller = async (): Promise<void> => {
    let idleDelay = 100;
    while (running) {
      let receivedMessageItems;
      try {
        ({ receivedMessageItems } = await queue.receiveMessages({
          numberOfMessages: BATCH_SIZE,
          visibilityTimeout: 30,
        }));
      } catch {
        failures++;
        await sleep(idleDelay);
        continue;
      }
      if (receivedMessageItems.length === 0) {
        await sleep(idleDelay);
        idleDelay = Math.min(2000, idleDelay * 2);
        continue;
      }
      idleDelay = 100;
      await mapBounded(receivedMessageItems, BATCH_SIZE, async (item) => {
        const payload = decodeQueueMessage(item.messageText);
        const invokedAt = now();
        try {
          await handleIndexUpdateMessage(drains, payload);
        } catch {
          // As the host does: the message reappears after its visibility timeout.
          failures++;
          return;
        }
        const doneAt = now();
        const message = parseIndexQueueMessage(payload);
        const departments = message.v === 2 ? message.departments : [];
        for (const department of departments) record(department, invokedAt, doneAt);
        await queue.deleteMessage(item.messageId, item.popReceipt).catch(() => {
          failures++; // redelivered later; reconciling again is harmless
        });
      });
    }
  };
  const pollers = Array.from({ length: POLLERS }, poller);
  const stop = async (): Promise<void> => {
    running = false;
    await Promise.all(pollers);
  };
  env.defer(stop);
  return {
    record,
    indexedAt: (department, committedAt) => {
      const after = (handled.get(department) ?? []).filter((h) => h.invokedAt >= committedAt);
      return after.length === 0 ? undefined : Math.min(...after.map((h) => h.doneAt));
    },
    failures: () => failures,
    stop,
  };
}

/**
 * Waits until the queue holds no message, visible or not (the writers' delayed covers surface
 * after {@link coverDelayFor}, and the workers handle them).
 */
async function queueEmpty(queue: QueueClient): Promise<void> {
  const deadline = now() + (coverDelayFor(DEFAULT_DRAIN_LINGER_MS) + 60) * 1000;
  while (((await queue.getProperties()).approximateMessagesCount ?? 0) > 0) {
    if (now() > deadline) throw new Error('The index-updates queue did not empty.');
    await sleep(250);
  }
}

/**
 * Storage requests of the outbox sweep over idle departments, counted as the case counts the
 * writes' (the table clients' request kinds): the first sweep of fresh tables, which also runs the
 * hourly discovery (a scan across partitions, and the checkpoint's write), then the next one.
 */
async function idleSweepCost(
  drains: SharedDrains,
  kinds: { employees: RequestKinds; index: RequestKinds },
  departments: number,
): Promise<{ first: number; then: number }> {
  const counted = (): number =>
    [...kinds.employees.counts.values(), ...kinds.index.counts.values()].reduce(
      (sum, n) => sum + n,
      0,
    );
  const sweepOnce = async (at: number): Promise<number> => {
    kinds.employees.reset();
    kinds.index.reset();
    const report = await sweepOutboxes(drains, { now: () => at });
    if (report.rows > 0 || report.failed.length > 0 || report.departments !== departments) {
      throw new Error(`The sweep found work after the run: ${JSON.stringify(report)}`);
    }
    return counted();
  };
  const first = await sweepOnce(Date.now());
  return { first, then: await sweepOnce(Date.now() + 5 * 60_000) };
}

/** One load of {@link lagAt}. */
interface Load {
  writesPerSecond: number;
  writes: number;
  departments: number;
  /**
   * `writer`: the writing process drains its departments itself after the linger, the queue only
   * as the fallback (as deployed, src/indexing/drain/writerDrain.ts); `queue`: every nudge through the
   * queue and the leased drain (before).
   */
  drains: 'writer' | 'queue';
  /** Rows of one import call into another department, started with the writes. */
  importRows?: number;
  /** Measure the outbox sweep over the run's departments afterwards, all of them idle. */
  sweep?: boolean;
  /** The goal of this load, judged on what it measured (`achievedRate`: writes/s offered). */
  goal?: (measured: { pattern: Measurement; writes: number; achievedRate: number }) => GoalVerdict;
}

/** Index lag and requests per write at one offered write rate, with fresh tables and queue. */
async function lagAt(env: BenchEnv, load: Load): Promise<Comparison> {
  const { writesPerSecond, writes, departments } = load;
  const names = {
    employees: env.uniqueName('IdxBenchEmp', { table: true }),
    index: env.uniqueName('IdxBenchIdx', { table: true }),
    raw: env.uniqueName('IdxBenchRaw', { table: true }),
    queue: env.uniqueName('idx-bench'),
    container: env.uniqueName('idx-bench-ln'),
  };
  const index = env.clients.table(names.index);
  const queue = env.clients.queue(names.queue);
  const stores: IndexStores = {
    employees: env.clients.table(names.employees),
    index,
    lastNames: lastNameStoreFor('entity', index, env.clients.container(names.container)),
    // One worker process, as configuredIndexStores builds it: it remembers what its drains wrote.
    drainCache: newDrainCache(),
    nudge: outboxNudgeSender(queue),
  };
  const kinds = { employees: requestKindCounter('employees'), index: requestKindCounter('index') };
  stores.employees.pipeline.addPolicy(kinds.employees.policy);
  index.pipeline.addPolicy(kinds.index.policy);
  await ensureQueue(queue);
  await index.createTable();
  // Polled for emptiness past the proxy, so that waiting costs the pattern nothing.
  const directConfig = loadConfig({ AzureWebJobsStorage: env.directConnectionString });
  const directQueue = createStorageClients(directConfig.storage, directConfig.retry).queue(
    names.queue,
  );
  // The worker process's drains, as functions/shared/services.ts builds them once.
  const drains = new SharedDrains(stores);
  const workers = startWorkers(env, drains, names.queue);
  // Each writer round reads the outbox after it starts: it indexes every row committed before.
  // (A request made while one runs resolves only when the rounds it joined end, so rounds are
  // timed one by one.)
  const ownDrains = writerDrains(drains, async (drainStores, department, onGone, options) => {
    const invokedAt = now();
    const result = await drainAfterWrite(drainStores, department, onGone, options);
    // Handed over to the queue: the worker's drain is the one that indexes.
    if (result.outcome === 'drained') workers.record(department, invokedAt, now());
    return result;
  });
  // As functions/shared/services.ts wires it: the directory records each change in its index
  // outbox; after the commit and the linger the writing process drains (or, `queue`, nudges)
  // (INDEX_NUDGE_DELAY_SECONDS from this process's environment, default 0).
  const sink = queueChangeSink(queue, {
    nudgeDelaySeconds: loadConfig(process.env).directory.indexNudgeDelaySeconds,
    drain: load.drains === 'writer' ? ownDrains : undefined,
  });
  const directory = createDirectory({ employees: stores.employees, changes: sink });
  const plain = createDirectory({ employees: env.clients.table(names.raw) });
  for (let d = 0; d < departments; d++) {
    await directory.departments.put(departmentName(d), { description: 'Index lag benchmark' });
    await plain.departments.put(departmentName(d), { description: 'Index lag, no sink' });
  }
  if (load.importRows) {
    await directory.departments.put(IMPORT_DEPARTMENT, { description: 'Imported meanwhile' });
  }

  // Baseline first: the same load with no queue sink.
  let baselineLatencies: number[] = [];
  let failedWrites = 0;
  const baseline: Measurement = await env.measure(
    `service creates at ${writesPerSecond}/s, no queue sink (p50/p95 = write latency)`,
    writes,
    async () => {
      const run = await steadyWrites(plain.employees, writes, writesPerSecond, departments);
      baselineLatencies = run.latencies;
      failedWrites += run.failed;
    },
  );
  baseline.p50Ms = round2(percentile(baselineLatencies, 50));
  baseline.p95Ms = round2(percentile(baselineLatencies, 95));

  env.resetTraffic();
  kinds.employees.reset();
  kinds.index.reset();
  let writeLatencies: number[] = [];
  let committed = new Map<string, number>();
  let achievedRate = 0;
  let importMs = 0;
  const lags: number[] = [];
  let pattern: Measurement;
  const drainsLabel =
    load.drains === 'writer' ? 'writers drain, queue as fallback' : 'queue nudges';
  const importLabel = load.importRows ? ` + a ${load.importRows}-row import` : '';
  try {
    pattern = await env.measure(
      `service creates at ${writesPerSecond}/s${importLabel} + outbox (${drainsLabel}) + ${POLLERS} in-process workers (p50/p95 = index lag)`,
      writes,
      async () => {
        const imported = load.importRows
          ? (async () => {
              const rows = Array.from({ length: load.importRows! }, (_, i) => ({
                ...benchEmployee(100_000 + i),
                employeeId: String(100_000 + i).padStart(6, '0'),
              }));
              const started = now();
              await directory.employees.import(IMPORT_DEPARTMENT, rows);
              importMs = now() - started;
            })()
          : Promise.resolve();
        const run = await steadyWrites(directory.employees, writes, writesPerSecond, departments);
        await imported;
        writeLatencies = run.latencies;
        committed = run.committedAt;
        failedWrites += run.failed;
        achievedRate = writes / run.seconds;
        const deadline = now() + DRAIN_TIMEOUT_MS;
        const indexedAt = (key: string, at: number): number | undefined =>
          workers.indexedAt(key.slice(0, key.indexOf('/')), at);
        const caughtUp = (): boolean =>
          [...run.committedAt].every(([key, at]) => indexedAt(key, at) !== undefined);
        while (!caughtUp()) {
          if (now() > deadline)
            throw new Error(`The index did not catch up within ${DRAIN_TIMEOUT_MS} ms.`);
          await sleep(20);
        }
        for (const [key, at] of run.committedAt) lags.push(Math.max(0, indexedAt(key, at)! - at));
        // The writers' nudges and drains are done, and every message they stored (the delayed
        // covers included) has been received and handled, before the traffic is counted.
        await sink.settled();
        await queueEmpty(directQueue);
      },
    );
  } finally {
    await workers.stop();
  }
  const traffic = env.traffic();
  const queueKinds = Object.entries(traffic.byKind).filter(([kind]) => kind.startsWith('queue:'));
  const byKind = perOperation(
    [...kinds.employees.counts, ...kinds.index.counts, ...queueKinds],
    writes,
  );
  // After the writes' figures are taken: the sweep resets the request-kind counters.
  const sweep = load.sweep ? await idleSweepCost(drains, kinds, departments) : undefined;
  pattern.p50Ms = round2(percentile(lags, 50));
  pattern.p95Ms = round2(percentile(lags, 95));

  // The index must really be current: spot-check entries by email.
  for (let n = 1; n <= writes; n += Math.max(1, Math.floor(writes / 20))) {
    const department = departmentName(n % departments);
    if (!committed.has(`${department}/${benchEmployee(n).employeeId}`)) continue; // failed write
    const found = await getEmployeeByEmailEventually(index, department, benchEmployee(n).email);
    if (found.value.employeeId !== benchEmployee(n).employeeId)
      throw new Error(`Index entry of ${benchEmployee(n).email} names the wrong employee.`);
  }

  const sweepNote = sweep
    ? ` The outbox sweep over these ${departments} departments, idle after the run: ${sweep.first} storage requests with its hourly discovery (the first sweep of these tables), then ${sweep.then} (${((sweep.then - 1) / departments).toFixed(2)} per idle department beside the listing's one query).`
    : '';
  const importNote = load.importRows
    ? `the ${load.importRows}-row import took ${(importMs / 1000).toFixed(1)} s (its requests are in the totals, divided by the creates); `
    : '';
  return {
    name: `index lag, ${writes} creates at ${writesPerSecond}/s over ${departments} departments${importLabel} (${drainsLabel})`,
    pattern,
    baseline,
    goal: load.goal?.({ pattern, writes, achievedRate }),
    notes:
      `offered write rate ${achievedRate.toFixed(0)}/s; failed writes (emulator overload, both sides) ${failedWrites}; ${importNote}index lag p50 ${pattern.p50Ms} ms, p95 ${pattern.p95Ms} ms, ` +
      `max ${round2(Math.max(...lags))} ms (create returned → the drain that took its outbox row finished). ` +
      `Write latency with the sink p50 ${round2(percentile(writeLatencies, 50))} ms, ` +
      `p95 ${round2(percentile(writeLatencies, 95))} ms (transaction with its outbox row) vs ` +
      `${baseline.p50Ms}/${baseline.p95Ms} ms without. Requests per write: pattern ` +
      `${(pattern.requests / writes).toFixed(2)} (writer, drains, queue traffic), ` +
      `baseline ${(baseline.requests / writes).toFixed(2)}; pattern requests per write by kind: ${byKind} ` +
      `(proxy: ${requestsPerOperationByKind(traffic, writes)}). Workers in-process (2 pollers × 16 messages), ` +
      `not through the host; failed worker calls (retried): ${workers.failures()}.${sweepNote}`,
  };
}

/**
 * Index lag p95 ≤ 1 s at 50 writes/s beside an import: judged only when the machine offered at
 * least 90% of that rate, since a lower rate is not the load the goal is about.
 */
function importLagGoal(m: { pattern: Measurement; achievedRate: number }): GoalVerdict {
  const text = `index lag p95 ≤ 1 s at ${SUSTAINABLE_WRITES_PER_SECOND} writes/s while an import runs`;
  if (m.achievedRate < 0.9 * SUSTAINABLE_WRITES_PER_SECOND)
    return notJudged(
      text,
      `index lag p95 ${num(m.pattern.p95Ms ?? NaN)} ms at ${num(m.achievedRate)} writes/s`,
      `this machine offered only ${num(m.achievedRate)} of ${SUSTAINABLE_WRITES_PER_SECOND} writes/s`,
    );
  return judge(
    text,
    [atMost('index lag p95', m.pattern.p95Ms, 1000, ' ms')],
    `offered ${num(m.achievedRate)} writes/s`,
  );
}

const indexLag: BenchCase = {
  name: 'indexing: inter-partition index lag under 200 writes/s',
  async run(env) {
    return [
      // Issue #22, item 5: writes spread over 10 departments, 2.5 writes/s each — as deployed,
      // and as before (every nudge through the queue and the leased drain).
      await lagAt(env, {
        writesPerSecond: SPREAD_WRITES_PER_SECOND,
        writes: env.size(500),
        departments: SPREAD_DEPARTMENTS,
        drains: 'writer',
        sweep: true,
        goal: ({ pattern, writes }) =>
          judge('index maintenance ≤ 6 storage requests per create in total', [
            atMost('storage requests per create', pattern.requests / writes, 6),
          ]),
      }),
      await lagAt(env, {
        writesPerSecond: SPREAD_WRITES_PER_SECOND,
        writes: env.size(500),
        departments: SPREAD_DEPARTMENTS,
        drains: 'queue',
      }),
      // The issue's load: 1,000 creates in 5 s (more than this machine's emulator sustains with the
      // worker running, so a backlog builds and the lag shows it).
      await lagAt(env, {
        writesPerSecond: WRITES_PER_SECOND,
        writes: env.size(1000),
        departments: DEPARTMENTS,
        drains: 'writer',
      }),
      // A load the emulator keeps up with, while a 1,000-row import runs (issue #22, item 2).
      await lagAt(env, {
        writesPerSecond: SUSTAINABLE_WRITES_PER_SECOND,
        writes: env.size(500),
        departments: DEPARTMENTS,
        drains: 'writer',
        importRows: env.size(CONCURRENT_IMPORT_ROWS),
        goal: importLagGoal,
      }),
    ];
  },
};

export default [indexLag];
