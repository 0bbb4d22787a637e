/**
 * The department archive's activities: one page of a department's employee ids, and archiving a
 * chunk of them through {@link archiveEmployeePage} (copy to `EmployeesArchive` in batches, then
 * the directory's grouped delete, each employee conditional on the version copied).
 */
import { archiveEmployeePage } from '../../archive/archiveEmployees';
import { departmentNotFound, listEmployeeEntities, loadDepartment } from '../../directory';
import { refuseOnPermanentError, type Refusal } from '../refusal';
import { waitOnRelocating, type RelocationWait } from '../relocationWait';
import type { OrchestrationServices } from '../services';
import { incarnationOf } from '../../directory/entities';

/**
 * Employee ids per listing page by default (one activity lists a page; chunk activities then
 * archive it); `ARCHIVE_PAGE_SIZE` sets it (at most this).
 */
export const EMPLOYEE_PAGE_SIZE = 1_000;

/**
 * Employees one archive activity archives by default (a chunk of a page); `ARCHIVE_CHUNK_SIZE` sets
 * it (at most this).
 */
export const ARCHIVE_CHUNK_SIZE = 100;

/** A page of a department's employee ids. */
export interface EmployeeIdPage {
  employeeIds: string[];
  /**
   * The incarnation of each listed employee (same order), so that a re-run archive activity never
   * archives an employee created again with the id since. Absent in pages listed before
   * incarnations (an orchestration in flight across the upgrade).
   */
  incarnations?: string[];
  continuationToken: string | null;
}

/** What a chunk activity reports: employees now in the archive, and those in neither table. */
export interface ChunkArchived {
  archived: number;
  notFound: number;
}

/**
 * Activity: one page of the department's employee ids (the first page also checks that the
 * department exists). Archived employees leave the partition, and the token resumes after the
 * last id returned, so no employee is listed twice or skipped.
 */
export function listEmployeePageActivity(
  services: OrchestrationServices,
  input: { department: string; continuationToken: string | null; pageSize?: number },
): Promise<EmployeeIdPage | Refusal> {
  return refuseOnPermanentError(async () => {
    if (input.continuationToken === null) {
      const department = await loadDepartment(
        services.directory,
        await services.directory.table(),
        input.department,
        false,
      );
      if (!department) throw departmentNotFound(input.department);
    }
    const page = await listEmployeeEntities(services.directory, input.department, {
      pageSize: input.pageSize ?? EMPLOYEE_PAGE_SIZE,
      continuationToken: input.continuationToken ?? undefined,
    });
    return {
      employeeIds: page.entities.map((e) => String(e.EmployeeId)),
      incarnations: page.entities.map(incarnationOf),
      continuationToken: page.continuationToken,
    };
  });
}

/**
 * Activity: archives a chunk of a department's employees (safe to run again: a re-run finds those
 * already archived, counts them as archived and publishes their `archived` change again, and
 * archives the rest). The activity's own replay is the durable record of the deletes, as the
 * queue message is for the one-employee worker. Only the listed incarnation of each employee is
 * archived: one created again with the id since it was listed is `superseded` and left alone.
 */
export function archiveEmployeeChunkActivity(
  services: OrchestrationServices,
  input: { department: string; employeeIds: string[]; incarnations?: string[] },
): Promise<ChunkArchived | RelocationWait> {
  return waitOnRelocating(() => archiveChunk(services, input));
}

async function archiveChunk(
  services: OrchestrationServices,
  input: { department: string; employeeIds: string[]; incarnations?: string[] },
): Promise<ChunkArchived> {
  const result = await archiveEmployeePage(
    {
      employees: await services.directory.table(),
      archive: services.archive,
      directory: services.employees,
      changes: services.changes,
    },
    input.department,
    input.employeeIds,
    { incarnations: input.incarnations },
  );
  return {
    archived: result.archived + result.alreadyArchived,
    notFound: result.notFound + result.superseded,
  };
}
