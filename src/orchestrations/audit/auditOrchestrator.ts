/**
 * The index audit orchestration: list the departments page by page, audit them in parallel
 * chunks (at most {@link MAX_PARALLEL_ACTIVITIES} activities at a time), then audit the
 * organisation-wide last-name index, and report the sums.
 *
 * Deterministic: no I/O, no clock; every effect is an activity that is safe to run again.
 */
import type { OrchestrationContext, Task } from 'durable-functions';
import type { DepartmentPage } from '../departmentPages';
import { Activities } from '../names';
import { activityRetryOptions, chunk, MAX_PARALLEL_ACTIVITIES } from '../retryPolicy';
import type { DepartmentAuditInput } from './auditActivities';
import { mergeByIndex, totalOf, type AuditCounts, type CountsByIndex } from './auditCounts';

/** Input of the audit: `repair` fixes what is found. */
export interface AuditInput {
  repair: boolean;
}

/** The audit's output: totals over every index, then per index. */
export interface AuditOutput extends AuditCounts {
  repair: boolean;
  departments: number;
  byIndex: CountsByIndex;
}

/** The audit orchestrator (input {@link AuditInput}). */
export function* auditIndexesOrchestrator(
  context: OrchestrationContext,
): Generator<Task, AuditOutput, unknown> {
  const repair = context.df.getInput<AuditInput | null>()?.repair === true;
  const retry = activityRetryOptions();

  const departments: string[] = [];
  let continuationToken: string | null = null;
  do {
    const page = (yield context.df.callActivityWithRetry(Activities.listDepartmentPage, retry, {
      continuationToken,
    })) as DepartmentPage;
    departments.push(...page.departments);
    continuationToken = page.continuationToken;
  } while (continuationToken);

  let byIndex: CountsByIndex = {};
  let done = 0;
  for (const names of chunk(departments, MAX_PARALLEL_ACTIVITIES)) {
    const reports = (yield context.df.Task.all(
      names.map((department) =>
        context.df.callActivityWithRetry(Activities.auditDepartment, retry, {
          department,
          repair,
        } satisfies DepartmentAuditInput),
      ),
    )) as CountsByIndex[];
    byIndex = mergeByIndex(byIndex, ...reports);
    done += names.length;
    context.df.setCustomStatus({ departmentsAudited: done, of: departments.length });
  }
  const orgLastNames = (yield context.df.callActivityWithRetry(
    Activities.auditOrgLastNames,
    retry,
    { repair },
  )) as AuditCounts;
  byIndex = mergeByIndex(byIndex, { orgLastNames });
  return { ...totalOf(byIndex), repair, departments: departments.length, byIndex };
}
