/**
 * `GET /storage/accounts`: the accounts the app spreads data over, their endpoints and placement
 * weights, and how many departments each holds (from the placement table; with one account, from
 * the department listing). No key or SAS is ever part of it.
 */
import { HOME_ACCOUNT } from './accounts';
import type { Placement } from './placement';

/** One account as the API shows it. */
export interface AccountView {
  name: string;
  endpoints: { table: string; blob: string; queue: string };
  departments: number;
  weight: number;
}

/**
 * The accounts, home first.
 *
 * @param countListed - the departments of the listing (one account: nothing is placed).
 * @throws {DomainError} for storage faults.
 */
export async function accountsView(
  placement: Placement,
  countListed: () => Promise<number>,
): Promise<AccountView[]> {
  const counts = new Map<string, number>();
  if (placement.spread) {
    for (const placed of await placement.all()) {
      counts.set(placed.account, (counts.get(placed.account) ?? 0) + 1);
    }
  } else {
    counts.set(HOME_ACCOUNT, await countListed());
  }
  return placement.accounts.all.map((account) => ({
    name: account.name,
    endpoints: {
      table: account.clients.tableService().url,
      blob: account.clients.blobService().url,
      queue: account.clients.queueService().url,
    },
    departments: counts.get(account.name) ?? 0,
    weight: account.weight,
  }));
}
