/**
 * The orchestrators run through `durable-functions`' own replay engine (the core shim and the
 * local runtime's pure episode logic), with fake in-memory activities:
 *
 * - each completes with the expected output and schedules the expected activities;
 * - determinism: handing the orchestrator the recorded history of any episode again yields the
 *   very same actions, output and custom status (no clock, randomness or I/O inside);
 * - fan-outs never schedule more than 10 activities in one episode;
 * - a refusal fails the orchestration with its reason; a transient fault is retried.
 */
import type { CoreShim } from '../../fixtures/durableapp/harness/functionsCore';
import { createCoreShim } from '../../fixtures/durableapp/harness/functionsCore';
import { invokeDurable } from '../../fixtures/durableapp/harness/durableApp';
import { EventType, type HistoryEventJson } from '../../../tools/durable/replay/historyEvents';
import { runInMemory, type MemoryRun } from '../tools/durable/replay/support/memoryEngine';
import { MAX_COPY_ROUNDS } from '../../../src/orchestrations/move/moveRequest';
import { Activities, Orchestrations } from '../../../src/orchestrations/names';
import {
  ARCHIVE_CHUNK_SIZE,
  EMPLOYEE_PAGE_SIZE,
} from '../../../src/orchestrations/archive/archiveActivities';
import { ARCHIVE_PARALLEL_CHUNKS } from '../../../src/orchestrations/archive/archiveDepartmentOrchestrator';
import { FIRST_AUDIT_STEP } from '../../../src/orchestrations/audit/auditActivities';
import { ORG_PAGES_PER_EXECUTION } from '../../../src/orchestrations/audit/auditOrchestrator';
import type { fakes as Fakes } from './support/fakeApp';

const shim: CoreShim = createCoreShim();
jest.doMock('@azure/functions-core', () => shim.api, { virtual: true });
const { fakes } = jest.requireActual<{ fakes: typeof Fakes }>('./support/fakeApp');

beforeEach(() => fakes.reset());

/** Re-runs every recorded episode twice and expects identical decisions each time. */
async function expectDeterministic(name: string, run: MemoryRun): Promise<void> {
  // A failing episode throws (the state travels in the error): compare either way.
  const replay = (input: unknown): Promise<unknown> =>
    invokeDurable(shim, name, structuredClone(input), 'orchestrationTrigger').then(
      (value) => ({ value }),
      (error: unknown) => ({ error: String(error) }),
    );
  for (const input of run.inputs) {
    const first = await replay(input);
    expect(await replay(input)).toEqual(first);
  }
  // The last episode's full history replays to the recorded end.
  const last = (await replay(run.inputs.at(-1))) as {
    value?: { isDone: boolean; output: unknown };
  };
  if (run.status === 'Completed')
    expect(last.value).toMatchObject({ isDone: true, output: run.output });
}

/** Activities scheduled per episode, from the history. */
function scheduledPerEpisode(history: HistoryEventJson[]): string[][] {
  const episodes: string[][] = [];
  for (const event of history) {
    if (event.EventType === EventType.OrchestratorStarted) episodes.push([]);
    if (event.EventType === EventType.TaskScheduled) episodes.at(-1)!.push(event.Name!);
  }
  return episodes.filter((e) => e.length > 0);
}

const moveRequest = { department: 'Sales', employeeId: '000001', toDepartment: 'Marketing' };

describe('move orchestrator', () => {
  it('validates, copies, re-points the target, removes from the source, re-points the source', async () => {
    const run = await runInMemory(shim, Orchestrations.moveEmployee, moveRequest);
    expect(run.status).toBe('Completed');
    expect(run.output).toEqual({ ...moveRequest, moved: true, reviewsCopied: 2 });
    expect(fakes.calls.map((c) => c.name)).toEqual([
      Activities.validateMove,
      Activities.copyToTarget,
      Activities.reindexEmployee,
      Activities.removeFromSource,
      Activities.reindexEmployee,
    ]);
    // Every try of every step carries the instance id as the move's identity.
    expect(fakes.calls[1]!.input).toEqual({ ...moveRequest, moveId: 'memory-1' });
    expect(fakes.calls[2]!.input).toEqual({ department: 'Marketing', employeeId: '000001' });
    expect(fakes.calls[4]!.input).toEqual({
      department: 'Sales',
      employeeId: '000001',
      previous: { email: 'jones@contoso.com', lastName: 'Jones' },
    });
    await expectDeterministic(Orchestrations.moveEmployee, run);
  });

  it('removes only the version it copied: a source edited meanwhile is copied again, then removed', async () => {
    fakes.sourceChanges = 2;
    const run = await runInMemory(shim, Orchestrations.moveEmployee, moveRequest);
    expect(run.status).toBe('Completed');
    expect(run.output).toEqual({ ...moveRequest, moved: true, reviewsCopied: 2 });
    const round = [
      Activities.copyToTarget,
      Activities.reindexEmployee,
      Activities.removeFromSource,
    ];
    expect(fakes.calls.map((c) => c.name)).toEqual([
      Activities.validateMove,
      ...round,
      ...round,
      ...round,
      Activities.reindexEmployee,
    ]);
    // Each removal carries the source version of the copy just before it.
    const removals = fakes.calls.filter((c) => c.name === Activities.removeFromSource);
    expect(removals.map((c) => (c.input as { copied: { sourceEtag: string } }).copied)).toEqual(
      [1, 2, 3].map((n) => ({
        sourceEtag: `etag-${n}`,
        copiedReviews: [{ rowKey: 'review_000001_2023', etag: 'r1' }],
      })),
    );
    await expectDeterministic(Orchestrations.moveEmployee, run);
  });

  it('gives up, with the source intact, when the source changes during every copy', async () => {
    fakes.sourceChanges = MAX_COPY_ROUNDS;
    const run = await runInMemory(shim, Orchestrations.moveEmployee, moveRequest);
    expect(run.status).toBe('Failed');
    expect(JSON.stringify(run.output)).toContain('SourceKeptChanging');
    expect(fakes.calls.filter((c) => c.name === Activities.removeFromSource)).toHaveLength(
      MAX_COPY_ROUNDS,
    );
    expect(fakes.calls.at(-1)!.name).toBe(Activities.removeFromSource);
    await expectDeterministic(Orchestrations.moveEmployee, run);
  });

  it('fails with the refusal reason and copies nothing when validation refuses', async () => {
    fakes.refuseValidation = 'Employee 000001 already exists in department "Marketing".';
    const run = await runInMemory(shim, Orchestrations.moveEmployee, moveRequest);
    expect(run.status).toBe('Failed');
    expect(JSON.stringify(run.output)).toContain(
      'EmployeeExists: Employee 000001 already exists in department \\"Marketing\\".',
    );
    expect(fakes.calls.map((c) => c.name)).toEqual([Activities.validateMove]);
    await expectDeterministic(Orchestrations.moveEmployee, run);
  });

  it('retries a step that failed transiently, then completes', async () => {
    fakes.copyFaults = 2;
    const run = await runInMemory(shim, Orchestrations.moveEmployee, moveRequest);
    expect(run.status).toBe('Completed');
    expect(fakes.calls.filter((c) => c.name === Activities.copyToTarget)).toHaveLength(3);
    await expectDeterministic(Orchestrations.moveEmployee, run);
  });

  it('waits out a relocation that froze the source on a timer, however many tries, then removes', async () => {
    // Ten answers `Relocating`: more than the 6 attempts of the retry policy.
    fakes.removalsRelocating = 10;
    const run = await runInMemory(shim, Orchestrations.moveEmployee, moveRequest);
    expect(run.status).toBe('Completed');
    expect(run.output).toEqual({ ...moveRequest, moved: true, reviewsCopied: 2 });
    expect(fakes.calls.filter((c) => c.name === Activities.removeFromSource)).toHaveLength(11);
    // One copy: a wait is not a changed source.
    expect(fakes.calls.filter((c) => c.name === Activities.copyToTarget)).toHaveLength(1);
    const waits = run.history
      .filter((event) => event.EventType === EventType.TimerCreated)
      .map((event) => event.FireAt);
    expect(waits).toHaveLength(10);
    await expectDeterministic(Orchestrations.moveEmployee, run);
  });

  it('gives up waiting after RELOCATION_WAIT_SECONDS of waits (a relocation that stays frozen)', async () => {
    fakes.removalsRelocating = 1_000;
    const run = await runInMemory(shim, Orchestrations.moveEmployee, moveRequest, {
      maxEpisodes: 200,
    });
    expect(run.status).toBe('Failed');
    expect(JSON.stringify(run.output)).toContain('RelocationOutlasted');
    // Waits doubling from 2 s to 30 s: a bounded history.
    const removals = fakes.calls.filter((c) => c.name === Activities.removeFromSource).length;
    expect(removals).toBeGreaterThan(6);
    expect(removals).toBeLessThan(30);
    await expectDeterministic(Orchestrations.moveEmployee, run);
  });
});

describe('department archive orchestrator', () => {
  const ids = (count: number): string[] =>
    Array.from({ length: count }, (_, i) => String(i + 1).padStart(6, '0'));

  it('archives pages in chunks of 100, at most ARCHIVE_PARALLEL_CHUNKS chunk activities at a time, and counts', async () => {
    fakes.pageSize = EMPLOYEE_PAGE_SIZE;
    fakes.employeeIds = ids(2_550);
    const run = await runInMemory(
      shim,
      Orchestrations.archiveDepartment,
      { department: 'Sales' },
      { maxEpisodes: 200, followContinueAsNew: true },
    );
    expect(run.status).toBe('Completed');
    expect(run.output).toEqual({ department: 'Sales', archived: 2_549, notFound: 1 });
    // Pages of 1,000 ids, two pages per execution: 2,550 employees are two executions.
    expect(run.executions).toHaveLength(2);
    const chunks = fakes.calls
      .filter((c) => c.name === Activities.archiveEmployeeChunk)
      .map((c) => (c.input as { department: string; employeeIds: string[] }).employeeIds);
    expect(chunks).toHaveLength(26);
    expect(Math.max(...chunks.map((c) => c.length))).toBe(ARCHIVE_CHUNK_SIZE);
    // Every employee in exactly one chunk.
    expect(chunks.flat()).toEqual(fakes.employeeIds);
    const episodes = run.executions.flatMap(scheduledPerEpisode);
    expect(Math.max(...episodes.map((e) => e.length))).toBe(ARCHIVE_PARALLEL_CHUNKS);
    expect(episodes.filter((e) => e[0] === Activities.listEmployeePage)).toHaveLength(3);
    // The continuation carries the token and the counts so far; only the last returns.
    const started = run.executions[1]!.find((e) => e.EventType === EventType.ExecutionStarted);
    expect(JSON.parse(started!.Input!)).toEqual({
      department: 'Sales',
      archived: 1_999,
      notFound: 1,
      continuationToken: '2000',
    });
    await expectDeterministic(Orchestrations.archiveDepartment, run);
  });

  it('runs a chunk that found the department frozen again after a timer, and counts every employee once', async () => {
    // Three pages of 10 (the fake's page size), one chunk each; the first chunk finds the
    // department frozen 8 times.
    fakes.employeeIds = ids(30);
    fakes.chunksRelocating = 8;
    const run = await runInMemory(
      shim,
      Orchestrations.archiveDepartment,
      { department: 'Sales' },
      { maxEpisodes: 200, followContinueAsNew: true },
    );
    expect(run.status).toBe('Completed');
    expect(run.output).toEqual({ department: 'Sales', archived: 29, notFound: 1 });
    const chunks = fakes.calls.filter((c) => c.name === Activities.archiveEmployeeChunk);
    expect(chunks).toHaveLength(3 + 8);
    const timers = run.executions.flat().filter((e) => e.EventType === EventType.TimerCreated);
    expect(timers).toHaveLength(8);
    await expectDeterministic(Orchestrations.archiveDepartment, run);
  });

  it('lists and chunks by the sizes its input carries, through every continuation (ARCHIVE_PAGE_SIZE, ARCHIVE_CHUNK_SIZE)', async () => {
    fakes.employeeIds = ids(50);
    const run = await runInMemory(
      shim,
      Orchestrations.archiveDepartment,
      { department: 'Sales', pageSize: 20, chunkSize: 3 },
      { maxEpisodes: 200, followContinueAsNew: true },
    );
    expect(run.status).toBe('Completed');
    expect(run.output).toEqual({ department: 'Sales', archived: 49, notFound: 1 });
    // Pages of 20, two per execution: 50 employees are two executions.
    expect(run.executions).toHaveLength(2);
    const listings = fakes.calls.filter((c) => c.name === Activities.listEmployeePage);
    expect(listings.map((c) => (c.input as { pageSize?: number }).pageSize)).toEqual([20, 20, 20]);
    const chunks = fakes.calls
      .filter((c) => c.name === Activities.archiveEmployeeChunk)
      .map((c) => (c.input as { employeeIds: string[] }).employeeIds);
    // Each page of 20 in chunks of 3 (the last of a page shorter): 7 + 7 + 4 chunks.
    expect(chunks.map((c) => c.length)).toEqual([
      ...[3, 3, 3, 3, 3, 3, 2],
      ...[3, 3, 3, 3, 3, 3, 2],
      ...[3, 3, 3, 1],
    ]);
    expect(chunks.flat()).toEqual(fakes.employeeIds);
    const started = run.executions[1]!.find((e) => e.EventType === EventType.ExecutionStarted);
    expect(JSON.parse(started!.Input!)).toMatchObject({ pageSize: 20, chunkSize: 3 });
    await expectDeterministic(Orchestrations.archiveDepartment, run);
  });

  it('keeps each execution history the same size for 2,000 and 20,000 employees (continue-as-new)', async () => {
    const longest = async (employees: number): Promise<{ events: number; executions: number }> => {
      fakes.reset();
      fakes.pageSize = EMPLOYEE_PAGE_SIZE;
      fakes.employeeIds = ids(employees);
      const run = await runInMemory(
        shim,
        Orchestrations.archiveDepartment,
        { department: 'Sales' },
        { maxEpisodes: 1_000, followContinueAsNew: true },
      );
      expect(run.status).toBe('Completed');
      expect(run.output).toMatchObject({ archived: employees - 1, notFound: 1 });
      return {
        events: Math.max(...run.executions.map((history) => history.length)),
        executions: run.executions.length,
      };
    };
    const small = await longest(2_000);
    const large = await longest(20_000);
    expect(small.executions).toBe(1);
    expect(large.executions).toBe(10);
    process.stdout.write(
      `archive history, longest execution: 2,000 employees ${small.events} events (1 execution), ` +
        `20,000 employees ${large.events} events (${large.executions} executions)\n`,
    );
    expect(large.events).toBe(small.events);
    // About 2 events per chunk of 100 (20 chunks) and per listing (2), plus 2 episode markers per
    // wave of chunks (10) and per listing.
    expect(large.events).toBeLessThanOrEqual(80);
  });
});

describe('index audit orchestrator', () => {
  it('audits every department page by page, at most 10 at a time, then the org-wide index, and sums', async () => {
    fakes.departments = Array.from({ length: 23 }, (_, i) => `Dept${i}`);
    const run = await runInMemory(
      shim,
      Orchestrations.auditIndexes,
      { repair: true },
      { maxEpisodes: 100, followContinueAsNew: true },
    );
    expect(run.status).toBe('Completed');
    expect(run.output).toEqual({
      checked: 23 * 20 + 5,
      missing: 23,
      stale: 23 * 2 + 1,
      repaired: 0,
      repair: true,
      departments: 23,
      byIndex: {
        emailCopies: { checked: 230, missing: 23, stale: 0, repaired: 0 },
        employeeIndexById: { checked: 230, missing: 0, stale: 46, repaired: 0 },
        orgLastNames: { checked: 5, missing: 0, stale: 1, repaired: 0 },
      },
    });
    const audits = fakes.calls.filter((c) => c.name === Activities.auditDepartment);
    // Each department's first page starts its forward pass; its second carries the first's step.
    for (const department of fakes.departments) {
      expect(
        audits.filter((c) => (c.input as { department: string }).department === department),
      ).toEqual([
        {
          name: Activities.auditDepartment,
          input: { department, repair: true, step: FIRST_AUDIT_STEP },
        },
        {
          name: Activities.auditDepartment,
          input: {
            department,
            repair: true,
            step: { pass: 'employees', position: { token: 'page2', afterId: '000010' } },
          },
        },
      ]);
    }
    expect(
      Math.max(...run.executions.flatMap(scheduledPerEpisode).map((e) => e.length)),
    ).toBeLessThanOrEqual(10);
    // 46 page activities, 10 at a time, 5 rounds per execution: the history of an execution is
    // bounded by the rounds, not by the departments or their size; the last audits the org index.
    expect(run.executions).toHaveLength(2);
    expect(run.executions[0]!.some((e) => e.Name === Activities.auditOrgLastNames)).toBe(false);
    // The org-wide index page by page, each page carrying the position the previous one returned.
    expect(fakes.calls.filter((c) => c.name === Activities.auditOrgLastNames)).toEqual([
      { name: Activities.auditOrgLastNames, input: { repair: true } },
      {
        name: Activities.auditOrgLastNames,
        input: { repair: true, after: { page: 1 } },
      },
    ]);
    await expectDeterministic(Orchestrations.auditIndexes, run);
  });

  it('audits the org-wide index in pages, continuing as new every ORG_PAGES_PER_EXECUTION', async () => {
    fakes.departments = ['Sales'];
    fakes.orgPages = 2 * ORG_PAGES_PER_EXECUTION + 5;
    const run = await runInMemory(
      shim,
      Orchestrations.auditIndexes,
      { repair: false },
      { maxEpisodes: 400, followContinueAsNew: true },
    );
    expect(run.status).toBe('Completed');
    expect(run.output).toMatchObject({
      byIndex: expect.objectContaining({
        orgLastNames: { checked: 3 + 2 * (fakes.orgPages - 1), missing: 0, stale: 1, repaired: 0 },
      }),
    });
    const orgPages = fakes.calls.filter((c) => c.name === Activities.auditOrgLastNames);
    expect(orgPages.map((c) => (c.input as { after?: { page: number } }).after?.page ?? 0)).toEqual(
      Array.from({ length: fakes.orgPages }, (_, i) => i),
    );
    // Each execution's history holds at most ORG_PAGES_PER_EXECUTION pages, whatever the index size.
    const perExecution = run.executions.map(
      (history) =>
        scheduledPerEpisode(history)
          .flat()
          .filter((name) => name === Activities.auditOrgLastNames).length,
    );
    expect(Math.max(...perExecution)).toBe(ORG_PAGES_PER_EXECUTION);
    expect(run.executions.length).toBeGreaterThanOrEqual(3);
    await expectDeterministic(Orchestrations.auditIndexes, run);
  });

  it('treats a missing body as a report-only audit', async () => {
    fakes.departments = ['Sales'];
    const run = await runInMemory(shim, Orchestrations.auditIndexes, null, {
      followContinueAsNew: true,
    });
    expect(run.output).toMatchObject({ repair: false, departments: 1 });
    expect(fakes.calls.find((c) => c.name === Activities.auditDepartment)!.input).toEqual({
      department: 'Sales',
      repair: false,
      step: FIRST_AUDIT_STEP,
    });
  });
});
