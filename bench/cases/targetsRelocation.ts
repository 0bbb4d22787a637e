/**
 * A relocation under Azure's targets (docs/targets.md, docs/accounts.md, issue 43): `npm run bench
 * -- targets`. Two data accounts, each behind a front holding Azure's account target ÷
 * {@link FACTOR}; a department seeded with the fronts open, then moved to the other account
 * while 4 writers create and rename its employees through the throttling. The steps run in the
 * orchestrator's order, each retried on a 503 as its activity is (6 attempts); writers wait out
 * a `ServerBusy` or a `Relocating` refusal for its `Retry-After` as callers do, and count each
 * refusal as the API answers it (`errorResponse`: status, `Retry-After`). Judged: no acknowledged
 * write lost, every refusal a 503 with `Retry-After`, none outside the freeze-to-switch window;
 * reported: the frozen window, the writes refused in it, the steps' throttles.
 */
import { errorResponse } from '../../functions/shared/http';
import { createServices, type Services } from '../../functions/shared/services';
import type { RelocationDeps } from '../../src/accounts/relocation/relocationSteps';
import type { Config } from '../../src/config';
import { ConflictError, ThrottledError } from '../../src/domainErrors';
import { AZURE_TARGETS, scaledTargets } from '../../tools/targets/azureTargets';
import { benchEmployee } from '../employees';
import { exactly, holds, judge } from '../goals';
import { relocate } from '../relocation/relocateSteps';
import { dataSettings, progress, refusedBy, startFrontedAccount } from '../targetsFronts';
import type { BenchCase, Comparison } from '../types';
import { asCaller, configOf, freshNames } from './accounts';

/**
 * Each account held to Azure's 20,000 requests/s ÷ 100 (200/s; partitions, queues and blobs at
 * Azure's own). At ÷ 400 (the scale-out case's 50/s) the last sync fails: its chunk's point reads,
 * 32 at a time, meet ServerBusy past the SDK's retries in each of the activity's six attempts, and
 * the relocation would roll back (docs/targets.md).
 */
const FACTOR = 100;

const DEPARTMENT = 'Moved';
const WRITERS = 4;
/**
 * Rows per relocation chunk (`RELOCATION_CHUNK_ROWS`, default 1,000): scaled with the account's
 * target (1,000 rows need a few hundredths of a second of Azure's 20,000 requests/s; 100 rows
 * half a second of 200/s): a 1,000-row sync chunk (1,000 point reads) would need five seconds of
 * the account, and one read past the SDK's retries fails the chunk, which starts over.
 */
const CHUNK_ROWS = 100;
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the writers saw while the department moved. */
interface Writes {
  acknowledged: Map<string, string>;
  /** `Relocating` refusals: when each came, and whether the API's answer was 503 + Retry-After. */
  refusedAt: number[];
  refusedAs503WithRetryAfter: number;
  /** `ServerBusy` (or contention) past the app's retries, waited out and tried again. */
  busy: number;
  failed: number;
  writes: number;
}

/** Writes to the department until `stop`: creates of new employees and renames of seeded ones. */
async function writeWhile(services: Services, seeded: number, stop: () => boolean) {
  const w: Writes = {
    acknowledged: new Map(),
    refusedAt: [],
    refusedAs503WithRetryAfter: 0,
    busy: 0,
    failed: 0,
    writes: 0,
  };
  const { employees } = services.directory();
  let next = 100_001;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (!stop()) {
        const n = next++;
        w.writes++;
        const create = n % 2 === 0;
        const id = create ? String(n).padStart(6, '0') : String((n % seeded) + 1).padStart(6, '0');
        const lastName = `Late${n}`;
        for (let attempt = 0; ; attempt++) {
          try {
            if (create) await employees.create(DEPARTMENT, { ...benchEmployee(n), lastName });
            else await employees.patch(DEPARTMENT, id, { lastName });
            w.acknowledged.set(id, lastName);
          } catch (error) {
            // A create whose earlier try landed before its answer was lost is done.
            if (create && attempt > 0 && error instanceof ConflictError) {
              w.acknowledged.set(id, lastName);
            } else if (error instanceof ThrottledError && error.code === 'Relocating') {
              w.refusedAt.push(now());
              const answer = errorResponse(error);
              const headers = (answer.headers ?? {}) as Record<string, string>;
              if (answer.status === 503 && Number(headers['retry-after']) > 0)
                w.refusedAs503WithRetryAfter++;
              // As a caller does: a refused write is given up, the next one sent after the wait.
              await sleep(Math.max(1, error.retryAfterSeconds) * 1000);
            } else if (error instanceof ThrottledError) {
              w.busy++;
              await sleep(Math.max(1, error.retryAfterSeconds) * 1000);
              continue;
            } else w.failed++;
          }
          break;
        }
      }
    }),
  );
  return w;
}

type FrontedAccount = Awaited<ReturnType<typeof startFrontedAccount>>;

/** Seeds the department with the fronts open (the seed is not measured), then holds them. */
async function seedDepartment(
  fronted: FrontedAccount[],
  services: Services,
  seeded: number,
  accountRequests: number,
): Promise<void> {
  const { departments, employees } = services.directory();
  for (const a of fronted) a.proxy.setTargets(null);
  await departments.put(DEPARTMENT, { description: 'Relocated under targets' });
  for (let i = 0; i < seeded; i += 500) {
    const rows = Array.from({ length: Math.min(500, seeded - i) }, (_, k) =>
      benchEmployee(i + k + 1),
    );
    await employees.import(DEPARTMENT, rows);
  }
  await services.changeQueue().settled();
  await services.indexDrains().request(DEPARTMENT);
  for (const a of fronted) a.proxy.setTargets(a.limiter);
  progress(`seeded ${seeded} employees; the fronts hold ${accountRequests} requests/s`);
}

/** The department moved to the other account while the writers write. */
async function relocateWhileWriting(
  fronted: FrontedAccount[],
  services: Services,
  config: Config,
  seeded: number,
) {
  const from = (await services.placement().ofDepartment(DEPARTMENT)).account;
  const to = from === 'DATA1' ? 'DATA2' : 'DATA1';
  const refusedBefore = fronted.map(refusedBy);
  let relocating = true;
  const started = now();
  const writing = writeWhile(services, seeded, () => !relocating);
  const deps: RelocationDeps = {
    placement: services.placement(),
    tables: config.tables,
    photosContainer: config.containers.photos,
    chunkRows: config.accounts.relocationChunkRows,
  };
  const moved = await relocate(deps, DEPARTMENT, to, config.accounts.placementCacheMs)
    .catch((error: unknown) => {
      const scopes = fronted.map((a) => `${a.name} ${JSON.stringify(a.limiter.throttled())}`);
      throw new Error(`relocation failed; refused so far: ${scopes.join(', ')}`, {
        cause: error,
      });
    })
    .finally(() => {
      relocating = false;
    });
  const relocationMs = now() - started;
  const w = await writing;
  const refusedByFronts = fronted.reduce((sum, a, i) => sum + refusedBy(a) - refusedBefore[i]!, 0);
  return { from, to, moved, relocationMs, w, refusedByFronts };
}

type Relocated = Awaited<ReturnType<typeof relocateWhileWriting>>;

/** Acknowledged writes not there, exactly as acknowledged. */
async function countLost(services: Services, acknowledged: Map<string, string>): Promise<number> {
  const { employees } = services.directory();
  let lost = 0;
  for (const [id, lastName] of acknowledged) {
    let read: string | undefined;
    await asCaller(async () => {
      read = (await employees.get(DEPARTMENT, id)).value.lastName;
    }).catch(() => undefined);
    if (read !== lastName) lost++;
  }
  return lost;
}

/** The comparison: the relocation with writes beside its frozen window, the goals judged. */
function relocationComparison(
  r: Relocated,
  after: { lost: number; placedIn: string },
  seeded: number,
  placementCacheMs: number,
): Comparison {
  const { from, to, moved, relocationMs, w, refusedByFronts } = r;
  const { lost, placedIn } = after;
  const refused = w.refusedAt.length;
  const outside = w.refusedAt.filter(
    (t) => t < moved.aroundSwitch.from || t > moved.aroundSwitch.to,
  ).length;
  progress(
    `frozen ${Math.round(moved.frozenMs)} ms; ${refused} writes refused; ${lost} lost; ` +
      `${w.busy} waits on ServerBusy`,
  );
  return {
    name: `relocation of a ${seeded}-employee department while ${WRITERS} writers continue, each account held to Azure's target ÷ ${FACTOR}`,
    pattern: {
      label: 'relocation with writes, under the targets',
      wallMs: Math.round(relocationMs),
      operations: moved.copied,
      opsPerSecond: Math.round((moved.copied / relocationMs) * 10_000) / 10,
      requests: 0,
      bytes: 0,
    },
    baseline: {
      label: 'the frozen window (ms)',
      wallMs: Math.round(moved.frozenMs),
      operations: refused,
      opsPerSecond: 0,
      requests: 0,
      bytes: 0,
    },
    goal: judge(
      'no acknowledged write lost; every refusal a 503 with Retry-After, only around the switch',
      [
        exactly('acknowledged writes lost', lost, 0),
        exactly(
          'refusals not answered 503 with Retry-After',
          refused - w.refusedAs503WithRetryAfter,
          0,
        ),
        holds(
          `${outside} of ${refused} refusals outside the freeze-to-switch window`,
          outside === 0,
        ),
        holds(`department in ${placedIn} after, moved to ${to}`, placedIn === to),
        exactly('writes failed otherwise', w.failed, 0),
      ],
      `frozen ${Math.round(moved.frozenMs)} ms`,
    ),
    notes:
      `${(relocationMs / 1000).toFixed(1)} s from ${from} to ${to}, ${moved.copied} rows and blobs copied in ` +
      `${(moved.copyMs / 1000).toFixed(1)} s; frozen ${Math.round(moved.frozenMs)} ms (last sync ` +
      `${Math.round(moved.syncMs)} ms for ${moved.synced} keys, placement cache ${placementCacheMs / 1000} s); ` +
      `source deleted in ${(moved.deleteMs / 1000).toFixed(1)} s; writes ${w.writes}: ${w.acknowledged.size} ` +
      `acknowledged, ${refused} refused (503 Relocating, ${w.refusedAs503WithRetryAfter} with Retry-After), ` +
      `${w.failed} failed otherwise, ${w.busy} ServerBusy waits; lost ${lost}; steps retried on 503 ${moved.throttled} times; ` +
      `${refusedByFronts} requests refused by the fronts.`,
  };
}

const relocationCase: BenchCase = {
  name: 'targets: relocation of a department while writes continue under the targets',
  onlyWhenNamed: true,
  timeoutMs: 900_000,
  async run(env): Promise<Comparison> {
    const held = { ...AZURE_TARGETS, accountRequests: scaledTargets(FACTOR).accountRequests };
    const fronted = await Promise.all([1, 2].map((i) => startFrontedAccount(i, held)));
    env.defer(() => Promise.all(fronted.map((a) => a.stop())));
    const config = configOf(env, {
      ...freshNames(env),
      ...dataSettings(fronted),
      RELOCATION_CHUNK_ROWS: String(CHUNK_ROWS),
    });
    const services = createServices(() => config);
    const seeded = env.size(1_000);
    await seedDepartment(fronted, services, seeded, held.accountRequests);
    const relocated = await relocateWhileWriting(fronted, services, config, seeded);
    const lost = await countLost(services, relocated.w.acknowledged);
    const placedIn = (await services.placement().ofDepartment(DEPARTMENT, { fresh: true })).account;
    return relocationComparison(
      relocated,
      { lost, placedIn },
      seeded,
      config.accounts.placementCacheMs,
    );
  },
};

export default relocationCase;
