/**
 * Placement: the one module that decides which storage account holds any key.
 *
 * - A department, and everything keyed by it, lives where its stored placement says (the placement
 *   table in the home account), given on its first write: home if it predates data accounts,
 *   else where rendezvous hashing of its name says. Adding an account moves nothing by itself.
 * - Data keyed by something else (a last name, a login's user, a log hour) goes where rendezvous
 *   hashing of its own key says; its readers ask every account ({@link readers}).
 *
 * A department's placement is cached for `PLACEMENT_CACHE_SECONDS` (never a `frozen` one); the
 * cache never decides a write alone: the write carries the placement's version to the partition's
 * fence (partitionFence.ts), which refuses it once a relocation moved on.
 *
 * One account (no `DATA_ACCOUNTS`): always home, no read. Why: docs/accounts.md, placement.
 */
import { LruMap } from '../storage/lruMap';
import { HOME_ACCOUNT, type AccountSet, type StorageAccount } from './accounts';
import type { DepartmentPlacement, PlacementFields, PlacementStore } from './placementStore';
import { rendezvousPick } from './rendezvous';

export type { DepartmentPlacement, PlacementPhase } from './placementStore';

/** What data keyed otherwise than by a department is keyed by. */
export type KeyKind = 'lastName' | 'login' | 'logHour';

/** How {@link Placement} is built. */
export interface PlacementOptions {
  accounts: AccountSet;
  /** The placement table; `undefined` with one account (nothing is ever stored then). */
  store?: PlacementStore;
  /**
   * Whether the department already lives in the home account (its department entity is there):
   * such a department is recorded in place instead of being placed anew.
   */
  livesInHome: (department: string) => Promise<boolean>;
  /** How long a read placement is trusted (`PLACEMENT_CACHE_SECONDS`). */
  cacheMs: number;
  /** Clock (tests). */
  now?: () => number;
}

/** How a department's placement is asked for. */
export interface PlacementQuery {
  /** A write: an unplaced department is placed now (default: answered from home, unstored). */
  place?: boolean;
  /** Skip the process's cache (the fence's check after a refusal, the relocation). */
  fresh?: boolean;
}

/** See the file comment. */
export class Placement {
  readonly accounts: AccountSet;
  private readonly cache = new LruMap<string, { placement: DepartmentPlacement; until: number }>(
    10_000,
  );
  /** Reads of the placement table under way, per department, with when each was sent. */
  private readonly reading = new Map<string, PlacementRead>();
  private readonly now: () => number;

  constructor(private readonly options: PlacementOptions) {
    this.accounts = options.accounts;
    this.now = options.now ?? Date.now;
  }

  /** True when data is spread over more than the home account. */
  get spread(): boolean {
    return this.accounts.spread && this.options.store !== undefined;
  }

  /** How long a read placement is trusted, in ms. */
  get cacheMs(): number {
    return this.options.cacheMs;
  }

  /**
   * Where a department lives: its stored placement (cached, see the file comment), else — for a
   * write (`place`) — its first placement, else home (an unplaced department has no data anywhere
   * else).
   *
   * @throws {DomainError} for storage faults of the placement table.
   */
  async ofDepartment(department: string, query: PlacementQuery = {}): Promise<DepartmentPlacement> {
    const store = this.options.store;
    if (!this.spread || !store) return unplaced(department);
    if (!query.fresh) {
      const cached = this.cache.get(department);
      if (cached && this.now() < cached.until) return cached.placement;
    }
    const { asOf, read } = query.fresh
      ? readNow(store, department, this.now)
      : this.readShared(store, department);
    let placement = await read;
    if (!placement) {
      if (await this.options.livesInHome(department)) {
        placement = await store.place(department, firstPlacement(HOME_ACCOUNT));
      } else if (query.place) {
        placement = await store.place(department, firstPlacement(this.pick(department).name));
      } else {
        return unplaced(department);
      }
    }
    this.remember(placement, asOf);
    return placement;
  }

  /** The account a placement names (`account`). */
  accountOf(placement: Pick<DepartmentPlacement, 'account'>): StorageAccount {
    return this.accounts.require(placement.account);
  }

  /** The account that holds new data keyed by `key` (rendezvous hashing of the key). */
  forKey(kind: KeyKind, key: string): StorageAccount {
    if (!this.accounts.spread) return this.accounts.home;
    return rendezvousPick(`${kind}\n${key}`, this.accounts.all);
  }

  /** The accounts a reader of data keyed otherwise asks and merges: every account, in order. */
  readers(): readonly StorageAccount[] {
    return this.accounts.all;
  }

  /** Forgets the process's copy of a department's placement (the next read fetches it). */
  forget(department: string): void {
    this.cache.delete(department);
    // A read sent before now may predate what made the caller forget (a relocation's step).
    this.reading.delete(department);
  }

  /**
   * Replaces a stored placement if it is unchanged since read (relocation steps).
   *
   * @returns the new placement, or `undefined` when the row changed meanwhile.
   * @throws {DomainError} for storage faults.
   */
  async change(
    current: DepartmentPlacement,
    next: PlacementFields,
  ): Promise<DepartmentPlacement | undefined> {
    if (!this.options.store) return undefined;
    const asOf = this.now();
    const changed = await this.options.store.replace(current, next);
    this.forget(current.department);
    if (changed) this.remember(changed, asOf);
    return changed;
  }

  /**
   * Every stored placement (the accounts view, relocation checks).
   *
   * @throws {DomainError} for storage faults.
   */
  async all(): Promise<DepartmentPlacement[]> {
    return this.options.store ? this.options.store.all() : [];
  }

  /** Rendezvous hashing of a department name over the weighted accounts. */
  private pick(department: string): StorageAccount {
    return rendezvousPick(`department\n${department}`, this.accounts.all);
  }

  /**
   * The read of `department`'s placement under way, else a new one. The cache's misses for one
   * department come together (a write's parallel reads, a drain's, after the cache period ran
   * out): one read answers them all, as a read a moment earlier would have filled the cache for
   * them. Trusted from when it was sent, as the cache is; a `fresh` query never shares one.
   */
  private readShared(store: PlacementStore, department: string): PlacementRead {
    const shared = this.reading.get(department);
    if (shared) return shared;
    const started = readNow(store, department, this.now);
    const done = () => {
      if (this.reading.get(department) === started) this.reading.delete(department);
    };
    started.read.then(done, done);
    this.reading.set(department, started);
    return started;
  }

  private remember(placement: DepartmentPlacement, asOf: number): void {
    // A frozen placement changes within seconds (the switch): read it every time.
    if (placement.phase === 'frozen') this.cache.delete(placement.department);
    else this.cache.set(placement.department, { placement, until: asOf + this.options.cacheMs });
  }
}

/** A read of the placement table, and when it was sent. */
interface PlacementRead {
  /** The read is trusted from here: the state it returns is at least that recent. */
  asOf: number;
  read: Promise<DepartmentPlacement | undefined>;
}

/** The stored placement of `department`, read now. */
function readNow(store: PlacementStore, department: string, now: () => number): PlacementRead {
  const asOf = now();
  return { asOf, read: store.read(department) };
}

function firstPlacement(account: string): PlacementFields {
  return { account, version: 1, phase: 'stable' };
}

/** An unplaced department: home, version 0, nothing stored. */
function unplaced(department: string): DepartmentPlacement {
  return { department, account: HOME_ACCOUNT, version: 0, phase: 'stable', stored: false };
}
