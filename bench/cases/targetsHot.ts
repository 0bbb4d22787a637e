/**
 * A hot department under Azure's partition target (docs/targets.md, issue 43): `npm run bench --
 * targets`. Creates with index maintenance from {@link WRITERS} writers into ONE department, in a
 * data account behind a front holding Azure's targets ÷ {@link HOT_FACTOR} (20 entities/s per
 * partition), so the department's partition binds long before this machine does. Judged: the
 * entities/s the department's partition sustained (each second's admitted entities counted up to
 * the target: the front's one-second windows let a read's entities past it) as a fraction of its
 * target (≥ 0.8×: callers and the app's retries keep it busy rather than idle in back-off);
 * reported: creates/s, entities per create, each create's latency as its caller sees it (503s
 * waited out for their `Retry-After` included), p50/p95/p99.
 */
import { createServices } from '../../functions/shared/services';
import { scaledTargets } from '../../tools/targets/azureTargets';
import { benchEmployee } from '../employees';
import { atLeast, exactly, holds, judge } from '../goals';
import {
  dataSettings,
  percentile,
  progress,
  refusedBy,
  startFrontedAccount,
  sustained,
} from '../targetsFronts';
import type { BenchCase, BenchEnv, Comparison } from '../types';
import { asCaller, configOf, freshNames } from './accounts';

/** Azure's targets ÷ 100 (the front's default): 20 entities/s per partition, 200 requests/s. */
const HOT_FACTOR = 100;
/** Enough callers to keep the partition past its target (it refuses some all along). */
const WRITERS = 8;
const DEPARTMENT = 'Hot';
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

type HeldTargets = ReturnType<typeof scaledTargets>;
type FrontedAccount = Awaited<ReturnType<typeof startFrontedAccount>>;
type EmployeeService = ReturnType<ReturnType<typeof createServices>['directory']>['employees'];

/** The creates as their callers saw them. */
interface Creates {
  latencies: number[];
  failed: number;
  wallMs: number;
  /** When the first create was sent (`Date.now()`), for the front's one-second windows. */
  startedAt: number;
}

/** `count` creates into the department from {@link WRITERS} writers, each taking the next one. */
async function createConcurrently(employees: EmployeeService, count: number): Promise<Creates> {
  const latencies: number[] = [];
  let failed = 0;
  let next = 1;
  const started = now();
  const startedAt = Date.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next <= count) {
        const n = next++;
        const sent = now();
        try {
          await asCaller(() => employees.create(DEPARTMENT, benchEmployee(n)));
          latencies.push(now() - sent);
        } catch {
          failed++;
        }
      }
    }),
  );
  return { latencies, failed, wallMs: now() - started, startedAt };
}

/** What the front saw of the creates: the hottest partition, its entities, the refusals. */
interface HotFigures {
  held1s: number;
  kinds: { batch: number; single: number; read: number };
  hottest: string;
  entities: number;
  requests: number;
  refused: Record<'partition' | 'account' | 'blob', number>;
  stored: number;
}

/** The comparison: the partition's sustained entities/s against its target. */
function hotComparison(
  held: HeldTargets,
  hot: string,
  creates: Creates,
  figures: HotFigures,
): Comparison {
  const { wallMs, latencies, failed } = creates;
  const { held1s, kinds, hottest, entities, requests, refused, stored } = figures;
  const perSecond = entities / (wallMs / 1000);
  const fraction = held1s / held.partitionEntities;
  const count = latencies.length;
  const ms = (p: number) => Math.round(percentile(latencies, p));
  progress(
    `${count} creates in ${(wallMs / 1000).toFixed(1)} s; ${hottest}: ${perSecond.toFixed(1)} ` +
      `entities/s admitted, ${held1s.toFixed(1)}/s sustained (${fraction.toFixed(2)}× its target); ` +
      `p99 ${ms(99)} ms`,
  );
  return {
    name: `creates into one department by ${WRITERS} writers, its partition held to Azure's 2,000 entities/s ÷ ${HOT_FACTOR}`,
    pattern: {
      label: `entities/s ${hot} sustained (each second up to the target)`,
      wallMs: Math.round(wallMs),
      operations: entities,
      opsPerSecond: Math.round(held1s * 10) / 10,
      requests,
      bytes: 0,
      p50Ms: ms(50),
      p95Ms: ms(95),
      p99Ms: ms(99),
    },
    baseline: {
      label: "the partition's target",
      wallMs: Math.round(wallMs),
      operations: Math.round((held.partitionEntities * wallMs) / 1000),
      opsPerSecond: held.partitionEntities,
      requests: 0,
      bytes: 0,
    },
    goal: judge(
      "≥ 0.8× the partition's target sustained; no failed create; every create counted",
      [
        atLeast("entities/s sustained over the partition's target", fraction, 0.8, '×'),
        holds(`the hottest partition is the department's (${hottest})`, hottest === hot),
        exactly('failed creates', failed, 0),
        exactly('employees counted minus created', stored - count, 0),
      ],
      `create latency p99 ${ms(99)} ms`,
    ),
    notes:
      `${count} creates at ${((count / wallMs) * 1000).toFixed(2)}/s, ` +
      `${(entities / count).toFixed(2)} entities of ${hottest} per create (` +
      `${(kinds.batch / count).toFixed(2)} in transactions, ${(kinds.single / count).toFixed(2)} ` +
      `single, ${(kinds.read / count).toFixed(2)} returned by queries; admitted ` +
      `${perSecond.toFixed(1)}/s, sustained ${held1s.toFixed(1)}/s counting each second up to the target) ` +
      `(${requests} requests admitted, ${(requests / count).toFixed(2)} per create); ` +
      `latency p50 ${ms(50)} / p95 ${ms(95)} / p99 ${ms(99)} ms (503s waited out included); ` +
      `refused: ${refused.partition} for the partition, ${refused.account} for the ` +
      `account, ${refused.blob} for a blob; ${stored} employees counted.`,
  };
}

/** The department's account behind a front held to the scaled targets, and the app on it. */
async function startHot(env: BenchEnv, held: HeldTargets) {
  progress(
    `hot department: its account held to Azure's targets ÷ ${HOT_FACTOR} (` +
      `${held.partitionEntities} entities/s per partition, ${held.accountRequests} requests/s)`,
  );
  const account: FrontedAccount = await startFrontedAccount(1, held);
  env.defer(() => account.stop());
  const names = freshNames(env);
  const config = configOf(env, { ...names, ...dataSettings([account]) });
  const services = createServices(() => config);
  await asCaller(() => services.directory().departments.put(DEPARTMENT, {}));
  return { account, services, hot: `${names.EMPLOYEES_TABLE}/${DEPARTMENT}` };
}

const hotCase: BenchCase = {
  name: "targets: a hot department against the partition's target",
  onlyWhenNamed: true,
  timeoutMs: 900_000,
  async run(env): Promise<Comparison> {
    const held = scaledTargets(HOT_FACTOR);
    const { account, services, hot } = await startHot(env, held);
    const { departments, employees } = services.directory();
    const count = env.size(200);
    const watched = account.limiter.watch(hot);
    const partitions = () => account.limiter.partitions();
    const entitiesBefore = partitions();
    const refusedBefore = account.limiter.throttled();
    const requestsBefore = account.proxy.counts().requests - refusedBy(account);
    const creates = await createConcurrently(employees, count);
    const held1s = sustained(watched, creates.startedAt, Date.now(), held.partitionEntities);
    const kinds = { ...watched };
    // Entities per partition while the creates ran: the hottest is the department's own.
    const during = [...partitions()].map(
      ([key, n]) => [key, n - (entitiesBefore.get(key) ?? 0)] as const,
    );
    const [hottest, entities] = during.reduce((a, b) => (b[1] > a[1] ? b : a), ['none', 0]);
    const requests = account.proxy.counts().requests - refusedBy(account) - requestsBefore;
    const refusedNow = account.limiter.throttled();
    await services.changeQueue().settled();
    await asCaller(() => services.indexDrains().request(DEPARTMENT));
    const stored = (await departments.get(DEPARTMENT)).value.employeeCount;
    const refused = {
      partition: refusedNow.partition - refusedBefore.partition,
      account: refusedNow.account - refusedBefore.account,
      blob: refusedNow.blob - refusedBefore.blob,
    };
    return hotComparison(held, hot, creates, {
      held1s,
      kinds,
      hottest,
      entities,
      requests,
      refused,
      stored,
    });
  },
};

export default hotCase;
