/**
 * The department archive orchestration: list the department's employee ids a page at a time
 * (activity), archive each page in chunks of {@link ARCHIVE_CHUNK_SIZE} employees per activity
 * (both sizes can be set smaller: `ARCHIVE_PAGE_SIZE`, `ARCHIVE_CHUNK_SIZE`, carried in the input),
 * at most {@link ARCHIVE_PARALLEL_CHUNKS} activities at a time (fan-out/fan-in), continue as new
 * every {@link PAGES_PER_EXECUTION} pages, and report how many were archived.
 *
 * Deterministic: no I/O, no clock; each chunk activity is idempotent, so one the runtime runs
 * again (after a crash) finds its employees already archived and counts them.
 */
import type { OrchestrationContext, Task } from 'durable-functions';
import { Activities } from '../names';
import { isRefusal, refusalError } from '../refusal';
import { callAllWaitingOutRelocation } from '../relocationWait';
import { activityRetryOptions, chunk } from '../retryPolicy';
import { ARCHIVE_CHUNK_SIZE, type ChunkArchived, type EmployeeIdPage } from './archiveActivities';

/**
 * Chunk activities of one department running at once. They share the department's partition (its
 * count shards and last-name index entities): measured on Azurite, 4 at a time archived slower
 * than 2 (ETag conflicts on shared index entities, and re-reads after them); 2 chunks of ~4
 * transactions each also keep a department well under a partition's ~2,000 entities/s target.
 */
export const ARCHIVE_PARALLEL_CHUNKS = 2;

/** Pages (of up to 1,000 ids, the page size) one execution archives before it continues as new. */
export const PAGES_PER_EXECUTION = 2;

/**
 * Input: the department to archive, and the page and chunk sizes when not the defaults (the
 * starter reads them from the configuration, so every replay and continuation uses the sizes the
 * archive started with). A continuation (continue-as-new) also carries where the listing resumes
 * and the counts so far.
 */
export interface ArchiveDepartmentInput {
  department: string;
  /** Employee ids per listing page (the list activity's `EMPLOYEE_PAGE_SIZE` when absent). */
  pageSize?: number;
  /** Employees per chunk activity ({@link ARCHIVE_CHUNK_SIZE} when absent). */
  chunkSize?: number;
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
 * archives at most {@link PAGES_PER_EXECUTION} pages, then continues as new with the next page's
 * token and the running counts, so an execution's history is bounded (2 events per chunk of 100
 * employees, plus the listings) whatever the department's size. Only the last execution returns
 * the output.
 */
export function* archiveDepartmentOrchestrator(
  context: OrchestrationContext,
): Generator<Task, ArchiveDepartmentOutput | undefined, unknown> {
  const input = context.df.getInput<ArchiveDepartmentInput>();
  const { department, pageSize, chunkSize } = input;
  const sizes = {
    ...(pageSize === undefined ? {} : { pageSize }),
    ...(chunkSize === undefined ? {} : { chunkSize }),
  };
  const retry = activityRetryOptions();
  const output: ArchiveDepartmentOutput = {
    department,
    archived: input.archived ?? 0,
    notFound: input.notFound ?? 0,
  };
  let token = input.continuationToken ?? null;
  for (let pages = 0; pages < PAGES_PER_EXECUTION; pages++) {
    const page: unknown = yield context.df.callActivityWithRetry(
      Activities.listEmployeePage,
      retry,
      { department, continuationToken: token, ...(pageSize === undefined ? {} : { pageSize }) },
    );
    if (isRefusal(page)) throw refusalError(page);
    const { employeeIds, incarnations, continuationToken: next } = page as EmployeeIdPage;
    // Each id with the incarnation listed (absent in pages listed before incarnations).
    const listed = employeeIds.map((id, i) => ({ id, incarnation: incarnations?.[i] }));
    const chunks = chunk(listed, chunkSize ?? ARCHIVE_CHUNK_SIZE);
    for (const wave of chunk(chunks, ARCHIVE_PARALLEL_CHUNKS)) {
      // A chunk that found the department frozen by a relocation runs again after a timer.
      const results = (yield* callAllWaitingOutRelocation(
        context,
        Activities.archiveEmployeeChunk,
        retry,
        wave.map((members) => ({
          department,
          employeeIds: members.map((m) => m.id),
          ...(incarnations ? { incarnations: members.map((m) => m.incarnation!) } : {}),
        })),
      )) as ChunkArchived[];
      for (const result of results) {
        output.archived += result.archived;
        output.notFound += result.notFound;
      }
      // Progress after each wave, for whoever watches GET /orchestrations/{id}.
      context.df.setCustomStatus({ archived: output.archived });
    }
    if (!next) return output;
    token = next;
  }
  context.df.continueAsNew({
    ...output,
    ...sizes,
    continuationToken: token,
  } satisfies ArchiveDepartmentInput);
  return undefined;
}
