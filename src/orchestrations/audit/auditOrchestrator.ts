/**
 * The index audit orchestration: list the departments page by page, audit each page in
 * parallel chunks (at most {@link MAX_PARALLEL_ACTIVITIES} activities at a time), one page per
 * execution (continue-as-new), then audit the organisation-wide last-name index, and report the
 * sums.
 *
 * Deterministic: no I/O, no clock; every effect is an activity that is safe to run again.
 */
import type { OrchestrationContext, Task } from 'durable-functions';
import type { DepartmentPage } from '../departmentPages';
import { Activities } from '../names';
import { activityRetryOptions, chunk, MAX_PARALLEL_ACTIVITIES } from '../retryPolicy';
import type { DepartmentAuditInput } from './auditActivities';
import { mergeByIndex, totalOf, type AuditCounts, type CountsByIndex } from './auditCounts';

/**
 * Input of the audit: `repair` fixes what is found. A continuation (continue-as-new) also carries
 * where the department listing resumes and the sums so far; the starter passes `repair` only.
 */
export interface AuditInput {
  repair: boolean;
  continuationToken?: string | null;
  departments?: number;
  byIndex?: CountsByIndex;
}

/** The audit's output: totals over every index, then per index. */
export interface AuditOutput extends AuditCounts {
  repair: boolean;
  departments: number;
  byIndex: CountsByIndex;
}

/**
 * The audit orchestrator (input {@link AuditInput}). Each execution audits ONE page of
 * departments, then continues as new with the next page's token and the sums so far, so an
 * execution's history is bounded by the page size whatever the number of departments. The last
 * execution audits the organisation-wide index and returns the report.
 */
export function* auditIndexesOrchestrator(
  context: OrchestrationContext,
): Generator<Task, AuditOutput | undefined, unknown> {
  const input = context.df.getInput<AuditInput | null>();
  const repair = input?.repair === true;
  const retry = activityRetryOptions();
  let byIndex: CountsByIndex = input?.byIndex ?? {};
  let done = input?.departments ?? 0;

  const page = (yield context.df.callActivityWithRetry(Activities.listDepartmentPage, retry, {
    continuationToken: input?.continuationToken ?? null,
  })) as DepartmentPage;
  for (const names of chunk(page.departments, MAX_PARALLEL_ACTIVITIES)) {
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
    context.df.setCustomStatus({ departmentsAudited: done });
  }
  if (page.continuationToken) {
    context.df.continueAsNew({
      repair,
      continuationToken: page.continuationToken,
      departments: done,
      byIndex,
    } satisfies AuditInput);
    return undefined;
  }

  const orgLastNames = (yield context.df.callActivityWithRetry(
    Activities.auditOrgLastNames,
    retry,
    { repair },
  )) as AuditCounts;
  byIndex = mergeByIndex(byIndex, { orgLastNames });
  return { ...totalOf(byIndex), repair, departments: done, byIndex };
}
