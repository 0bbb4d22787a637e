/**
 * The scale case's directory steps at one department size (bench/cases/scale.ts), through the
 * built host's HTTP API: import, index drain, list, search, audit, archive, in that order (each
 * works on what the earlier ones left). The drain's, the listing's and the search's own checks
 * read storage directly, past the counting proxy, so that waiting costs the step nothing.
 */
import type { StorageClients } from '../../src/storage/clients';
import type { BenchEnv } from '../types';
import { sleep, type ScaleApi } from './api';
import { outboxPending } from './drainWatch';
import type { StepProgress } from './metrics';
import {
  archiveShortfall,
  auditDrift,
  countEmployees,
  orchestrationStep,
} from './orchestrationSteps';
import { dropTables, isolatedSettings, measureIdle, withHost } from './scaleHost';
import type { SizeRun } from './sizeRun';
import { importCalls, SHARED_LAST_NAME, sharedNameCount } from './workload';

/** The department the scale case grows. */
export const SCALE_DEPT = 'Scale';

/** The directory steps at one department size. */
export async function runDepartment(
  env: BenchEnv,
  direct: StorageClients,
  run: SizeRun,
): Promise<void> {
  const settings = isolatedSettings(env);
  try {
    await withHost(env, settings, async (api) => {
      await api.call('PUT', `departments/${SCALE_DEPT}`, {
        body: { description: 'Scale' },
        expected: [200, 201],
      });
      run.idle = await measureIdle(env);
      const lastImportAt = await importStep(api, run);
      await indexDrainStep(direct, settings, run, lastImportAt);
      await listStep(api, run);
      await searchStep(api, run);
      // The integration tests audit small departments in small pages; here the audit pages through
      // real sizes in its default pages, and must find the freshly imported department clean.
      await orchestrationStep(api, run, 'audit', 'maintenance/indexes/audit', {
        body: { repair: false },
        check: (output) => auditDrift(output, run.size),
      });
      // The e2e tests archive a few dozen in small pages and chunks; here thousands in the
      // default ones (pages of 1,000, chunks of 100, continuing as new), each exactly once.
      await orchestrationStep(api, run, 'archive', `departments/${SCALE_DEPT}/archive`, {
        progressOf: () => countEmployees(direct.table(settings.ARCHIVE_TABLE!)),
        check: (output) => archiveShortfall(output, run.size),
      });
    });
  } finally {
    await dropTables(direct, settings);
  }
}

/** Imports the department in calls of 1,000 rows; returns when the last call returned. */
async function importStep(api: ScaleApi, run: SizeRun): Promise<number> {
  let lastImportAt = Date.now();
  await run.step('import', async (signal, progress) => {
    const times: number[] = [];
    for (const rows of importCalls(run.size)) {
      const started = Date.now();
      const result = await api.call<{ created: number; failed: unknown[] }>(
        'POST',
        `departments/${SCALE_DEPT}/employees/import`,
        { body: { employees: rows }, signal },
      );
      times.push(Date.now() - started);
      if (result.failed.length > 0) throw new Error(`Import refused ${result.failed.length} rows.`);
      progress.done += result.created;
    }
    lastImportAt = Date.now();
    const first = times[0]!;
    const last = times.at(-1)!;
    return {
      note: `${times.length} calls; first ${first} ms, last ${last} ms (last/first ${(last / first).toFixed(2)}×)`,
    };
  });
  return lastImportAt;
}

/** Waits until the index drains have caught up with the import. */
async function indexDrainStep(
  direct: StorageClients,
  settings: Record<string, string>,
  run: SizeRun,
  lastImportAt: number,
): Promise<void> {
  const employees = direct.table(settings.EMPLOYEES_TABLE!);
  const indexQueue = direct.queue(settings.INDEX_QUEUE!);
  // A drain out of time leaves the others meaningful (search then says what it found).
  await run.step(
    'index drain',
    async (signal) => {
      // Direct (uncounted) checks: no outbox row left in the partition, no index message waiting.
      for (;;) {
        const rows = await outboxPending(employees, SCALE_DEPT);
        const waiting =
          rows === 0 ? ((await indexQueue.getProperties()).approximateMessagesCount ?? 0) : 1;
        if (rows === 0 && waiting === 0) break;
        await sleep(250, signal);
      }
      return {
        note: `${((Date.now() - lastImportAt) / 1000).toFixed(1)} s after the last import call`,
      };
    },
    { stopsRun: false },
  );
}

/** Pages through a list, counting its items; returns the number of pages. */
function countAll(
  api: ScaleApi,
  listPath: string,
  query: Record<string, string>,
  signal: AbortSignal,
  progress: StepProgress,
): Promise<number> {
  return api.pageAll(listPath, query, (items) => (progress.done += items.length), { signal });
}

/** Pages through the department's employees. */
async function listStep(api: ScaleApi, run: SizeRun): Promise<void> {
  await run.step(
    'list',
    async (signal, progress) => {
      const path = `departments/${SCALE_DEPT}/employees`;
      await countAll(api, path, { pageSize: '1000' }, signal, progress);
      return {
        units: progress.done,
        note: progress.done === run.size ? undefined : `listed ${progress.done}`,
      };
    },
    { stopsRun: false },
  );
}

/** Pages through the org-wide search for the shared last name. */
async function searchStep(api: ScaleApi, run: SizeRun): Promise<void> {
  const shared = sharedNameCount(run.size);
  await run.step(
    'search',
    async (signal, progress) => {
      const query = { lastName: SHARED_LAST_NAME, pageSize: '1000' };
      const pages = await countAll(api, 'employees', query, signal, progress);
      const found = progress.done;
      const complete = found === shared ? '' : ' — INCOMPLETE';
      return {
        note: `${found} of ${shared} members of the shared name in ${pages} pages${complete}`,
      };
    },
    { stopsRun: false },
  );
}
