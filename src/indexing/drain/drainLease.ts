/**
 * A department's drain lease: at most one drainer of a department's index outbox runs rounds at a
 * time, across processes, so drains of one department stop losing rounds to each other
 * (leasedDrain.ts). One entity, `~drain_<dept>` / `lease` in `EmployeeIndex`, every write
 * conditional on its ETag: `Holder` (a random id per drain, `''` when free), `ExpiresAt` (the
 * holder's clock plus the lease duration; a dead holder's lease expires and is taken over), and
 * `Requested`, set by a drainer that found it held (its nudge is absorbed): the holder's release
 * then fails and it drains again, reading the outbox after the request. A renewal takes the
 * request in too, right before a round. The lease is for progress, not correctness: the drain's
 * fences keep the indexes right with any number of drainers, so a clock skew costs lost rounds or
 * a later takeover, never a wrong index.
 *
 * Why: docs/queues.md "Transactional outbox" ("One drainer per department, bounded invocations").
 */
import type { TableEntity, TableEntityResult } from '@azure/data-tables';
import type { TableAccess } from '../../storage/tables/tableAccess';
import { ensureTable } from '../../storage/createOnce';
import {
  isAlreadyExists,
  isNotFound,
  isPreconditionFailed,
  toDomainError,
} from '../../storage/storageFaults';
import {
  DRAIN_LEASE_ROW_KEY,
  drainLeasePartitionKey,
} from '../../storage/keys/tables/employeeIndex';
import { drainLeaseContended } from '../indexingErrors';
import {
  RETRY,
  retryOptimistically,
  type OptimisticRetryOptions,
  type Retry,
} from '../../storage/optimisticRetry';

/** `EntityType` of the lease entity. */
export const DRAIN_LEASE_ENTITY_TYPE = 'IndexDrainLease.v1';

/** Conflicting writes of the lease entity before giving up (the nudge is then retried). */
const MAX_LEASE_ATTEMPTS = 10;

/** How long a lease lasts and what time it is. */
export interface LeaseClock {
  /** Lease duration in ms (renewed by the holder between rounds). */
  durationMs: number;
  now(): number;
}

/** A lease this drainer holds. */
export interface HeldLease {
  department: string;
  holder: string;
  /** ETag of the lease entity as this holder last wrote or read it. */
  etag: string;
  /** When this holder last wrote it (its clock). */
  writtenAt: number;
}

/** The outcome of {@link acquireDrainLease}. */
export type LeaseAttempt =
  | { held: HeldLease }
  | {
      /** Held by another drainer until `expiresAt` (its clock); the request is recorded. */
      busy: { expiresAt: number; holder: string; firstRequest: boolean };
    };

/** The outcome of {@link releaseDrainLease}. */
export type Release =
  /** Released. */
  | { released: true }
  /** Another drainer took the lease over (this one's had expired): nothing to release. */
  | { lost: true }
  /** A nudge was absorbed meanwhile: still held, under this version; drain again. */
  | { requested: HeldLease };

interface LeaseState {
  holder: string;
  expiresAt: number;
  requested: boolean;
  etag: string;
}

function leaseEntity(
  department: string,
  state: Omit<LeaseState, 'etag'>,
): TableEntity<Record<string, unknown>> {
  return {
    partitionKey: drainLeasePartitionKey(department),
    rowKey: DRAIN_LEASE_ROW_KEY,
    EntityType: DRAIN_LEASE_ENTITY_TYPE,
    Holder: state.holder,
    ExpiresAt: new Date(state.expiresAt),
    Requested: state.requested,
  };
}

/** The lease as stored; `undefined` when there is none yet. */
async function readLease(table: TableAccess, department: string): Promise<LeaseState | undefined> {
  let entity: TableEntityResult<Record<string, unknown>>;
  try {
    entity = await table.getEntity(drainLeasePartitionKey(department), DRAIN_LEASE_ROW_KEY);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw toDomainError(error);
  }
  const expiresAt = new Date(entity.ExpiresAt as string | Date).getTime();
  return {
    holder: typeof entity.Holder === 'string' ? entity.Holder : '',
    expiresAt: Number.isFinite(expiresAt) ? expiresAt : 0,
    requested: entity.Requested === true,
    etag: entity.etag,
  };
}

/** Writes the lease under `etag` (or creates it); the new ETag, `undefined` when it lost a race. */
async function writeLease(
  table: TableAccess,
  department: string,
  etag: string | undefined,
  state: Omit<LeaseState, 'etag'>,
): Promise<string | undefined> {
  const entity = leaseEntity(department, state);
  try {
    const response =
      etag === undefined
        ? await table.createEntity(entity)
        : await table.updateEntity(entity, 'Replace', { etag });
    return response.etag;
  } catch (error) {
    // Lost to another drainer's write (412, 409 or 404; as `tookEffect` decides).
    if (isPreconditionFailed(error) || isAlreadyExists(error) || isNotFound(error))
      return undefined;
    throw toDomainError(error);
  }
}

/** The shared retry routine's options, giving up after {@link MAX_LEASE_ATTEMPTS} lost writes. */
function leaseRetry(department: string): OptimisticRetryOptions {
  return {
    maxAttempts: MAX_LEASE_ATTEMPTS,
    giveUp: (attempts) => drainLeaseContended(department, attempts),
  };
}

/**
 * Takes the department's drain lease for `holder` when it is free or expired; otherwise records
 * a request on it (unless one is recorded already) and reports it busy.
 *
 * @throws {ContentionError} when the lease kept changing under this call.
 * @throws {DomainError} for storage faults.
 */
export async function acquireDrainLease(
  table: TableAccess,
  department: string,
  holder: string,
  clock: LeaseClock,
): Promise<LeaseAttempt> {
  await ensureTable(table);
  return retryOptimistically(leaseRetry(department), async (): Promise<LeaseAttempt | Retry> => {
    const state = await readLease(table, department);
    const now = clock.now();
    if (!state || state.holder === '' || state.expiresAt <= now) {
      const expiresAt = now + clock.durationMs;
      const etag = await writeLease(table, department, state?.etag, {
        holder,
        expiresAt,
        requested: false,
      });
      if (etag !== undefined) return { held: { department, holder, etag, writtenAt: now } };
      return RETRY;
    }
    const busy = { expiresAt: state.expiresAt, holder: state.holder };
    // Already requested and not yet taken in by the holder: its next outbox read comes after now.
    if (state.requested) return { busy: { ...busy, firstRequest: false } };
    const etag = await writeLease(table, department, state.etag, { ...state, requested: true });
    if (etag !== undefined) return { busy: { ...busy, firstRequest: true } };
    return RETRY;
  });
}

/**
 * Extends a held lease by its duration, taking in any request recorded on it (the caller's next
 * outbox read comes after); `undefined` when another drainer took it over.
 *
 * @throws {ContentionError} when the lease kept changing under this call.
 * @throws {DomainError} for storage faults.
 */
export async function renewDrainLease(
  table: TableAccess,
  lease: HeldLease,
  clock: LeaseClock,
): Promise<HeldLease | undefined> {
  let current = lease;
  return retryOptimistically(
    leaseRetry(lease.department),
    async (): Promise<HeldLease | undefined | Retry> => {
      const now = clock.now();
      const etag = await writeLease(table, lease.department, current.etag, {
        holder: lease.holder,
        expiresAt: now + clock.durationMs,
        requested: false,
      });
      if (etag !== undefined) return { ...current, etag, writtenAt: now };
      const state = await readLease(table, lease.department);
      if (state?.holder !== lease.holder) return undefined;
      current = { ...current, etag: state.etag };
      return RETRY;
    },
  );
}

/**
 * Frees a held lease. With `whenRequested: 'report'`, a request recorded since this holder last
 * wrote the lease keeps it held and is reported (the caller drains again); with `'ignore'` the
 * lease is freed anyway (the caller has sent a nudge of its own that continues the drain).
 *
 * @throws {ContentionError} when the lease kept changing under this call.
 * @throws {DomainError} for storage faults.
 */
export async function releaseDrainLease(
  table: TableAccess,
  lease: HeldLease,
  clock: LeaseClock,
  whenRequested: 'report' | 'ignore',
): Promise<Release> {
  let current = lease;
  return retryOptimistically(leaseRetry(lease.department), async (): Promise<Release | Retry> => {
    const etag = await writeLease(table, lease.department, current.etag, {
      holder: '',
      expiresAt: 0,
      requested: false,
    });
    if (etag !== undefined) return { released: true };
    const state = await readLease(table, lease.department);
    if (state?.holder !== lease.holder) return { lost: true };
    current = { ...current, etag: state.etag };
    if (whenRequested === 'report') return { requested: current };
    return RETRY;
  });
}
