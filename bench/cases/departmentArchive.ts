/**
 * Department archive at size: `POST /departments/{dept}/archive` (the Durable orchestration: pages
 * of 1,000 ids, chunk activities of 100 employees, 2 at a time, continue-as-new) on departments of
 * 1,000 and 5,000 employees (20,000 too with `BENCH_ARCHIVE_SIZES=1000,5000,20000`), against the queue-triggered archive (`archive-requests`
 * messages, one employee each, sent as a steady stream) of 1,000 employees of one department, same
 * host, same run. The goal: at least half the queue-triggered rate, and a time per 1,000 employees
 * that stays flat as the department grows.
 *
 * One built host runs the orchestration and archive functions against the counting proxy (the
 * durable runtime's own storage too: its requests count as the pattern's). The index drain is not
 * run, as in the archive case. Before measuring, the host archives a small department both ways
 * (its code compiled, its pollers awake). `BENCH_ARCHIVE_SIZES` (comma-separated) overrides the
 * department sizes; `BENCH_QUICK` scales them to a tenth.
 */
import type { QueueClient } from '@azure/storage-queue';
import { loadConfig } from '../../src/config';
import { createDirectory } from '../../src/directory';
import { createStorageClients } from '../../src/storage/clients';
import { mapBounded } from '../../src/storage/parallel';
import { sendJsonMessage } from '../../src/storage/queue';
import {
  ARCHIVE_HOST_BATCH,
  countArchived,
  archiveRequest,
  enqueueSteadily,
  readIncarnations,
  type Incarnations,
  waitForEmptyQueue,
} from '../archiveQueue';
import { startBuiltHost, type BuiltHost } from '../builtHost';
import { benchEmployee } from '../employees';
import { adminPrincipal, asPrincipal } from '../principals';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { FLAT, flatAgainst } from '../caseGoals';
import { atLeast, judge } from '../goals';

function sizes(env: BenchEnv): number[] {
  const raw = process.env.BENCH_ARCHIVE_SIZES;
  // 20,000 (BENCH_ARCHIVE_SIZES=1000,5000,20000) takes minutes more: the default run stays short.
  const full = raw ? raw.split(',').map((s) => Number(s.trim())) : [1_000, 5_000];
  if (full.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`BENCH_ARCHIVE_SIZES must list whole numbers, got "${raw}".`);
  }
  return full.map((n) => env.size(n));
}

/** Seeds `count` employees numbered from `first` into `department` (imports of 1,000). */
async function seed(
  env: BenchEnv,
  table: string,
  department: string,
  first: number,
  count: number,
): Promise<string[]> {
  const directory = createDirectory({ employees: env.clients.table(table) });
  await directory.departments.put(department, { description: 'Department archive benchmark' });
  const employees = Array.from({ length: count }, (_, i) => benchEmployee(first + i));
  for (let i = 0; i < employees.length; i += 1000) {
    const result = await directory.employees.import(department, employees.slice(i, i + 1000));
    if (result.failed.length > 0) throw new Error(`Seeding refused ${result.failed.length} rows.`);
  }
  return employees.map((e) => e.employeeId);
}

/** Starts the department archive through the host and polls its status until it has ended. */
async function archiveDepartment(host: BuiltHost, department: string): Promise<unknown> {
  const started = await fetch(
    `${host.baseUrl}/departments/${encodeURIComponent(department)}/archive`,
    asPrincipal(adminPrincipal, { method: 'POST' }),
  );
  if (started.status !== 202) {
    throw new Error(`Archive start answered ${started.status}: ${await started.text()}`);
  }
  const { statusUri } = (await started.json()) as { statusUri: string };
  const status = new URL(statusUri, host.baseUrl).toString();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const response = await fetch(status, asPrincipal(adminPrincipal));
    const body = (await response.json()) as { runtimeStatus?: string; output?: unknown };
    if (body.runtimeStatus === 'Completed') return body.output;
    if (body.runtimeStatus === 'Failed' || body.runtimeStatus === 'Terminated') {
      throw new Error(`The archive of ${department} ended ${JSON.stringify(body)}.`);
    }
  }
}

/** This run's tables, queues and task hub. */
function namesOf(env: BenchEnv) {
  return {
    employees: env.uniqueName('DeptArcEmp', { table: true }),
    archive: env.uniqueName('DeptArcArc', { table: true }),
    index: env.uniqueName('DeptArcIdx', { table: true }),
    archiveQueue: env.uniqueName('dept-arc'),
    indexQueue: env.uniqueName('dept-arc-idx'),
    hub: `DeptArc${Date.now().toString(36)}`,
  };
}
type Names = ReturnType<typeof namesOf>;

/** The departments seeded: the queue side's ids, its warm-up's, and the orchestration's sizes. */
interface Seeded {
  queueIds: string[];
  warmQueueIds: string[];
  departments: { name: string; size: number }[];
}

/**
 * Seeds every department of the case into the employees table: the queue side's (and its warm-up),
 * the orchestration's warm-up, and one department of each size.
 */
async function seedAll(
  env: BenchEnv,
  names: Names,
  queueCount: number,
  departmentSizes: readonly number[],
): Promise<Seeded> {
  // Distinct id ranges per department, so the archive table's counts tell them apart.
  let next = 1;
  const take = (count: number): number => {
    const first = next;
    next += count;
    return first;
  };
  const queueIds = await seed(env, names.employees, 'Queued', take(queueCount), queueCount);
  const warmQueueIds = await seed(env, names.employees, 'WarmQueued', take(100), 100);
  await seed(env, names.employees, 'WarmArchive', take(200), 200);
  const departments: { name: string; size: number }[] = [];
  for (const size of departmentSizes) {
    const name = `Dept${size}`;
    await seed(env, names.employees, name, take(size), size);
    departments.push({ name, size });
  }
  return { queueIds, warmQueueIds, departments };
}

/** What the case measured: the queue-triggered side, and the orchestration at each size. */
interface Measured {
  queued: Measurement;
  orchestrated: { size: number; measurement: Measurement }[];
}

/** What the queue-triggered side sends through: the queue (and uncounted, to poll it) and ids. */
interface QueueSide {
  archive: QueueClient;
  direct: QueueClient;
  incarnations: Incarnations;
}

/**
 * In the running host: a warm-up both ways (not measured), the queue-triggered archive of the
 * `Queued` department, then the orchestration on each department in turn.
 */
async function measureInHost(
  env: BenchEnv,
  host: BuiltHost,
  queues: QueueSide,
  seeded: Seeded,
): Promise<Measured> {
  const { incarnations } = queues;
  await mapBounded(seeded.warmQueueIds, ARCHIVE_HOST_BATCH, (employeeId) =>
    sendJsonMessage(queues.archive, archiveRequest(incarnations, 'WarmQueued', employeeId)),
  );
  await waitForEmptyQueue(queues.direct, 60_000);
  await archiveDepartment(host, 'WarmArchive');

  const queueCount = seeded.queueIds.length;
  const queued = await env.measure(
    `queue-triggered archive, one department, steady stream`,
    queueCount,
    async () => {
      await enqueueSteadily(
        incarnations,
        queues.archive,
        queues.direct,
        seeded.queueIds.map((employeeId) => ({ department: 'Queued', employeeId })),
      );
      await waitForEmptyQueue(queues.direct, 600_000);
      return { entities: queueCount };
    },
  );
  const orchestrated: Measured['orchestrated'] = [];
  for (const { name, size } of seeded.departments) {
    const measurement = await env.measure(
      `POST /departments/${name}/archive (orchestration, chunks of 100)`,
      size,
      async () => {
        const output = (await archiveDepartment(host, name)) as { archived?: number };
        if (output.archived !== size) {
          throw new Error(`${name}: archived ${output.archived} of ${size}.`);
        }
        return { entities: size };
      },
    );
    orchestrated.push({ size, measurement });
  }
  return { queued, orchestrated };
}

/** One comparison per department size, judged against the queue side and the smallest size. */
function comparisonsOf({ queued, orchestrated }: Measured, queueCount: number): Comparison[] {
  const smallest = orchestrated.reduce<(typeof orchestrated)[number] | undefined>(
    (a, b) => (a === undefined || b.size < a.size ? b : a),
    undefined,
  )?.measurement;
  return orchestrated.map(({ size, measurement }): Comparison => ({
    name: `archive a department of ${size} employees`,
    pattern: measurement,
    baseline: queued,
    goal: judge(
      `≥ 0.5× the queue-triggered rate; time per 1,000 flat (≤ ${FLAT}× the smallest's)`,
      [
        atLeast('rate / queue-triggered', measurement.opsPerSecond / queued.opsPerSecond, 0.5, '×'),
        flatAgainst('time per 1,000', measurement, smallest),
      ],
    ),
    notes:
      `rate orchestration/queue = ${(measurement.opsPerSecond / queued.opsPerSecond).toFixed(2)}; ` +
      `${(1000 / measurement.opsPerSecond).toFixed(2)} s per 1,000 employees; requests per ` +
      `employee: orchestration ${(measurement.requests / size).toFixed(2)} (listing, the ` +
      `durable runtime's work items and history, one range read of the chunk's employees ` +
      `and one of their reviews, archive copies in transactions of 100, grouped conditional ` +
      `deletes of 32–47 employees per transaction, outbox nudges; status polls every 250 ms), ` +
      `queue-triggered ${(queued.requests / queueCount).toFixed(2)}. The queue-triggered ` +
      `side archives ${queueCount} employees of one department (messages sent as a steady ` +
      `stream of at most 64 waiting, 16 handled at once).`,
  }));
}

const departmentArchive: BenchCase = {
  name: 'department archive: chunked orchestration vs queue-triggered archive',
  async run(env) {
    const departmentSizes = sizes(env);
    const queueCount = env.size(1_000);
    const directConfig = loadConfig({ AzureWebJobsStorage: env.directConnectionString });
    const direct = createStorageClients(directConfig.storage, directConfig.retry);
    const names = namesOf(env);
    const seeded = await seedAll(env, names, queueCount, departmentSizes);
    await env.clients.queue(names.archiveQueue).create();
    const incarnations = await readIncarnations(env.clients.table(names.employees));

    const host = await startBuiltHost(env, 'dist/functions/{orchestrations,archive}.js', {
      EMPLOYEES_TABLE: names.employees,
      ARCHIVE_TABLE: names.archive,
      EMPLOYEE_INDEX_TABLE: names.index,
      ARCHIVE_QUEUE: names.archiveQueue,
      INDEX_QUEUE: names.indexQueue,
      AzureFunctionsJobHost__extensions__durableTask__hubName: names.hub,
    });
    const queues: QueueSide = {
      archive: env.clients.queue(names.archiveQueue),
      direct: direct.queue(names.archiveQueue),
      incarnations,
    };
    let measured: Measured;
    try {
      measured = await measureInHost(env, host, queues, seeded);
    } catch (error) {
      process.stderr.write(host.output());
      throw error;
    } finally {
      await host.stop();
    }
    const total = queueCount + 100 + 200 + departmentSizes.reduce((a, b) => a + b, 0);
    const archived = await countArchived(direct.table(names.archive));
    if (archived !== total) throw new Error(`Only ${archived} of ${total} employees archived.`);
    return comparisonsOf(measured, queueCount);
  },
};

export default [departmentArchive];
