/**
 * Serving each request from the account that holds its data: one instance of a service per
 * account (built on first use), the instance of the account a department's placement names, and
 * the account each of some departments is held by. The capabilities' services stay
 * single-account; only the account layer (../accountLayer.ts) and the composition root's builders
 * route.
 */
import type { AccountSet, StorageAccount } from '../accounts';
import type { Placement } from '../placement';

/** One instance of something per account, built on first use and kept. */
export class PerAccount<T> {
  private readonly built = new Map<string, T>();

  constructor(
    private readonly accounts: AccountSet,
    private readonly build: (account: StorageAccount) => T,
  ) {}

  /**
   * The instance of one account.
   *
   * @throws {ValidationError} `UnknownAccount` for a name that is not configured.
   */
  of(account: StorageAccount | string): T {
    const resolved = typeof account === 'string' ? this.accounts.require(account) : account;
    let instance = this.built.get(resolved.name);
    if (instance === undefined) {
      instance = this.build(resolved);
      this.built.set(resolved.name, instance);
    }
    return instance;
  }

  /** The instances of every account, in the accounts' order. */
  all(): { account: StorageAccount; instance: T }[] {
    return this.accounts.all.map((account) => ({ account, instance: this.of(account) }));
  }
}

/**
 * The instance that serves a department: the one of the account its placement names (a write
 * places an unplaced department first).
 *
 * @throws {DomainError} for storage faults of the placement table.
 */
export async function forDepartment<T>(
  placement: Placement,
  instances: PerAccount<T>,
  department: string,
  write = false,
): Promise<T> {
  const placed = await placement.ofDepartment(department, { place: write });
  return instances.of(placed.account);
}

/**
 * The account each of `departments` is held by now, as its placement says (unplaced: home): one
 * request's account handle, for a table pinned to it and its photo container.
 *
 * @throws {DomainError} for storage faults of the placement table.
 */
export async function heldBy(
  placement: Placement,
  departments: readonly string[],
): Promise<Map<string, StorageAccount>> {
  const placed = await Promise.all(
    departments.map(
      async (d) => [d, placement.accountOf(await placement.ofDepartment(d))] as const,
    ),
  );
  return new Map(placed);
}
