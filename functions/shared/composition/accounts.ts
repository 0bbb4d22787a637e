/**
 * Storage accounts (docs/accounts.md): the view behind `GET /storage/accounts` and what the
 * relocation's activities need. The account layer itself (placement, fences, routed tables) is
 * opened by the foundation (src/accounts/accountLayer.ts).
 */
import { accountsView, type AccountView } from '../../../src/accounts/accountsView';
import type { RelocationDeps } from '../../../src/accounts/relocation/relocationSteps';
import { ensureTable } from '../../../src/storage/createOnce';
import { DEPARTMENT_LIST_PARTITION_KEY } from '../../../src/storage/keys/tables/employees';
import { readWholeRange } from '../../../src/storage/tables/rangePages';
import { lazy, type Foundation } from './foundation';

/** The accounts' part of the services. */
export interface AccountServices {
  /** The accounts, home first, with how many departments each holds (no key or SAS). */
  storageAccounts(): () => Promise<AccountView[]>;
  /** What the relocation's activities need. */
  relocation(): RelocationDeps;
}

/** Builds the accounts' part over the foundation. */
export function accountServices(base: Foundation): AccountServices {
  const { config, clients } = base;
  return {
    storageAccounts: lazy(
      () => () =>
        accountsView(base.placement(), async () => {
          // One account: its departments are those of the listing (one partition).
          const table = clients().table(config().tables.employees);
          await ensureTable(table);
          const listed = await readWholeRange(
            table,
            { partitionKey: DEPARTMENT_LIST_PARTITION_KEY, ge: ' ', lt: '~' },
            ['RowKey'],
          );
          return listed.length;
        }),
    ),
    relocation: lazy((): RelocationDeps => ({
      placement: base.placement(),
      tables: config().tables,
      photosContainer: config().containers.photos,
      chunkRows: config().accounts.relocationChunkRows,
    })),
  };
}
