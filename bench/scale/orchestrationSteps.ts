/**
 * The scale case's orchestration steps (audit and archive of one department, bench/cases/scale.ts):
 * each runs to its end through the HTTP API, and a completed run whose totals are wrong for a clean
 * department of its size fails the step, so a fast figure cannot hide a wrong result. While one
 * runs, how far it got is read now and then (directly, not counted) for a time-out to report.
 */
import { odata, type TableClient } from '@azure/data-tables';
import { employeeRowKeyRange } from '../../src/storage/keys/tables/employees';
import type { OrchestrationStatus, ScaleApi } from './api';
import type { StepResult } from './metrics';
import type { SizeRun } from './sizeRun';

/** An orchestration's status in a line: its totals (`{"checked", "missing", ...}`), not details. */
function orchestrationNote(status: OrchestrationStatus): string {
  const output = status.output;
  if (output === null || typeof output !== 'object') {
    return `${status.runtimeStatus}: ${JSON.stringify(output ?? status.failure ?? null)}`;
  }
  const totals = Object.entries(output).filter(([, value]) => typeof value !== 'object');
  return `${status.runtimeStatus}: ${totals.map(([key, value]) => `${key} ${String(value)}`).join(', ')}`;
}

/**
 * What is wrong with the audit of a clean department of `size` employees: drift found, or fewer
 * entries checked than its five per-employee indexes hold (undefined: nothing).
 */
export function auditDrift(output: unknown, size: number): string | undefined {
  const totals = output as { checked?: number; missing?: number; stale?: number } | null;
  if (totals?.missing !== 0 || totals.stale !== 0) return 'the audit found drift in a clean index';
  if ((totals.checked ?? 0) < 5 * size) return `the audit checked fewer than ${5 * size} entries`;
  return undefined;
}

/** What is wrong with the archive of a department of `size` (undefined: nothing). */
export function archiveShortfall(output: unknown, size: number): string | undefined {
  const result = output as { archived?: number; notFound?: number } | null;
  if (result?.archived !== size || result.notFound !== 0) {
    return `the archive reports ${result?.archived} archived and ${result?.notFound} not found of ${size}`;
  }
  return undefined;
}

/** Employee entities in `table` (0 before it exists). */
export async function countEmployees(table: TableClient): Promise<number> {
  const range = employeeRowKeyRange();
  const filter = odata`RowKey ge ${range.ge} and RowKey lt ${range.lt}`;
  let count = 0;
  try {
    const pages = table.listEntities({ queryOptions: { filter, select: ['RowKey'] } });
    for await (const page of pages.byPage({ maxPageSize: 1000 })) count += page.length;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
  }
  return count;
}

/** How {@link orchestrationStep} starts and checks one orchestration. */
export interface OrchestrationStepOptions {
  body?: unknown;
  progressOf?: () => Promise<number>;
  /** What is wrong with a completed orchestration's output (undefined: nothing). */
  check?: (output: unknown) => string | undefined;
}

/** Runs an orchestration to its end as a step; one that does not complete fails the step. */
export function orchestrationStep(
  api: ScaleApi,
  run: SizeRun,
  name: string,
  startPath: string,
  options: OrchestrationStepOptions = {},
): Promise<StepResult> {
  return run.step(
    name,
    async (signal, progress) => {
      // How far it got, read now and then (directly, not counted), for a time-out to report.
      const ticker = options.progressOf
        ? setInterval(() => {
            options.progressOf!().then(
              (n) => (progress.done = n),
              () => undefined,
            );
          }, 15_000)
        : undefined;
      try {
        const status = await api.runOrchestration(startPath, { body: options.body, signal });
        if (status.runtimeStatus !== 'Completed') throw new Error(orchestrationNote(status));
        const wrong = options.check?.(status.output);
        if (wrong !== undefined) throw new Error(`${wrong}; ${orchestrationNote(status)}`);
        return { note: orchestrationNote(status) };
      } finally {
        clearInterval(ticker);
        if (options.progressOf)
          progress.done = await options.progressOf().catch(() => progress.done);
      }
    },
    // Archiving is the last step; a failed audit leaves the archive worth measuring.
    { stopsRun: false },
  );
}
