/**
 * The index audit orchestration: list the departments page by page, audit them a bounded page at a
 * time (at most {@link MAX_PARALLEL_ACTIVITIES} departments at once, each one page per activity,
 * each carrying the step the previous page returned), continue as new every
 * {@link ROUNDS_PER_EXECUTION} rounds, then audit the organisation-wide last-name index one bounded
 * page per activity (each carrying the position the previous page returned, continuing as new
 * every {@link ORG_PAGES_PER_EXECUTION} pages) and report the sums.
 *
 * Deterministic: no I/O, no clock; every effect is an activity that is safe to run again.
 */
import type { OrchestrationContext, Task } from 'durable-functions';
import type { DepartmentPage } from '../departmentPages';
import { Activities } from '../names';
import { activityRetryOptions, MAX_PARALLEL_ACTIVITIES } from '../retryPolicy';
import {
  FIRST_AUDIT_STEP,
  type DepartmentAuditInput,
  type DepartmentAuditPage,
  type DepartmentAuditStep,
  type OrgLastNameAuditInput,
  type OrgLastNameAuditPage,
  type OrgLastNameStep,
} from './auditActivities';
import { mergeByIndex, totalOf, type AuditCounts, type CountsByIndex } from './auditCounts';

/** Rounds (up to 10 page activities each) one execution runs before it continues as new. */
export const ROUNDS_PER_EXECUTION = 5;

/** Pages of the organisation-wide last-name audit one execution runs before it continues as new. */
export const ORG_PAGES_PER_EXECUTION = 50;

/** A department whose audit has started, and its next step. */
export interface DepartmentInProgress {
  department: string;
  step: DepartmentAuditStep;
}

/**
 * Input of the audit: `repair` fixes what is found; `pageSize` bounds each activity's page (the
 * activity's default when absent). A continuation (continue-as-new) also carries the department
 * listing's token (`null` once listed to the end), the departments listed but not started, those
 * in progress with their steps, and the sums so far; once the departments are done, where the
 * organisation-wide last-name audit continues (`orgAfter`). The starter passes `repair` (and
 * `pageSize`).
 */
export interface AuditInput {
  repair: boolean;
  pageSize?: number;
  continuationToken?: string | null;
  queue?: string[];
  inProgress?: DepartmentInProgress[];
  departments?: number;
  byIndex?: CountsByIndex;
  orgAfter?: OrgLastNameStep;
}

/** The audit's output: totals over every index, then per index. */
export interface AuditOutput extends AuditCounts {
  repair: boolean;
  departments: number;
  byIndex: CountsByIndex;
}

/**
 * The audit orchestrator (input {@link AuditInput}). Each execution runs at most
 * {@link ROUNDS_PER_EXECUTION} rounds of page activities (plus the department listings they need),
 * so its history is bounded whatever the number and the size of the departments. The last
 * execution audits the organisation-wide index and returns the report.
 */
export function* auditIndexesOrchestrator(
  context: OrchestrationContext,
): Generator<Task, AuditOutput | undefined, unknown> {
  const input = context.df.getInput<AuditInput | null>();
  const repair = input?.repair === true;
  const pageSize = input?.pageSize;
  const retry = activityRetryOptions();
  let byIndex: CountsByIndex = input?.byIndex ?? {};
  let done = input?.departments ?? 0;
  let token = input?.continuationToken;
  const queue = [...(input?.queue ?? [])];
  let inProgress = [...(input?.inProgress ?? [])];

  for (let round = 0; round < ROUNDS_PER_EXECUTION; round++) {
    while (inProgress.length < MAX_PARALLEL_ACTIVITIES) {
      if (queue.length === 0 && token !== null) {
        const page = (yield context.df.callActivityWithRetry(Activities.listDepartmentPage, retry, {
          continuationToken: token ?? null,
        })) as DepartmentPage;
        queue.push(...page.departments);
        token = page.continuationToken;
      }
      const department = queue.shift();
      if (department === undefined) break;
      inProgress.push({ department, step: FIRST_AUDIT_STEP });
    }
    if (inProgress.length === 0) break;
    const pages = (yield context.df.Task.all(
      inProgress.map(({ department, step }) =>
        context.df.callActivityWithRetry(Activities.auditDepartment, retry, {
          department,
          repair,
          step,
          ...(pageSize === undefined ? {} : { pageSize }),
        } satisfies DepartmentAuditInput),
      ),
    )) as DepartmentAuditPage[];
    byIndex = mergeByIndex(byIndex, ...pages.map((p) => p.counts));
    const next: DepartmentInProgress[] = [];
    pages.forEach((page, i) => {
      if (page.next) next.push({ department: inProgress[i]!.department, step: page.next });
      else done++;
    });
    inProgress = next;
    context.df.setCustomStatus({ departmentsAudited: done });
  }
  if (inProgress.length > 0 || queue.length > 0 || token !== null) {
    context.df.continueAsNew({
      repair,
      ...(pageSize === undefined ? {} : { pageSize }),
      continuationToken: token ?? null,
      queue,
      inProgress,
      departments: done,
      byIndex,
    } satisfies AuditInput);
    return undefined;
  }

  let orgAfter = input?.orgAfter;
  for (let page = 0; page < ORG_PAGES_PER_EXECUTION; page++) {
    const result = (yield context.df.callActivityWithRetry(Activities.auditOrgLastNames, retry, {
      repair,
      ...(orgAfter === undefined ? {} : { after: orgAfter }),
    } satisfies OrgLastNameAuditInput)) as OrgLastNameAuditPage;
    byIndex = mergeByIndex(byIndex, { orgLastNames: result.counts });
    if (result.next === null) {
      return { ...totalOf(byIndex), repair, departments: done, byIndex };
    }
    orgAfter = result.next;
  }
  context.df.continueAsNew({
    repair,
    ...(pageSize === undefined ? {} : { pageSize }),
    continuationToken: null,
    queue: [],
    inProgress: [],
    departments: done,
    byIndex,
    ...(orgAfter === undefined ? {} : { orgAfter }),
  } satisfies AuditInput);
  return undefined;
}
