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
import type { BenchCase, Comparison } from '../types';
import { asCaller, configOf, freshNames } from './accounts';

/** Azure's targets ÷ 100 (the front's default): 20 entities/s per partition, 200 requests/s. */
const HOT_FACTOR = 100;
/** Enough callers to keep the partition past its target (it refuses some all along). */
const WRITERS = 8;
const DEPARTMENT = 'Hot';
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

const hotCase: BenchCase = {
  name: "targets: a hot department against the partition's target",
  onlyWhenNamed: true,
  timeoutMs: 900_000,
  async run(env): Promise<Comparison> {
    const held = scaledTargets(HOT_FACTOR);
    progress(
      `hot department: its account held to Azure's targets ÷ ${HOT_FACTOR} (` +
        `${held.partitionEntities} entities/s per partition, ${held.accountRequests} requests/s)`,
    );
    const account = await startFrontedAccount(1, held);
    env.defer(() => account.stop());
    const names = freshNames(env);
    const config = configOf(env, { ...names, ...dataSettings([account]) });
    const services = createServices(() => config);
    const { departments, employees } = services.directory();
    await asCaller(() => departments.put(DEPARTMENT, {}));

    const count = env.size(200);
    const hot = `${names.EMPLOYEES_TABLE}/${DEPARTMENT}`;
    const watched = account.limiter.watch(hot);
    const partitions = () => account.limiter.partitions();
    const entitiesBefore = partitions();
    const refusedBefore = account.limiter.throttled();
    const requestsBefore = account.proxy.counts().requests - refusedBy(account);
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
    const wallMs = now() - started;
    const held1s = sustained(watched, startedAt, Date.now(), held.partitionEntities);
    const kinds = { ...watched };
    // Entities per partition while the creates ran: the hottest is the department's own.
    const during = [...partitions()].map(
      ([key, n]) => [key, n - (entitiesBefore.get(key) ?? 0)] as const,
    );
    const [hottest, entities] = during.reduce((a, b) => (b[1] > a[1] ? b : a), ['none', 0]);
    const requests = account.proxy.counts().requests - refusedBy(account) - requestsBefore;
    const refused = account.limiter.throttled();
    await services.changeQueue().settled();
    await asCaller(() => services.indexDrains().request(DEPARTMENT));
    const stored = (await departments.get(DEPARTMENT)).value.employeeCount;

    const perSecond = entities / (wallMs / 1000);
    const fraction = held1s / held.partitionEntities;
    const creates = latencies.length;
    const ms = (p: number) => Math.round(percentile(latencies, p));
    progress(
      `${creates} creates in ${(wallMs / 1000).toFixed(1)} s; ${hottest}: ${perSecond.toFixed(1)} ` +
        `entities/s admitted, ${held1s.toFixed(1)}/s sustained (${fraction.toFixed(2)}× its target); ` +
        `p99 ${ms(99)} ms`,
    );
    const refusedNow = (scope: keyof typeof refused) => refused[scope] - refusedBefore[scope];
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
          exactly('employees counted minus created', stored - creates, 0),
        ],
        `create latency p99 ${ms(99)} ms`,
      ),
      notes:
        `${creates} creates at ${((creates / wallMs) * 1000).toFixed(2)}/s, ` +
        `${(entities / creates).toFixed(2)} entities of ${hottest} per create (` +
        `${(kinds.batch / creates).toFixed(2)} in transactions, ${(kinds.single / creates).toFixed(2)} ` +
        `single, ${(kinds.read / creates).toFixed(2)} returned by queries; admitted ` +
        `${perSecond.toFixed(1)}/s, sustained ${held1s.toFixed(1)}/s counting each second up to the target) ` +
        `(${requests} requests admitted, ${(requests / creates).toFixed(2)} per create); ` +
        `latency p50 ${ms(50)} / p95 ${ms(95)} / p99 ${ms(99)} ms (503s waited out included); ` +
        `refused: ${refusedNow('partition')} for the partition, ${refusedNow('account')} for the ` +
        `account, ${refusedNow('blob')} for a blob; ${stored} employees counted.`,
    };
  },
};

export default hotCase;
