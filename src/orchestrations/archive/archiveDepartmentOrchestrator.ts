/**
 * The department archive orchestration: list the department's employees a page at a time
 * (activity), archive each page in parallel chunks of at most {@link MAX_PARALLEL_ACTIVITIES}
 * activities (fan-out/fan-in), one page per execution (continue-as-new), and report how many were
 * archived.
 *
 * Deterministic: no I/O, no clock; the archive sequence of each employee is idempotent, so an
 * activity the runtime runs again (after a crash) finds the employee already archived.
 */
import type { OrchestrationContext, Task } from 'durable-functions';
import type { ArchiveOutcome } from '../../archive/archiveEmployee';
import { Activities } from '../names';
import { isRefusal, refusalError } from '../refusal';
import { activityRetryOptions, chunk, MAX_PARALLEL_ACTIVITIES } from '../retryPolicy';
import type { EmployeeIdPage } from './archiveActivities';

/**
 * Input: the department to archive. A continuation (continue-as-new) also carries where the
 * listing resumes and the counts so far; the starter passes the department only.
 */
export interface ArchiveDepartmentInput {
  department: string;
  continuationToken?: string | null;
  archived?: number;
  notFound?: number;
}

/** Output: employees now in the archive, and those that vanished before their turn. */
export interface ArchiveDepartmentOutput {
  department: string;
  archived: number;
  notFound: number;
}

/**
 * The department archive orchestrator (input {@link ArchiveDepartmentInput}). Each execution
 * archives ONE page, then continues as new with the next page's token and the running counts, so
 * an execution's history holds at most one page's events (about 2 per employee of the page)
 * whatever the department's size. Only the last execution returns the output.
 */
export function* archiveDepartmentOrchestrator(
  context: OrchestrationContext,
): Generator<Task, ArchiveDepartmentOutput | undefined, unknown> {
  const input = context.df.getInput<ArchiveDepartmentInput>();
  const { department } = input;
  const retry = activityRetryOptions();
  const output: ArchiveDepartmentOutput = {
    department,
    archived: input.archived ?? 0,
    notFound: input.notFound ?? 0,
  };
  const page: unknown = yield context.df.callActivityWithRetry(Activities.listEmployeePage, retry, {
    department,
    continuationToken: input.continuationToken ?? null,
  });
  if (isRefusal(page)) throw refusalError(page);
  const { employeeIds, incarnations, continuationToken: next } = page as EmployeeIdPage;
  for (const ids of chunk(employeeIds, MAX_PARALLEL_ACTIVITIES)) {
    const outcomes = (yield context.df.Task.all(
      ids.map((employeeId) =>
        context.df.callActivityWithRetry(Activities.archiveEmployee, retry, {
          department,
          employeeId,
          incarnation: incarnations?.[employeeIds.indexOf(employeeId)],
        }),
      ),
    )) as ArchiveOutcome['outcome'][];
    for (const outcome of outcomes) {
      if (outcome === 'notFound' || outcome === 'superseded') output.notFound++;
      else output.archived++;
    }
  }
  context.df.setCustomStatus({ archived: output.archived });
  if (next) {
    context.df.continueAsNew({
      ...output,
      continuationToken: next,
    } satisfies ArchiveDepartmentInput);
    return undefined;
  }
  return output;
}
