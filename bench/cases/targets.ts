/**
 * Scale-out under Azure's targets (docs/targets.md, issue 43): `npm run bench -- targets`. Each
 * data account is an Azurite process of its own behind a targets front holding it to Azure's
 * account target divided by {@link FACTOR}, so an account's capacity is its target, not this
 * machine's CPU — as in Azure. Creates with index maintenance, 32 writers and 128 departments
 * per data account (offered load above each account's target) on 1, 2 and 4 data accounts:
 * throughput ratios, requests per create (admitted, over every account), requests
 * per account (even within ±15%), the home account's share and refusals per create. The home
 * account (placements, the index queue, the task hub) is counted but not throttled: what it
 * carries per create is reported as its share. A hot department (targetsHot.ts) and a
 * relocation (targetsRelocation.ts) are cases of their own.
 */
import { createServices } from '../../functions/shared/services';
import {
  AZURE_TARGETS,
  scaledTargets,
  type StorageTargets,
} from '../../tools/targets/azureTargets';
import { atLeast, atMost, judge } from '../goals';
import {
  dataSettings,
  progress,
  refusedBy,
  startFrontedAccount,
  type FrontedAccount,
} from '../targetsFronts';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { configOf, freshNames, spreadWrites, type Counter } from './accounts';

/** The account's target ÷ 400: 50 requests/s per account. */
export const FACTOR = 400;

/**
 * The targets each data account's front holds: the account's scaled down by {@link FACTOR}, its
 * partitions', queues' and blobs' at Azure's own figures. Scaling those too would make one
 * last-name list blob (1 request/s) or one department (1 create/s) the ceiling — a load no
 * organisation puts on one blob or partition in Azure — instead of the account, which is what
 * more accounts relieve.
 */
export function benchTargets(): StorageTargets {
  return { ...AZURE_TARGETS, accountRequests: scaledTargets(FACTOR).accountRequests };
}
/**
 * Departments per data account, and writers per data account: an organisation that grows into
 * more accounts has more departments and more callers, not busier departments (weak scaling,
 * docs/targets.md). Each department then sees the same create rate on 1, 2 and 4 accounts, so
 * an index drain round is shared by as many creates on each.
 */
const SPREAD_PER_ACCOUNT = 128;
const WRITERS_PER_ACCOUNT = 32;
const ACCOUNT_COUNTS = [1, 2, 4] as const;

/** What one run over `accounts` measured, beside its throughput. */
interface ScaleRun {
  measurement: Measurement;
  /** Requests admitted by each data account (refused ones are not storage work). */
  perAccount: number[];
  /** Departments placed in each data account (rendezvous hashing of their names). */
  departments: number[];
  home: number;
  refused: number;
}

async function runOver(
  env: BenchEnv,
  accounts: readonly FrontedAccount[],
  count: number,
): Promise<ScaleRun> {
  const config = configOf(env, { ...freshNames(env), ...dataSettings(accounts) });
  const services = createServices(() => config);
  env.resetTraffic();
  const admitted = accounts.map((a) => () => a.proxy.counts().requests - refusedBy(a));
  const counters: Counter[] = [() => env.traffic().requests, ...admitted];
  const before = counters.map((c) => c());
  const refusedBefore = accounts.map(refusedBy);
  const label = `${accounts.length} data account${accounts.length > 1 ? 's' : ''}`;
  const kindsBefore = accounts.map((a) => ({ ...a.proxy.counts().byKind }));
  const statusBefore = accounts.map((a) => ({ ...a.proxy.counts().byStatus }));
  const spread = SPREAD_PER_ACCOUNT * accounts.length;
  const writers = WRITERS_PER_ACCOUNT * accounts.length;
  const measurement = await spreadWrites(services, counters, label, count, spread, writers);
  const after = counters.map((c, i) => c() - before[i]!);
  progress(
    `${label}, per create: requests by kind (refused ones included) ` +
      `${perCreate(accounts, 'byKind', kindsBefore, count)}; answers by status ` +
      perCreate(accounts, 'byStatus', statusBefore, count),
  );
  const refused = accounts.reduce((sum, a, i) => sum + refusedBy(a) - refusedBefore[i]!, 0);
  const placed = await services.placement().all();
  const departments = accounts.map((a) => placed.filter((p) => p.account === a.name).length);
  return { measurement, home: after[0]!, perAccount: after.slice(1), departments, refused };
}

/**
 * Per create, over `accounts` since `before`, largest first: requests of each `service:METHOD`
 * (`byKind`) or answers of each status (`byStatus`) — where the work under throttling goes.
 */
function perCreate(
  accounts: readonly FrontedAccount[],
  field: 'byKind' | 'byStatus',
  before: Record<string, number>[],
  count: number,
): string {
  const sums = new Map<string, number>();
  accounts.forEach((a, i) => {
    for (const [kind, n] of Object.entries(a.proxy.counts()[field])) {
      sums.set(kind, (sums.get(kind) ?? 0) + n - (before[i]![kind] ?? 0));
    }
  });
  return [...sums]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${(n / count).toFixed(2)}`)
    .join(', ');
}

function comparison(one: ScaleRun, many: ScaleRun, minimumRatio: number): Comparison {
  const ratio = many.measurement.opsPerSecond / one.measurement.opsPerSecond;
  const perCreate = (run: ScaleRun) => run.measurement.requests / run.measurement.operations;
  const mean = many.perAccount.reduce((a, b) => a + b, 0) / many.perAccount.length;
  const spreadOff = Math.max(...many.perAccount.map((n) => Math.abs(n / mean - 1)));
  const homeShare = (run: ScaleRun) => run.home / run.measurement.requests;
  return {
    name:
      `creates with index maintenance, ${SPREAD_PER_ACCOUNT} departments and ${WRITERS_PER_ACCOUNT} writers ` +
      `per data account, each held to Azure's target ÷ ${FACTOR}: ${many.measurement.label} vs one`,
    pattern: many.measurement,
    baseline: one.measurement,
    goal: judge(
      `≥ ${minimumRatio}× the creates/s of one account; requests per create within 0.3 of one's; accounts even within ±15%`,
      [
        atLeast('throughput', ratio, minimumRatio, '×'),
        atMost('requests per create over one', Math.abs(perCreate(many) - perCreate(one)), 0.3),
        atMost('largest account off the mean', spreadOff * 100, 15, '%'),
      ],
    ),
    notes:
      `${one.measurement.opsPerSecond} vs ${many.measurement.opsPerSecond} creates/s; requests per create ` +
      `${perCreate(one).toFixed(2)} vs ${perCreate(many).toFixed(2)} (admitted, every account); ` +
      `per data account ${many.perAccount.join(' / ')} requests, ${many.departments.join(' / ')} ` +
      `departments; home share ${(homeShare(one) * 100).toFixed(0)}% vs ` +
      `${(homeShare(many) * 100).toFixed(0)}%; refused per create ` +
      `${(one.refused / one.measurement.operations).toFixed(2)} vs ${(many.refused / many.measurement.operations).toFixed(2)}.`,
  };
}

const targetsCase: BenchCase = {
  name: "targets: scale-out over data accounts under Azure's targets",
  onlyWhenNamed: true,
  timeoutMs: 1_200_000,
  async run(env) {
    const held = benchTargets();
    progress(
      `each data account: ${held.accountRequests} requests/s (Azure's ÷ ${FACTOR}); partitions, ` +
        `queues and blobs at Azure's ${held.partitionEntities}, ${held.queueMessages}, ${held.blobRequests}/s`,
    );
    const fronted = await Promise.all([1, 2, 3, 4].map((i) => startFrontedAccount(i, held)));
    env.defer(() => Promise.all(fronted.map((a) => a.stop())));
    const runs = new Map<number, ScaleRun>();
    for (const n of ACCOUNT_COUNTS) {
      // Offered load in proportion to the accounts, as departments and writers are.
      const run = await runOver(env, fronted.slice(0, n), env.size(600) * n);
      runs.set(n, run);
      progress(`${run.measurement.label}: ${run.measurement.opsPerSecond} creates/s`);
    }
    const one = runs.get(1)!;
    return [comparison(one, runs.get(2)!, 1.8), comparison(one, runs.get(4)!, 3.4)];
  },
};

export default targetsCase;
