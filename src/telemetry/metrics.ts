/**
 * The app's OpenTelemetry metrics (docs/telemetry.md lists them), recorded through the global
 * `@opentelemetry/api` only: src/ never sees an SDK, and with no SDK registered every call here is
 * a no-op. Nothing here reads storage — each figure is a by-product of work the app does anyway
 * (a drain's own outbox read, a sweep, a flush, a timer's run).
 *
 * The figures behind the gauges are kept by one {@link DirectoryMetrics} per process, built in the
 * composition root; a gauge reports an observation only while it is younger than a window.
 * Why: docs/telemetry.md "Metrics".
 */
import {
  metrics,
  ValueType,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  type ObservableResult,
} from '@opentelemetry/api';
import type { ThrottleEvent } from '../storage/throttleCounts';

/** Meter name of every instrument (agreed with the operations view and the alerts). */
export const METER_NAME = 'table-patterns-directory';

/** The instrument names, as documented and alerted on. */
export const MetricNames = {
  indexLag: 'directory.index.lag',
  outboxPending: 'directory.outbox.pending',
  outboxOldestAge: 'directory.outbox.oldest_age',
  drainRounds: 'directory.drain.rounds',
  drainRoundDuration: 'directory.drain.round.duration',
  poisonLength: 'directory.queue.poison.length',
  logBatchesWaiting: 'directory.logs.batches.waiting',
  logFlushLag: 'directory.logs.flush.lag',
  timerRuns: 'directory.timer.runs',
  sasIssued: 'directory.sas.issued',
  authRefusals: 'directory.auth.refusals',
  storageThrottled: 'directory.storage.throttled',
} as const;

/** How a drain round ended. */
export type DrainRoundOutcome = 'committed' | 'lost' | 'empty' | 'failed';

/** How long a gauge observation is reported after it was made, by default (ms). */
export const GAUGE_WINDOW_MS = 10 * 60_000;

interface Instruments {
  indexLag: Histogram;
  drainRounds: Counter;
  drainRoundDuration: Histogram;
  logFlushLag: Histogram;
  timerRuns: Counter;
  sasIssued: Counter;
  authRefusals: Counter;
  storageThrottled: Counter;
}

/** Options of {@link DirectoryMetrics}. */
export interface DirectoryMetricsOptions {
  /** The clock, ms since 1970 (default `Date.now`; tests pass a fake). */
  now?: () => number;
  /** Age past which a gauge observation is no longer reported (default {@link GAUGE_WINDOW_MS}). */
  gaugeWindowMs?: number;
  /** Where the instruments come from (default: the global provider, as it is when used). */
  meterProvider?: () => MeterProvider;
}

/** A gauge's figures by key, each with the time it was observed; stale ones are dropped. */
class FreshObservations<T> {
  private readonly seen = new Map<string, { value: T; at: number }>();

  constructor(
    private readonly now: () => number,
    private readonly windowMs: number,
  ) {}

  set(key: string, value: T): void {
    this.seen.set(key, { value, at: this.now() });
  }

  /**
   * The observations made within the window, each with when it was made; older ones are forgotten.
   */
  fresh(): [string, T, number][] {
    const cutoff = this.now() - this.windowMs;
    const found: [string, T, number][] = [];
    for (const [key, { value, at }] of this.seen) {
      if (at < cutoff) this.seen.delete(key);
      else found.push([key, value, at]);
    }
    return found;
  }
}

/** The one key of a gauge without attributes. */
const ONLY = '';

/**
 * The app's metrics: counters and histograms recorded as work happens, and the last figures seen
 * for the observable gauges, reported while fresh. One per process (the composition root).
 */
export class DirectoryMetrics {
  private readonly now: () => number;
  private readonly provider: () => MeterProvider;
  private readonly outboxSeen: FreshObservations<{ pending: number; oldest: number }>;
  private readonly poisonSeen: FreshObservations<number>;
  private readonly logBatchesSeen: FreshObservations<number>;
  private current: { provider: MeterProvider; instruments: Instruments } | undefined;

  constructor(options: DirectoryMetricsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.provider = options.meterProvider ?? (() => metrics.getMeterProvider());
    const windowMs = options.gaugeWindowMs ?? GAUGE_WINDOW_MS;
    this.outboxSeen = new FreshObservations(this.now, windowMs);
    this.poisonSeen = new FreshObservations(this.now, windowMs);
    this.logBatchesSeen = new FreshObservations(this.now, windowMs);
  }

  private instruments(): Instruments {
    // No proxy meter in the API (unlike tracers): a meter taken before the worker registers its
    // provider would stay a no-op, so instruments are taken again when the provider changes.
    const provider = this.provider();
    if (this.current?.provider === provider) return this.current.instruments;
    const meter = provider.getMeter(METER_NAME);
    this.observeGauges(meter);
    const built = createInstruments(meter);
    this.current = { provider, instruments: built };
    return built;
  }

  /** Registers the observable gauges, which report the fresh figures this object keeps. */
  private observeGauges(meter: Meter): void {
    const int = { valueType: ValueType.INT };
    const observe = (
      name: string,
      description: string,
      unit: string,
      report: (result: ObservableResult) => void,
    ): void => {
      meter.createObservableGauge(name, { description, unit, ...int }).addCallback(report);
    };
    observe(
      MetricNames.outboxPending,
      'Outbox rows seen pending at the last drain or sweep of the department (within the window).',
      '{row}',
      (result) => {
        for (const [department, seen] of this.outboxSeen.fresh()) {
          result.observe(seen.pending, { department });
        }
      },
    );
    meter
      .createObservableGauge(MetricNames.outboxOldestAge, {
        description:
          'Age of the oldest outbox row pending at the last drain or sweep, when it was seen (within the window).',
        unit: 's',
      })
      .addCallback((result) => {
        // The age when it was seen, not since: the row may have been drained by another instance
        // since (this one handed over, or lost its lease), and an age made to grow from an old
        // read would raise the alert for a backlog long gone. A backlog that stays is read again
        // — by every drain round, and by the sweep — and its age grows with each read.
        for (const [department, seen, at] of this.outboxSeen.fresh()) {
          const age = seen.pending > 0 ? Math.max(0, (at - seen.oldest) / 1000) : 0;
          result.observe(age, { department });
        }
      });
    observe(
      MetricNames.poisonLength,
      'Messages in a poison queue, as a timer last sampled it (within the window).',
      '{message}',
      (result) => {
        for (const [queue, length] of this.poisonSeen.fresh()) result.observe(length, { queue });
      },
    );
    observe(
      MetricNames.logBatchesWaiting,
      'log-batches messages waiting, as the last flush saw the queue (within the window).',
      '{batch}',
      (result) => {
        for (const [, waiting] of this.logBatchesSeen.fresh()) result.observe(waiting);
      },
    );
  }

  /** Records the index lag of drained outbox rows: commit time (ms since 1970) to now. */
  recordIndexLag(department: string, committedAt: readonly number[]): void {
    if (committedAt.length === 0) return;
    const { indexLag } = this.instruments();
    const at = this.now();
    for (const committed of committedAt) {
      indexLag.record(Math.max(0, at - committed), { department });
    }
  }

  /**
   * What a drain (or the sweep through it) saw of a department's outbox: `pending` rows, the
   * oldest committed at `oldest` (ms since 1970). A drain that read its outbox to the end reports
   * 0.
   */
  observeOutbox(department: string, pending: number, oldest = this.now()): void {
    this.instruments();
    this.outboxSeen.set(department, { pending, oldest });
  }

  /** Counts a drain round and its duration. */
  recordDrainRound(outcome: DrainRoundOutcome, durationMs: number): void {
    const attributes: Attributes = { outcome };
    const { drainRounds, drainRoundDuration } = this.instruments();
    drainRounds.add(1, attributes);
    drainRoundDuration.record(durationMs, attributes);
  }

  /** What a timer saw of a poison queue's length (approximate, as the queue reports it). */
  observePoisonQueue(queue: string, length: number): void {
    this.instruments();
    this.poisonSeen.set(queue, length);
  }

  /** What a log flush saw of the `log-batches` backlog, and the lag of the batches it wrote. */
  recordLogFlush(waiting: number | undefined, enqueuedAt: readonly number[]): void {
    const { logFlushLag } = this.instruments();
    if (waiting !== undefined) this.logBatchesSeen.set(ONLY, waiting);
    const at = this.now();
    for (const enqueued of enqueuedAt) logFlushLag.record(Math.max(0, at - enqueued));
  }

  /** Counts a timer function's run. */
  recordTimerRun(timer: string, outcome: 'succeeded' | 'failed' | 'deferred'): void {
    this.instruments().timerRuns.add(1, { timer, outcome });
  }

  /** Counts an issued SAS token (`kind`: what it grants, e.g. `table`, `photo-read`). */
  recordSasIssued(kind: string): void {
    this.instruments().sasIssued.add(1, { kind });
  }

  /**
   * Counts a storage try answered `ServerBusy` (src/storage/throttleCounts.ts): per account,
   * service, table/queue/container and table partition.
   */
  recordStorageThrottle(event: ThrottleEvent): void {
    this.instruments().storageThrottled.add(1, {
      account: event.account,
      service: event.service,
      resource: event.resource,
      ...(event.partitionKey !== undefined && { partition: event.partitionKey }),
      code: event.code,
    });
  }

  /** Counts a request an authorization rule refused. */
  recordAuthRefusal(rule: string): void {
    this.instruments().authRefusals.add(1, { rule });
  }
}

/** The counters and histograms, recorded as work happens. */
function createInstruments(meter: Meter): Instruments {
  const int = { valueType: ValueType.INT };
  return {
    indexLag: meter.createHistogram(MetricNames.indexLag, {
      description: 'Outbox commit to change drained into the indexes.',
      unit: 'ms',
    }),
    drainRounds: meter.createCounter(MetricNames.drainRounds, {
      description: 'Outbox drain rounds by outcome.',
      unit: '{round}',
      ...int,
    }),
    drainRoundDuration: meter.createHistogram(MetricNames.drainRoundDuration, {
      description: 'Duration of one outbox drain round.',
      unit: 'ms',
    }),
    logFlushLag: meter.createHistogram(MetricNames.logFlushLag, {
      description: 'Log batch enqueued to its lines written into the hour blob.',
      unit: 'ms',
    }),
    timerRuns: meter.createCounter(MetricNames.timerRuns, {
      description: 'Timer function runs by outcome.',
      unit: '{run}',
      ...int,
    }),
    sasIssued: meter.createCounter(MetricNames.sasIssued, {
      description: 'SAS tokens issued by kind.',
      unit: '{token}',
      ...int,
    }),
    authRefusals: meter.createCounter(MetricNames.authRefusals, {
      description: 'Requests refused by an authorization rule.',
      unit: '{request}',
      ...int,
    }),
    storageThrottled: meter.createCounter(MetricNames.storageThrottled, {
      description:
        'Storage tries answered ServerBusy (each retried try counted), by account and partition.',
      unit: '{request}',
      ...int,
    }),
  };
}
