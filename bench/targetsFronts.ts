/**
 * The data accounts of the targets bench (bench/cases/targets*.ts, docs/targets.md): each an
 * Azurite process of its own behind a targets front of its own, whose limiter also counts what it
 * admitted per table partition — the figure a hot partition is judged by.
 */
import { azuriteConnectionString, dataEmulatorAccount, startAzurite } from '../tools/azurite';
import { startFaultProxy, type FaultProxy } from '../tools/faultProxy/faultProxy';
import type { StorageTargets } from '../tools/targets/azureTargets';
import type { RequestUnits } from '../tools/targets/requestUnits';
import { TargetsLimiter, type Throttle } from '../tools/targets/targetsLimiter';

/** What a watched partition was admitted: per wall-clock second, and by kind of request. */
export interface WatchedPartition {
  bySecond: Map<number, number>;
  /** Entities of entity group transactions, of single-entity requests, of query answers. */
  batch: number;
  single: number;
  read: number;
}

/**
 * A limiter that keeps, per `<table>/<partition>`, the entities it admitted (reads included), and
 * for a watched partition when and how.
 */
export class CountingLimiter extends TargetsLimiter {
  private readonly entities = new Map<string, number>();
  private readonly watched = new Map<string, WatchedPartition>();

  override async admit(units: RequestUnits): Promise<Throttle | undefined> {
    const throttle = await super.admit(units);
    const partition = units.partition;
    if (!throttle && partition) {
      this.add(partition.key, partition.entities, partition.entities > 1 ? 'batch' : 'single');
    }
    return throttle;
  }

  override async chargeRead(partitionKey: string, entities: number): Promise<void> {
    await super.chargeRead(partitionKey, entities);
    if (entities > 1) this.add(partitionKey, entities - 1, 'read');
  }

  /** Starts keeping when and how entities are admitted into `key`. */
  watch(key: string): WatchedPartition {
    const watched = { bySecond: new Map<number, number>(), batch: 0, single: 0, read: 0 };
    this.watched.set(key, watched);
    return watched;
  }

  /** Entities admitted so far, per `<table>/<partition key>` (a copy). */
  partitions(): Map<string, number> {
    return new Map(this.entities);
  }

  private add(key: string, entities: number, kind: 'batch' | 'single' | 'read'): void {
    this.entities.set(key, (this.entities.get(key) ?? 0) + entities);
    const watched = this.watched.get(key);
    if (!watched) return;
    watched[kind] += entities;
    const second = Math.floor(Date.now() / 1000);
    watched.bySecond.set(second, (watched.bySecond.get(second) ?? 0) + entities);
  }
}

/**
 * How busy a watched partition was from `fromMs` to `toMs` (wall clock): the mean over the whole
 * seconds between them of its admitted entities, each second counted up to `target` — what it
 * sustained, without the reads and batches a window admitted past its budget.
 */
export function sustained(watched: WatchedPartition, fromMs: number, toMs: number, target: number) {
  const first = Math.ceil(fromMs / 1000);
  const last = Math.floor(toMs / 1000);
  let sum = 0;
  for (let second = first; second < last; second++) {
    sum += Math.min(target, watched.bySecond.get(second) ?? 0);
  }
  return last > first ? sum / (last - first) : NaN;
}

/** One data account: its emulator behind a targets front of its own. */
export interface FrontedAccount {
  /** Its connection setting's name: `DATA<index>`. */
  name: string;
  connection: string;
  proxy: FaultProxy;
  limiter: CountingLimiter;
  stop(): Promise<void>;
}

/** Starts data account `index` (1, 2, …) behind a front holding `targets`. */
export async function startFrontedAccount(
  index: number,
  targets: StorageTargets,
): Promise<FrontedAccount> {
  const account = dataEmulatorAccount(index);
  const azurite = await startAzurite({ account });
  const limiter = new CountingLimiter(targets);
  const proxy = await startFaultProxy({ target: azurite.ports, targets: limiter });
  return {
    name: `DATA${index}`,
    connection: azuriteConnectionString(proxy.ports, '127.0.0.1', 'http', account),
    proxy,
    limiter,
    async stop() {
      await proxy.stop();
      await azurite.stop();
    },
  };
}

/** The settings that make `accounts` the data accounts. */
export function dataSettings(accounts: readonly FrontedAccount[]): Record<string, string> {
  return {
    DATA_ACCOUNTS: accounts.map((a) => a.name).join(','),
    ...Object.fromEntries(accounts.map((a) => [a.name, a.connection])),
  };
}

/** Requests `account`'s front refused so far, every scope together. */
export const refusedBy = (account: FrontedAccount): number =>
  Object.values(account.limiter.throttled()).reduce((a, b) => a + b, 0);

/** Percentile `p` (0–100) of `values` in ms, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A line on the run's output while a long case goes on. */
export const progress = (line: string): void => void process.stdout.write(`    ${line}\n`);
