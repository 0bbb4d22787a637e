/**
 * The project's orchestrators registered with `durable-functions` beside in-memory fake
 * activities (no storage: the unit suite is pure), for running them through the library's own
 * replay engine. Loaded after the core shim is installed (see orchestrators.test.ts).
 */
import * as df from 'durable-functions';
import { archiveDepartmentOrchestrator } from '../../../../src/orchestrations/archive/archiveDepartmentOrchestrator';
import { auditIndexesOrchestrator } from '../../../../src/orchestrations/audit/auditOrchestrator';
import { moveEmployeeOrchestrator } from '../../../../src/orchestrations/move/moveOrchestrator';
import { Activities, Orchestrations } from '../../../../src/orchestrations/names';
import { refusal } from '../../../../src/orchestrations/refusal';

/** What the fake activities do, set by each test. */
export const fakes = {
  calls: [] as { name: string; input: unknown }[],
  /** Refuse validation with this message. */
  refuseValidation: undefined as string | undefined,
  /** Throw (a transient fault) on this many first calls of the copy. */
  copyFaults: 0,
  /** Answer `sourceChanged` (the source was edited after the copy) on this many first removals. */
  sourceChanges: 0,
  /** Answer a relocation wait (the source is frozen) on this many first removals. */
  removalsRelocating: 0,
  /** Answer a relocation wait (the department is frozen) on this many first chunk archives. */
  chunksRelocating: 0,
  /** Employees of the department to archive, paged by `pageSize`. */
  employeeIds: [] as string[],
  pageSize: 10,
  departments: [] as string[],
  /** Pages of the org-wide last-name audit. */
  orgPages: 2,
  reset(): void {
    this.calls = [];
    this.refuseValidation = undefined;
    this.copyFaults = 0;
    this.sourceChanges = 0;
    this.removalsRelocating = 0;
    this.chunksRelocating = 0;
    this.employeeIds = [];
    this.pageSize = 10;
    this.departments = [];
    this.orgPages = 2;
  },
};

function fake(name: string, handler: (input: never) => unknown): void {
  df.app.activity(name, {
    handler: (input: unknown) => {
      fakes.calls.push({ name, input });
      return handler(input as never);
    },
  });
}

df.app.orchestration(Orchestrations.moveEmployee, moveEmployeeOrchestrator);
df.app.orchestration(Orchestrations.archiveDepartment, archiveDepartmentOrchestrator);
df.app.orchestration(Orchestrations.auditIndexes, auditIndexesOrchestrator);

fake(Activities.validateMove, () =>
  fakes.refuseValidation
    ? refusal('EmployeeExists', fakes.refuseValidation)
    : { state: 'ready', employee: { email: 'jones@contoso.com', lastName: 'Jones' } },
);
fake(Activities.copyToTarget, () => {
  if (fakes.copyFaults > 0) {
    fakes.copyFaults--;
    throw new Error('503 Server Busy');
  }
  const copies = fakes.calls.filter((c) => c.name === Activities.copyToTarget).length;
  return {
    copied: true,
    reviews: 2,
    sourceEtag: `etag-${copies}`,
    copiedReviews: [{ rowKey: 'review_000001_2023', etag: 'r1' }],
  };
});
fake(Activities.reindexEmployee, () => ({ present: true }));
/** What an activity answers while its department is frozen (../relocationWait.ts). */
const frozen = { relocating: { retryAfterSeconds: 2, message: 'Department "Sales" is moving.' } };

fake(Activities.removeFromSource, () => {
  if (fakes.removalsRelocating > 0) {
    fakes.removalsRelocating--;
    return frozen;
  }
  if (fakes.sourceChanges > 0) {
    fakes.sourceChanges--;
    return { removed: false, sourceChanged: true };
  }
  return { removed: true };
});
fake(
  Activities.listEmployeePage,
  (input: { continuationToken: string | null; pageSize?: number }) => {
    const start = input.continuationToken === null ? 0 : Number(input.continuationToken);
    const end = start + (input.pageSize ?? fakes.pageSize);
    return {
      employeeIds: fakes.employeeIds.slice(start, end),
      continuationToken: end < fakes.employeeIds.length ? String(end) : null,
    };
  },
);
// Employee 000013 vanished before its turn.
fake(Activities.archiveEmployeeChunk, (input: { employeeIds: string[] }) => {
  if (fakes.chunksRelocating > 0) {
    fakes.chunksRelocating--;
    return frozen;
  }
  const notFound = input.employeeIds.filter((id) => id === '000013').length;
  return { archived: input.employeeIds.length - notFound, notFound };
});
fake(Activities.listDepartmentPage, (input: { continuationToken: string | null }) => {
  const start = input.continuationToken === null ? 0 : Number(input.continuationToken);
  return {
    departments: fakes.departments.slice(start, start + 7),
    continuationToken: start + 7 < fakes.departments.length ? String(start + 7) : null,
  };
});
// Two pages per department: the first page's employees carry the drift, the second ends it.
fake(
  Activities.auditDepartment,
  (input: { step: { pass: string; position?: { token: unknown } } }) =>
    input.step.position?.token === null
      ? {
          counts: {
            emailCopies: { checked: 10, missing: 1, stale: 0, repaired: 0 },
            employeeIndexById: { checked: 10, missing: 0, stale: 2, repaired: 0 },
          },
          next: { pass: 'employees', position: { token: 'page2', afterId: '000010' } },
        }
      : { counts: {}, next: null },
);
// Pages of the org-wide index: the first carries the drift, the last ends the audit.
fake(Activities.auditOrgLastNames, (input: { after?: { page: number } }) => {
  const page = input.after?.page ?? 0;
  return {
    counts: { checked: page === 0 ? 3 : 2, missing: 0, stale: page === 0 ? 1 : 0, repaired: 0 },
    next: page + 1 < fakes.orgPages ? { page: page + 1 } : null,
  };
});
