/**
 * The department archive orchestration: list the department's employees a page at a time
 * (activity), archive each page in parallel chunks of at most {@link MAX_PARALLEL_ACTIVITIES}
 * activities (fan-out/fan-in), and report how many were archived.
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

/** Input: the department to archive. */
export interface ArchiveDepartmentInput {
  department: string;
}

/** Output: employees now in the archive, and those that vanished before their turn. */
export interface ArchiveDepartmentOutput {
  department: string;
  archived: number;
  notFound: number;
}

/** The department archive orchestrator (input {@link ArchiveDepartmentInput}). */
export function* archiveDepartmentOrchestrator(
  context: OrchestrationContext,
): Generator<Task, ArchiveDepartmentOutput, unknown> {
  const { department } = context.df.getInput<ArchiveDepartmentInput>();
  const retry = activityRetryOptions();
  const output: ArchiveDepartmentOutput = { department, archived: 0, notFound: 0 };
  let continuationToken: string | null = null;
  do {
    const page: unknown = yield context.df.callActivityWithRetry(
      Activities.listEmployeePage,
      retry,
      { department, continuationToken },
    );
    if (isRefusal(page)) throw refusalError(page);
    const { employeeIds, continuationToken: next } = page as EmployeeIdPage;
    for (const ids of chunk(employeeIds, MAX_PARALLEL_ACTIVITIES)) {
      const outcomes = (yield context.df.Task.all(
        ids.map((employeeId) =>
          context.df.callActivityWithRetry(Activities.archiveEmployee, retry, {
            department,
            employeeId,
          }),
        ),
      )) as ArchiveOutcome['outcome'][];
      for (const outcome of outcomes) {
        if (outcome === 'notFound') output.notFound++;
        else output.archived++;
      }
    }
    continuationToken = next;
    context.df.setCustomStatus({ archived: output.archived });
  } while (continuationToken);
  return output;
}
