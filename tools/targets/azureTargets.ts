/**
 * Azure Storage's published scalability targets for a standard general-purpose v2 account, and the
 * same targets divided by one factor so that one machine's emulator meets them as a deployed app
 * meets Azure's (docs/targets.md lists the sources).
 */

/** The targets the front enforces: per second, per scope. */
export interface StorageTargets {
  /** Requests per second per account (every service together). */
  accountRequests: number;
  /** Entities per second per table partition (1 KiB entities). */
  partitionEntities: number;
  /** Messages per second per queue (1 KiB messages). */
  queueMessages: number;
  /** Requests per second per blob. */
  blobRequests: number;
}

/**
 * Azure's figures: 20,000 requests/s per account (scalability-targets-standard-account), 2,000
 * entities/s per table partition (tables/scalability-targets), 2,000 messages/s per queue
 * (queues/scalability-targets), 500 requests/s per blob (blobs/scalability-targets).
 */
export const AZURE_TARGETS: StorageTargets = {
  accountRequests: 20_000,
  partitionEntities: 2_000,
  queueMessages: 2_000,
  blobRequests: 500,
};

/** The factor `npm start -- --targets` uses when given none: 20,000 → 200 requests/s. */
export const DEFAULT_TARGETS_FACTOR = 100;

/**
 * Azure's targets divided by `factor` (at least one per second each).
 *
 * @throws {RangeError} for a factor that is not a positive finite number.
 */
export function scaledTargets(factor: number): StorageTargets {
  if (!Number.isFinite(factor) || factor <= 0)
    throw new RangeError(`A targets factor must be a positive number, got ${factor}.`);
  const scale = (n: number) => Math.max(1, Math.floor(n / factor));
  return {
    accountRequests: scale(AZURE_TARGETS.accountRequests),
    partitionEntities: scale(AZURE_TARGETS.partitionEntities),
    queueMessages: scale(AZURE_TARGETS.queueMessages),
    blobRequests: scale(AZURE_TARGETS.blobRequests),
  };
}

/** One line per target, for a banner and the docs. */
export function describeTargets(targets: StorageTargets, factor: number): string[] {
  return [
    `Azure's targets ÷ ${factor}: ${targets.accountRequests} requests/s per account, ` +
      `${targets.partitionEntities} entities/s per table partition,`,
    `${targets.queueMessages} messages/s per queue, ${targets.blobRequests} requests/s per blob; ` +
      'past them 503 ServerBusy, as Azure answers.',
  ];
}
