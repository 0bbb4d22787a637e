/**
 * What the orchestrations' activities use (docs/orchestrations.md; relocation's: accounts.ts). The
 * activities get a directory of their own over the same `Employees` table, on purpose: it pages
 * departments from storage, never from the HTTP directory's cache. With data accounts a move's
 * step pins each department's rows and photos to the account resolved for it now.
 */
import { heldBy } from '../../../src/accounts/routing/perAccount';
import { RoutedPhotoContainer } from '../../../src/accounts/routing/routedPhotos';
import { createContext, directoryOver } from '../../../src/directory';
import type { OrchestrationServices } from '../../../src/orchestrations/services';
import { lazy, type Foundation } from './foundation';
import type { IndexingServices } from './indexing';

/** The orchestrations' part of the services. */
export interface OrchestrationParts {
  /** What the orchestrations' activities use. */
  orchestrations(): OrchestrationServices;
}

/** Builds what the activities use over the foundation and the indexes. */
export function orchestrationServices(
  base: Foundation,
  indexing: IndexingServices,
): OrchestrationParts {
  const { config, clients, table } = base;
  const photosName = () => config().containers.photos;
  const orchestrations = lazy((): OrchestrationServices => {
    const employees = table((c) => c.tables.employees);
    const changes = indexing.changeQueue();
    // One context (one version cache) for the activities' own reads and their employee service.
    const directory = createContext({ employees, changes });
    const spread = base.accounts();
    return {
      directory,
      employees: directoryOver(directory).employees,
      archive: table((c) => c.tables.archive),
      photos: clients().container(photosName()),
      ...(spread && {
        // A move's step: each department's rows and photos in the one account resolved for it
        // now (a switch meanwhile answers Relocating there, and the step is called again).
        pinnedFor: async (departments: readonly string[]) => {
          const held = await heldBy(spread.placement, departments);
          const pinned = spread.pinnedTable(config().tables.employees, (d) => held.get(d)?.name);
          return {
            directory: createContext({ employees: pinned, changes }),
            photos: new RoutedPhotoContainer(
              new Map(
                [...held].map(([d, account]) => [d, account.clients.container(photosName())]),
              ),
              clients().container(photosName()),
            ),
          };
        },
      }),
      indexStores: indexing.indexStores(),
      changes,
    };
  });
  return { orchestrations };
}
