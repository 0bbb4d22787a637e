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
import type { OrchestrationContext, RetryOptions, Task } from 'durable-functions';
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

/** Where one execution of the audit is: its input, advanced as its activities answer. */
interface AuditState {
  repair: boolean;
  pageSize: number | undefined;
  byIndex: CountsByIndex;
  /** Departments audited to the end. */
  done: number;
  /** The department listing's token: `undefined` before the first page, `null` once listed. */
  token: string | null | undefined;
  queue: string[];
  inProgress: DepartmentInProgress[];
  orgAfter: OrgLastNameStep | undefined;
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
  const state: AuditState = {
    repair: input?.repair === true,
    pageSize: input?.pageSize,
    byIndex: input?.byIndex ?? {},
    done: input?.departments ?? 0,
    token: input?.continuationToken,
    queue: [...(input?.queue ?? [])],
    inProgress: [...(input?.inProgress ?? [])],
    orgAfter: input?.orgAfter,
  };
  const retry = activityRetryOptions();
  yield* auditDepartmentRounds(context, retry, state);
  const departmentsDone =
    state.inProgress.length === 0 && state.queue.length === 0 && state.token === null;
  // Every department done: the organisation-wide index, up to its pages per execution.
  if (departmentsDone && (yield* auditOrgLastNamePages(context, retry, state))) {
    const { repair, done, byIndex } = state;
    return { ...totalOf(byIndex), repair, departments: done, byIndex };
  }
  context.df.continueAsNew(continuation(state));
  return undefined;
}

/** Up to {@link ROUNDS_PER_EXECUTION} rounds: departments started, then a page of each audited. */
function* auditDepartmentRounds(
  context: OrchestrationContext,
  retry: RetryOptions,
  state: AuditState,
): Generator<Task, void, unknown> {
  for (let round = 0; round < ROUNDS_PER_EXECUTION; round++) {
    yield* startDepartments(context, retry, state);
    if (state.inProgress.length === 0) return;
    yield* auditDepartmentPages(context, retry, state);
  }
}

/** Fills the round up to {@link MAX_PARALLEL_ACTIVITIES} departments, listing more as needed. */
function* startDepartments(
  context: OrchestrationContext,
  retry: RetryOptions,
  state: AuditState,
): Generator<Task, void, unknown> {
  while (state.inProgress.length < MAX_PARALLEL_ACTIVITIES) {
    if (state.queue.length === 0 && state.token !== null) {
      const page = (yield context.df.callActivityWithRetry(Activities.listDepartmentPage, retry, {
        continuationToken: state.token ?? null,
      })) as DepartmentPage;
      state.queue.push(...page.departments);
      state.token = page.continuationToken;
    }
    const department = state.queue.shift();
    if (department === undefined) return;
    state.inProgress.push({ department, step: FIRST_AUDIT_STEP });
  }
}

/** One page of every department in progress, in parallel; the finished ones are counted. */
function* auditDepartmentPages(
  context: OrchestrationContext,
  retry: RetryOptions,
  state: AuditState,
): Generator<Task, void, unknown> {
  const { repair, pageSize, inProgress } = state;
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
  state.byIndex = mergeByIndex(state.byIndex, ...pages.map((p) => p.counts));
  const next: DepartmentInProgress[] = [];
  pages.forEach((page, i) => {
    if (page.next) next.push({ department: inProgress[i]!.department, step: page.next });
    else state.done++;
  });
  state.inProgress = next;
  context.df.setCustomStatus({ departmentsAudited: state.done });
}

/**
 * Up to {@link ORG_PAGES_PER_EXECUTION} pages of the organisation-wide last-name audit.
 *
 * @returns true once its last page is audited.
 */
function* auditOrgLastNamePages(
  context: OrchestrationContext,
  retry: RetryOptions,
  state: AuditState,
): Generator<Task, boolean, unknown> {
  for (let page = 0; page < ORG_PAGES_PER_EXECUTION; page++) {
    const result = (yield context.df.callActivityWithRetry(Activities.auditOrgLastNames, retry, {
      repair: state.repair,
      ...(state.orgAfter === undefined ? {} : { after: state.orgAfter }),
    } satisfies OrgLastNameAuditInput)) as OrgLastNameAuditPage;
    state.byIndex = mergeByIndex(state.byIndex, { orgLastNames: result.counts });
    if (result.next === null) return true;
    state.orgAfter = result.next;
  }
  return false;
}

/** The input the next execution starts from. */
function continuation(state: AuditState): AuditInput {
  const { repair, pageSize, orgAfter } = state;
  return {
    repair,
    ...(pageSize === undefined ? {} : { pageSize }),
    continuationToken: state.token ?? null,
    queue: state.queue,
    inProgress: state.inProgress,
    departments: state.done,
    byIndex: state.byIndex,
    ...(orgAfter === undefined ? {} : { orgAfter }),
  };
}
