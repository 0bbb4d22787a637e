/**
 * The directory of the HTTP adapters (docs/directory.md) and the archive (src/archive): its
 * requests, its archived records and what its worker needs. The directory caches department list
 * pages (`DEPARTMENT_CACHE_TTL_MS`); every directory records each change in the write's own
 * transaction (the index outbox) and nudges through the process's sink.
 */
import {
  getArchivedEmployee,
  type ArchiveDependencies,
} from '../../../src/archive/archiveEmployee';
import { requestArchive } from '../../../src/archive/archiveRequests';
import {
  createDirectory,
  type Directory,
  type Employee,
  type EmployeeCheck,
  type Versioned,
} from '../../../src/directory';
import { configuredBackgroundChangeQueue } from '../../../src/indexing';
import { lazy, nudgeFailed, type Foundation } from './foundation';
import type { IndexingServices } from './indexing';

/** The archive capability as the HTTP adapters use it. */
export interface ArchiveRequests {
  /**
   * Queues the archive of one employee incarnation.
   *
   * @throws {NotFoundError} when the employee does not exist.
   */
  request(department: string, employeeId: string): Promise<void>;
  /**
   * The newest archived record of the employee.
   *
   * @throws {NotFoundError} when it is not (yet) archived.
   */
  archived(department: string, employeeId: string): Promise<Versioned<Employee>>;
}

/** The directory and the archive as the adapters and the worker use them. */
export interface DirectoryServices {
  /** The directory of the HTTP adapters (the orchestrations build their own, uncached). */
  directory(): Directory;
  /** What the archive worker needs. */
  archive(): ArchiveDependencies;
  /** Archive requests (`POST .../archive`) and archived records (`GET /archive/...`). */
  archiveRequests(): ArchiveRequests;
}

/** The directory as the other builders use it. */
export interface DirectoryParts extends DirectoryServices {
  /** Whether an employee exists (404 for an unknown one; one point read of the directory). */
  requireEmployee(): EmployeeCheck;
}

/** Builds the directory and the archive over the foundation and the process's sink. */
export function directoryServices(base: Foundation, indexing: IndexingServices): DirectoryParts {
  const { config, clients, table } = base;
  const directory = lazy((): Directory =>
    createDirectory({
      employees: table((c) => c.tables.employees),
      departmentCacheTtlMs: config().directory.departmentCacheTtlMs,
      changes: indexing.changeQueue(),
    }),
  );
  return {
    directory,
    requireEmployee: () => {
      const employees = directory().employees;
      return (department, employeeId) => employees.requireExists(department, employeeId);
    },
    archive: lazy((): ArchiveDependencies => {
      // Its own directory and sink, whose outbox nudges wait a second: one nudge per department
      // and second however many employees the worker archives (configuredBackgroundChangeQueue).
      const changes = configuredBackgroundChangeQueue(config(), clients(), nudgeFailed);
      const employees = table((c) => c.tables.employees);
      return {
        employees,
        archive: table((c) => c.tables.archive),
        directory: createDirectory({
          employees,
          departmentCacheTtlMs: config().directory.departmentCacheTtlMs,
          changes,
        }).employees,
        changes,
      };
    }),
    archiveRequests: lazy((): ArchiveRequests => ({
      request: (department, employeeId) =>
        requestArchive(
          table((c) => c.tables.employees),
          clients().queue(config().queues.archive),
          department,
          employeeId,
        ),
      archived: (department, employeeId) =>
        getArchivedEmployee(
          table((c) => c.tables.archive),
          department,
          employeeId,
        ),
    })),
  };
}
