/**
 * Azure's targets enforced (rate-limiter-flexible's in-memory limiter, one-second windows): a
 * request is admitted only if every scope it counts toward has room — its account, its table
 * partition, its queue, its blob — and otherwise refused with the scope that was over. Entities a
 * query returns are known only from its answer: they are charged afterwards, so the partition's
 * next requests wait for them, as Azure throttles a partition read past its target.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RequestUnits } from './requestUnits';
import type { StorageTargets } from './azureTargets';

/** Which target a refused request was over. */
export type TargetScope = 'account' | 'partition' | 'queue' | 'blob';

/** A refusal: the scope over its target and when it has room again. */
export interface Throttle {
  scope: TargetScope;
  retryAfterMs: number;
}

/** Requests refused per scope since the start. */
export type ThrottleCounts = Record<TargetScope, number>;

/** The targets of one front (one account), with what it refused. */
export class TargetsLimiter {
  private readonly limiters: Record<TargetScope, RateLimiterMemory>;
  private readonly refused: ThrottleCounts = { account: 0, partition: 0, queue: 0, blob: 0 };

  constructor(readonly targets: StorageTargets) {
    const perSecond = (points: number) => new RateLimiterMemory({ points, duration: 1 });
    this.limiters = {
      account: perSecond(targets.accountRequests),
      partition: perSecond(targets.partitionEntities),
      queue: perSecond(targets.queueMessages),
      blob: perSecond(targets.blobRequests),
    };
  }

  /** Admits a request (consuming its units) or names the first scope over its target. */
  async admit(units: RequestUnits): Promise<Throttle | undefined> {
    const charges: [TargetScope, string, number][] = [['account', units.account, 1]];
    if (units.partition) charges.push(['partition', units.partition.key, units.partition.entities]);
    if (units.queue) charges.push(['queue', units.queue.key, units.queue.messages]);
    if (units.blob) charges.push(['blob', units.blob.key, 1]);
    for (const [scope, key, points] of charges) {
      // A request bigger than a whole second's budget (a 6-operation batch against a partition
      // scaled down to 5 entities/s) is admitted into an empty window, its excess charged as
      // debt: Azure throttles a partition's rate, never one transaction for its size.
      const budget = this.limiters[scope].points;
      try {
        await this.limiters[scope].consume(key, Math.min(points, budget));
        if (points > budget) await this.limiters[scope].penalty(key, points - budget);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        this.refused[scope]++;
        return { scope, retryAfterMs: refusal.msBeforeNext };
      }
    }
    return undefined;
  }

  /** Charges a partition for entities a query returned beyond the one its request was counted. */
  async chargeRead(partitionKey: string, entities: number): Promise<void> {
    if (entities > 1) await this.limiters.partition.penalty(partitionKey, entities - 1);
  }

  /** Requests refused so far, per scope. */
  throttled(): ThrottleCounts {
    return { ...this.refused };
  }
}
