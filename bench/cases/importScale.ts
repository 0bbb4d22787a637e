/**
 * Import and index drain at real size (one department, one shared last name): 10,000 employees
 * imported in calls of 1,000 rows (`BENCH_IMPORT_ROWS` overrides the total), a quarter of them
 * sharing one last name and every other one with a last name of its own (the worst case for a
 * read that spans the department's last-name index entities).
 *
 * 1. Import, no index worker running: time, storage requests and entities read of each call
 *    (requests and entities counted on the directory's own table client; the proxy's total is
 *    reported too). Goal: the last call costs at most twice the first.
 * 2. Drain convergence: then three simulated instances (each with its own index stores, drain
 *    cache and shared drains, as three hosts have) receive the import's nudges from the
 *    `index-updates` queue, 16 at a time each, and a sweep runs on one of them, as the timer
 *    would; time until the department's outbox is empty and every employee of the shared name
 *    is in the org-wide member list. Each handled message's time is recorded: the longest must
 *    stay far below the host's `functionTimeout`.
 */
import type { QueueClient } from '@azure/storage-queue';
import { createDirectory } from '../../src/directory';
import { handleIndexUpdateMessage } from '../../src/indexing/queue/indexUpdates';
import { SharedDrains } from '../../src/indexing/drain/sharedDrains';
import { sweepOutboxes } from '../../src/indexing/drain/outboxSweep';
import { outboxNudgeSender, queueChangeSink } from '../../src/indexing/queue/queueChangeSink';
import { ensureQueue } from '../../src/storage/createOnce';
import { decodeQueueMessage } from '../../src/storage/queue';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { atMost, judge, num } from '../goals';
import {
  countingPolicy,
  DEPT,
  outboxRows,
  rawInsertMs,
  row,
  SHARED,
  storesOf,
} from '../importScale/department';

const ROWS_PER_CALL = 1_000;
const INSTANCES = 3;
const CONVERGENCE_TIMEOUT_MS = 15 * 60_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface CallFigures {
  call: number;
  ms: number;
  requests: number;
  entities: number;
  proxyRequests: number;
}

type EntityCounter = ReturnType<typeof countingPolicy>;

/**
 * 1. The import alone, in calls of {@link ROWS_PER_CALL} rows, each call's time, requests and
 * entities counted on the directory's own table client (and the proxy's total).
 */
async function importAll(
  env: BenchEnv,
  directory: ReturnType<typeof createDirectory>,
  counter: EntityCounter,
  total: number,
): Promise<CallFigures[]> {
  const calls: CallFigures[] = [];
  for (let start = 1; start <= total; start += ROWS_PER_CALL) {
    const rows = Array.from({ length: Math.min(ROWS_PER_CALL, total - start + 1) }, (_, i) =>
      row(start + i),
    );
    const before = { requests: counter.requests, entities: counter.entities };
    const proxyBefore = env.traffic().requests;
    const started = performance.now();
    const result = await directory.employees.import(DEPT, rows);
    const ms = performance.now() - started;
    if (result.created !== rows.length) {
      throw new Error(`call ${calls.length + 1}: ${JSON.stringify(result.failed.slice(0, 3))}`);
    }
    calls.push({
      call: calls.length + 1,
      ms: Math.round(ms),
      requests: counter.requests - before.requests,
      entities: counter.entities - before.entities,
      proxyRequests: env.traffic().requests - proxyBefore,
    });
    process.stdout.write(`  import call ${JSON.stringify(calls[calls.length - 1])}\n`);
  }
  return calls;
}

/** The invocations the simulated instances ran, and their failures. */
interface Invocations {
  running: boolean;
  /** Each handled message's time, ms. */
  times: number[];
  failures: number;
}

/** One simulated instance's queue trigger: 16 messages at a time until stopped. */
async function poll(queue: QueueClient, drains: SharedDrains, seen: Invocations): Promise<void> {
  while (seen.running) {
    const { receivedMessageItems } = await queue.receiveMessages({
      numberOfMessages: 16,
      visibilityTimeout: 600,
    });
    if (receivedMessageItems.length === 0) {
      await sleep(200);
      continue;
    }
    await Promise.all(
      receivedMessageItems.map(async (item) => {
        const started = performance.now();
        try {
          await handleIndexUpdateMessage(drains, decodeQueueMessage(item.messageText));
          await queue.deleteMessage(item.messageId, item.popReceipt);
        } catch {
          seen.failures++;
          // The host makes a failed message visible again at once.
          await queue
            .updateMessage(item.messageId, item.popReceipt, undefined, 0)
            .catch(() => undefined);
        } finally {
          seen.times.push(performance.now() - started);
        }
      }),
    );
  }
}

/** What {@link convergeDrain} saw. */
interface Convergence {
  /** NaN when it did not converge in time. */
  convergedMs: number;
  findable: number;
  expectedShared: number;
  invocations: Invocations;
}

/**
 * 2. Drain convergence with three instances and a sweep: until the outbox is empty and every
 * member of the shared name is findable.
 */
async function convergeDrain(
  env: BenchEnv,
  names: { employees: string; index: string },
  queue: QueueClient,
  total: number,
): Promise<Convergence> {
  // Each with the drain's own nudges on the same queue, as configuredIndexStores wires them.
  const instances = Array.from(
    { length: INSTANCES },
    () => new SharedDrains({ ...storesOf(env, names), nudge: outboxNudgeSender(queue) }),
  );
  const seen: Invocations = { running: true, times: [], failures: 0 };
  env.defer(() => (seen.running = false));
  const started = performance.now();
  const pollers = instances.map((drains) => poll(queue, drains, seen));
  const sweep = sweepOutboxes(instances[0]!).catch(() => {
    seen.failures++;
  });
  const expectedShared = Math.floor(total / 4);
  let convergedMs = Number.NaN;
  let findable = 0;
  while (performance.now() - started < CONVERGENCE_TIMEOUT_MS) {
    await sleep(1000);
    findable = (await instances[0]!.stores.lastNames.members(SHARED)).length;
    if (findable >= expectedShared && (await outboxRows(instances[0]!.stores)) === 0) {
      convergedMs = performance.now() - started;
      break;
    }
    const elapsed = Math.round((performance.now() - started) / 1000);
    if (elapsed % 10 === 0) {
      process.stdout.write(`  ${elapsed} s: ${findable}/${expectedShared} shared findable\n`);
    }
  }
  seen.running = false;
  await Promise.all([...pollers, sweep]);
  return { convergedMs, findable, expectedShared, invocations: seen };
}

/** The import's last call against its first, and the drain's convergence. */
function importComparisons(
  calls: CallFigures[],
  raw: { firstMs: number; lastMs: number },
  converged: Convergence,
  total: number,
): Comparison[] {
  const { convergedMs, findable, expectedShared } = converged;
  const invocations = converged.invocations.times;
  const first = calls[0]!;
  const last = calls[calls.length - 1]!;
  const measurement = (label: string, c: CallFigures): Measurement => ({
    label,
    wallMs: c.ms,
    operations: ROWS_PER_CALL,
    opsPerSecond: Math.round((ROWS_PER_CALL / c.ms) * 1000),
    requests: c.requests,
    bytes: 0,
    entities: c.entities,
  });
  const longest = Math.round(Math.max(0, ...invocations));
  return [
    {
      name: `import into one department, last call (${calls.length}) vs first`,
      pattern: measurement(`call ${last.call}`, last),
      baseline: measurement('call 1', first),
      goal: judge(
        'last call ≤ 2× the first',
        [atMost('last / first', last.ms / first.ms, 2, '×')],
        `Azurite alone slowed ${num(raw.lastMs / raw.firstMs)}× over the import`,
      ),
      notes:
        `proxy requests first/last ${first.proxyRequests}/${last.proxyRequests}; Azurite alone, ` +
        `2,000 raw inserts into the partition: ${Math.round(raw.firstMs)} ms before call 1, ` +
        `${Math.round(raw.lastMs)} ms after call ${last.call}`,
    },
    {
      name: `drain convergence after a ${total}-row import (${INSTANCES} instances + a sweep)`,
      pattern: {
        label: 'converged',
        wallMs: Math.round(convergedMs),
        operations: total,
        opsPerSecond: Math.round((total / convergedMs) * 1000),
        requests: 0,
        bytes: 0,
      },
      baseline: {
        label: 'longest invocation',
        wallMs: longest,
        operations: invocations.length,
        opsPerSecond: 0,
        requests: 0,
        bytes: 0,
      },
      notes:
        `${Number.isNaN(convergedMs) ? `NOT converged: ${findable}/${expectedShared} findable; ` : ''}` +
        `${invocations.length} invocations, longest ${longest} ms, ${converged.invocations.failures} failed`,
    },
  ];
}

const importScale: BenchCase = {
  name: 'importScale',
  async run(env: BenchEnv): Promise<Comparison[]> {
    const total = Number(process.env.BENCH_IMPORT_ROWS ?? env.size(10_000));
    const names = {
      employees: env.uniqueName('BigEmp', { table: true }),
      index: env.uniqueName('BigIdx', { table: true }),
      queue: env.uniqueName('big-index-updates'),
    };
    const table = env.clients.table(names.employees);
    const counter = countingPolicy();
    table.pipeline.addPolicy(counter.policy);
    const queue = env.clients.queue(names.queue);
    await ensureQueue(queue);
    const sink = queueChangeSink(queue);
    const directory = createDirectory({ employees: table, changes: sink });
    await directory.departments.put(DEPT, {});

    // 1. The import alone, with Azurite's own cost of inserting as many entities into the same
    //    partition before the first call and after the last (the emulator scans a partition on
    //    every insert and point read, so its times grow with the partition whatever the client
    //    does; on Azure they do not).
    const rawFirstMs = await rawInsertMs(table, 'first');
    const calls = await importAll(env, directory, counter, total);
    await sink.settled();
    const rawLastMs = await rawInsertMs(table, 'last');
    const converged = await convergeDrain(env, names, queue, total);
    return importComparisons(calls, { firstMs: rawFirstMs, lastMs: rawLastMs }, converged, total);
  },
};

export default importScale;
