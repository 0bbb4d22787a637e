/**
 * Serving each request from the account that holds its data: one instance of a service per
 * account (built on first use), and a router that hands each call to the instance of the account
 * placement names. The capabilities' services stay single-account; only the account layer
 * (../accountLayer.ts) and the composition root's builders route.
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

/** A method that takes the department first. */
type DepartmentMethod = (department: string, ...rest: never[]) => unknown;

/**
 * A stand-in for a service whose methods all take the department first: each call runs on the
 * instance `resolve` gives for that department (`write` is false for the methods in `reads`).
 * Members of `own` are served as they are (methods without a department).
 */
export function routedByDepartment<T extends object>(
  resolve: (department: string, write: boolean) => Promise<T>,
  reads: readonly (keyof T)[],
  own: Partial<T> = {},
): T {
  const methods = new Map<PropertyKey, (department: string, ...rest: unknown[]) => unknown>();
  return new Proxy(own as T, {
    get(target, property) {
      if (Object.prototype.hasOwnProperty.call(target, property)) {
        return Reflect.get(target, property);
      }
      // Not thenable: a router is never awaited as a promise.
      if (property === 'then') return undefined;
      let method = methods.get(property);
      if (!method) {
        const write = !reads.includes(property as keyof T);
        method = async (department: string, ...rest: unknown[]) => {
          const instance = await resolve(department, write);
          const call = instance[property as keyof T] as unknown as DepartmentMethod;
          return (call as (...args: unknown[]) => unknown).call(instance, department, ...rest);
        };
        methods.set(property, method);
      }
      return method;
    },
  });
}
