/**
 * The department archive's activities: one page of a department's employee ids, and archiving
 * one employee through the very sequence the `archive-requests` queue worker runs
 * ({@link archiveEmployee}: copy to `EmployeesArchive`, then the directory's idempotent delete).
 */
import { archiveEmployee, type ArchiveOutcome } from '../../archive/archiveEmployee';
import {
  departmentNotFound,
  incarnationOf,
  listEmployeeEntities,
  loadDepartment,
} from '../../directory';
import { refuseOnPermanentError, type Refusal } from '../refusal';
import type { OrchestrationServices } from '../services';

/** Employees per listing page (one activity lists a page; the fan-out then archives it). */
export const EMPLOYEE_PAGE_SIZE = 100;

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

/**
 * Activity: one page of the department's employee ids (the first page also checks that the
 * department exists). Archived employees leave the partition, and the token resumes after the
 * last id returned, so no employee is listed twice or skipped.
 */
export function listEmployeePageActivity(
  services: OrchestrationServices,
  input: { department: string; continuationToken: string | null },
): Promise<EmployeeIdPage | Refusal> {
  return refuseOnPermanentError(async () => {
    if (input.continuationToken === null) {
      const department = await loadDepartment(services.directory, input.department, false);
      if (!department) throw departmentNotFound(input.department);
    }
    const page = await listEmployeeEntities(services.directory, input.department, {
      pageSize: EMPLOYEE_PAGE_SIZE,
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
 * Activity: archives one employee (safe to run again: the sequence is idempotent). The activity's
 * own replay is the durable record of the delete, as the queue message is for the queue worker:
 * with the change sink given, a replay that finds the employee already archived publishes the
 * `archived` change again, and the delete skips the pre-write announcement. Only the listed
 * incarnation is archived: a re-run after the employee was created again with the id is
 * `superseded` and touches nothing.
 */
export async function archiveEmployeeActivity(
  services: OrchestrationServices,
  input: { department: string; employeeId: string; incarnation?: string },
): Promise<ArchiveOutcome['outcome']> {
  const result = await archiveEmployee(
    {
      employees: await services.directory.table(),
      archive: services.archive,
      directory: services.employees,
      changes: services.changes,
    },
    input.department,
    input.employeeId,
    { incarnation: input.incarnation },
  );
  return result.outcome;
}
