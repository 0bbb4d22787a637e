/**
 * The pieces of the accounts case's relocation comparison (bench/cases/accounts.ts): the writes
 * that go on during it, the relocation's steps in the orchestrator's order, the checks after.
 * Outside `bench/cases/` because every module there is a case the runner loads.
 */
import { randomUUID } from 'node:crypto';
import type { Services } from '../../functions/shared/services';
import { copyChunk } from '../../src/accounts/relocation/relocationCopy';
import { deleteChunk } from '../../src/accounts/relocation/relocationDelete';
import {
  freezeDepartment,
  startRelocation,
  switchDepartment,
  type RelocationCursor,
  type RelocationDeps,
} from '../../src/accounts/relocation/relocationSteps';
import { syncChunk } from '../../src/accounts/relocation/relocationSync';
import { ThrottledError } from '../../src/domainErrors';
import { benchEmployee } from '../employees';
import { holds, type Criterion } from '../goals';

const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** A line on the run's output while a long case goes on. */
const progress = (line: string): void => void process.stdout.write(`    ${line}\n`);

/** What the writes beside a relocation saw. */
export interface WritesDuring {
  /** The value each acknowledged write left, by employee id. */
  acknowledged: Map<string, string>;
  refused: number;
  /** When each refusal came (`now()`), to tell whether they all fell around the switch. */
  refusedAt: number[];
  failed: number;
  writes: number;
}

/** Refusals before the freeze or after every placement cache saw the switch: there must be none. */
export function refusedOutside(
  at: number[],
  around: { from: number; to: number },
  refused: number,
): Criterion {
  const outside = at.filter((t) => t < around.from || t > around.to).length;
  return holds(
    `${outside} of ${refused} refusals outside the freeze-to-switch window`,
    outside === 0,
  );
}

/** Writes to the department until `stop`: creates of new employees and renames of seeded ones. */
export async function writeWhile(
  services: Services,
  department: string,
  first: number,
  seeded: number,
  stop: () => boolean,
): Promise<WritesDuring> {
  const acknowledged = new Map<string, string>();
  const refusedAt: number[] = [];
  let refused = 0;
  let failed = 0;
  let writes = 0;
  let next = first;
  const { employees } = services.directory();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (!stop()) {
        const n = next++;
        writes++;
        const create = n % 2 === 0;
        const id = create ? String(n).padStart(6, '0') : String((n % seeded) + 1).padStart(6, '0');
        const value = `Late${n}`;
        try {
          if (create) await employees.create(department, { ...benchEmployee(n), lastName: value });
          else await employees.patch(department, id, { lastName: value });
          acknowledged.set(id, value);
        } catch (error) {
          if (error instanceof ThrottledError && error.code === 'Relocating') {
            refused++;
            refusedAt.push(now());
            await sleep(200);
          } else failed++;
        }
      }
    }),
  );
  return { acknowledged, refused, refusedAt, failed, writes };
}

/** The relocation's steps in the orchestrator's order, with its waits for the placement cache. */
export async function relocate(
  deps: RelocationDeps,
  department: string,
  to: string,
  cacheMs: number,
) {
  const plan = await startRelocation(deps, department, to, randomUUID().replace(/-/g, ''));
  const run = async (
    step: (c?: RelocationCursor) => Promise<{ next?: RelocationCursor; rows: number }>,
  ) => {
    let cursor: RelocationCursor | undefined;
    let rows = 0;
    do {
      const result = await step(cursor);
      rows += result.rows;
      cursor = result.next;
    } while (cursor);
    return rows;
  };
  const started = now();
  const copied = await run((c) => copyChunk(deps, plan, c));
  const copyMs = now() - started;
  progress(`copied ${copied} rows and blobs in ${(copyMs / 1000).toFixed(1)} s`);
  const freezing = now();
  await freezeDepartment(deps, plan);
  const frozenAt = now();
  const synced = await run((c) => syncChunk(deps, plan, c));
  const syncMs = now() - frozenAt;
  await sleep(Math.max(0, frozenAt + cacheMs + 1_000 - now()));
  await switchDepartment(deps, plan);
  const switchedAt = now();
  const frozenMs = switchedAt - freezing;
  await sleep(cacheMs + 1_000);
  const deleting = now();
  await run((c) => deleteChunk(deps, plan, c));
  // Around the switch: from the freeze until placement caches have all seen the switch.
  const aroundSwitch = { from: freezing, to: switchedAt + cacheMs + 1_000 };
  return { copied, frozenMs, copyMs, syncMs, synced, deleteMs: now() - deleting, aroundSwitch };
}

/** Creates `department` with `seeded` employees (imports of 1,000), its index brought up to date. */
export async function seedDepartment(
  services: Services,
  department: string,
  seeded: number,
): Promise<void> {
  const { departments, employees } = services.directory();
  await departments.put(department, { description: 'Relocated' });
  for (let i = 0; i < seeded; i += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, seeded - i) }, (_, k) =>
      benchEmployee(i + k + 1),
    );
    await employees.import(department, rows);
  }
  await services.changeQueue().settled();
  await services.indexDrains().request(department);
  progress(`seeded ${seeded} employees`);
}

/** The acknowledged writes whose value is not there, exactly as acknowledged, afterwards. */
export async function lostWrites(
  services: Services,
  department: string,
  acknowledged: ReadonlyMap<string, string>,
): Promise<number> {
  const { employees } = services.directory();
  let lost = 0;
  for (const [id, lastName] of acknowledged) {
    const current = await employees.get(department, id).catch(() => undefined);
    if (current?.value.lastName !== lastName) lost++;
  }
  return lost;
}

/** The same writes without a relocation for `forMs`: how many were acknowledged, in how long. */
export async function writesAlone(
  services: Services,
  department: string,
  seeded: number,
  forMs: number,
): Promise<{ acknowledged: number; ms: number }> {
  let stop = false;
  const started = now();
  const alone = writeWhile(services, department, 900_001, seeded, () => stop);
  await sleep(forMs);
  stop = true;
  const acknowledged = (await alone).acknowledged.size;
  return { acknowledged, ms: now() - started };
}
