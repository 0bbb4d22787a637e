/**
 * What the activities need from the rest of the application, passed in (the function adapters
 * build it from the configuration; tests build it over their own tables).
 */
import type { DirectoryContext, EmployeeChangeSink, EmployeeService } from '../directory';
import type { ContainerClient } from '@azure/storage-blob';
import type { IndexStores } from '../indexing';
import type { PhotoBlobs } from '../photos/dependencies';
import type { TableAccess } from '../storage/tables/tableAccess';

/** A move step's account handle (see {@link OrchestrationServices.pinnedFor}). */
export interface PinnedServices {
  directory: DirectoryContext;
  /** Blob clients of a department's photos come from the same account as its rows. */
  photos: PhotoBlobs;
}

/** The services behind the orchestrations' activities. */
export interface OrchestrationServices {
  /** The directory's shared state over the `Employees` table (for the move's transactions). */
  directory: DirectoryContext;
  /** The directory's employee operations over the same table (for the archive sequence). */
  employees: EmployeeService;
  /** The `EmployeesArchive` table. */
  archive: TableAccess;
  /** The photos container (a move copies the photo blob to the target department's name). */
  photos: ContainerClient;
  /**
   * With departments held by different accounts (docs/accounts.md): what one step of a move
   * between `departments` uses, resolved for that step: each department's rows (a directory
   * context over them) and photo blobs in the one account holding it now. A department switched
   * away since answers 503 `Relocating` there, so its photo is never named in another account.
   */
  pinnedFor?: (departments: readonly string[]) => Promise<PinnedServices>;
  /** The indexes outside the department partitions (`EmployeeIndex`, org-wide last names). */
  indexStores: IndexStores;
  /**
   * The sink {@link directory} and {@link employees} publish to. The archive activity passes it to
   * `archiveEmployee`, so a replayed activity re-publishes an `archived` change whose first
   * publish failed after the delete committed (the indexes would otherwise keep the employee).
   */
  changes: EmployeeChangeSink;
}
