/**
 * Which requests the fault proxy breaks, and how: a seeded, reproducible plan.
 *
 * Every request to a service the plan covers draws one number to decide whether it faults (with
 * probability `rate`) and, if so, a second one to pick the kind. The same seed and the same order
 * of requests give the same faults, so a failing reliability test can be replayed.
 */

/** The storage services Azurite serves, one proxy port each. */
export const STORAGE_SERVICES = ['blob', 'queue', 'table'] as const;
/** One storage service the proxy fronts. */
export type StorageService = (typeof STORAGE_SERVICES)[number];

/**
 * - `500` / `503`: answered by the proxy (storage never sees the request), `InternalError` /
 *   `ServerBusy`; `503-retry-after` adds `Retry-After: 1`.
 * - `timeout`: the request is held without an answer for `timeoutMs`, then its connection dropped.
 * - `reset`: the connection is reset before the request is forwarded.
 * - `reset-after`: the request is forwarded and storage applies it, then the connection is reset
 *   instead of returning the answer (the client cannot tell whether its write happened).
 */
export const FAULT_KINDS = [
  '500',
  '503',
  '503-retry-after',
  'timeout',
  'reset',
  'reset-after',
] as const;
/** One kind of fault the proxy injects. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The faults to inject: which kinds, on which services, how often. */
export interface FaultSettings {
  /** Fraction of requests to break, 0–1. */
  rate: number;
  /** Kinds to choose from, uniformly. */
  kinds: FaultKind[];
  /** Services to break; all three when omitted. */
  services?: StorageService[];
  /** How long a `timeout` fault holds a request before dropping it (default 10 s). */
  timeoutMs?: number;
  /** Seed of the fault sequence; random when omitted. */
  seed?: number;
}

/** How long a `timeout` fault holds a request (ms) unless told otherwise. */
export const DEFAULT_FAULT_TIMEOUT_MS = 10_000;

/** What to do with one request. */
export interface FaultPlan {
  /** The fault for the next request to `service`, or `undefined` to pass it through. */
  next(service: StorageService): FaultKind | undefined;
  readonly timeoutMs: number;
  readonly seed: number;
}

/**
 * A small, fast, seedable PRNG (mulberry32): uniform numbers in [0, 1).
 * Not cryptographic; it only has to make fault sequences reproducible.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Checks fault settings, naming the bad field.
 *
 * @throws {RangeError} for a rate outside 0–1, an empty or unknown kind list, an unknown service,
 *   or a negative timeout.
 */
export function validateFaultSettings(settings: FaultSettings): void {
  if (!Number.isFinite(settings.rate) || settings.rate < 0 || settings.rate > 1) {
    throw new RangeError(`Fault rate must be between 0 and 1, got ${settings.rate}.`);
  }
  if (settings.kinds.length === 0) throw new RangeError('Fault kinds must not be empty.');
  for (const kind of settings.kinds) {
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new RangeError(`Unknown fault kind "${kind}"; use one of ${FAULT_KINDS.join(', ')}.`);
    }
  }
  for (const service of settings.services ?? []) {
    if (!(STORAGE_SERVICES as readonly string[]).includes(service)) {
      throw new RangeError(`Unknown service "${service}"; use blob, queue or table.`);
    }
  }
  if (settings.timeoutMs !== undefined && !(settings.timeoutMs >= 0)) {
    throw new RangeError(`Fault timeoutMs must be 0 or more, got ${settings.timeoutMs}.`);
  }
}

/**
 * Builds the plan for `settings`.
 *
 * @throws {RangeError} when the settings are invalid (see {@link validateFaultSettings}).
 */
export function createFaultPlan(settings: FaultSettings): FaultPlan {
  validateFaultSettings(settings);
  const seed = settings.seed ?? Math.floor(Math.random() * 2 ** 32);
  const random = seededRandom(seed);
  const services = new Set<StorageService>(settings.services ?? STORAGE_SERVICES);
  const kinds = [...settings.kinds];
  return {
    seed,
    timeoutMs: settings.timeoutMs ?? DEFAULT_FAULT_TIMEOUT_MS,
    next(service) {
      if (!services.has(service)) return undefined;
      if (random() >= settings.rate) return undefined;
      return kinds[Math.floor(random() * kinds.length)];
    },
  };
}
