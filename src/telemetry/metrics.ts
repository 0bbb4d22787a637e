/**
 * The app's OpenTelemetry metrics (docs/telemetry.md lists them), recorded through the global
 * `@opentelemetry/api` only: src/ never sees an SDK, and with no SDK registered every call here is
 * a no-op. Nothing here reads storage — each figure is a by-product of work the app does anyway
 * (a drain's own outbox read, a sweep, a flush, a timer's run).
 *
 * The API has no proxy meter (unlike tracers): a meter taken before the worker registers its
 * provider would stay a no-op. So instruments are taken from the current provider on use, and
 * taken again when the provider changes.
 */
import {
  metrics,
  ValueType,
  type Attributes,
  type Counter,
  type Histogram,
  type MeterProvider,
  type ObservableResult,
} from '@opentelemetry/api';

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
} as const;

/** How a drain round ended. */
export type DrainRoundOutcome = 'committed' | 'lost' | 'empty' | 'failed';

interface Instruments {
  indexLag: Histogram;
  drainRounds: Counter;
  drainRoundDuration: Histogram;
  logFlushLag: Histogram;
  timerRuns: Counter;
  sasIssued: Counter;
  authRefusals: Counter;
}

/** What the observable gauges report: the last figures seen, kept in this process. */
const outboxSeen = new Map<string, { pending: number; oldest: number }>();
const poisonSeen = new Map<string, number>();
let logBatchesSeen: number | undefined;
let now: () => number = Date.now;

let current: { provider: MeterProvider; instruments: Instruments } | undefined;

function instruments(): Instruments {
  const provider = metrics.getMeterProvider();
  if (current?.provider === provider) return current.instruments;
  const meter = provider.getMeter(METER_NAME);
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
    'Outbox rows seen pending at the last drain or sweep of the department.',
    '{row}',
    (result) => {
      for (const [department, seen] of outboxSeen) result.observe(seen.pending, { department });
    },
  );
  meter
    .createObservableGauge(MetricNames.outboxOldestAge, {
      description: 'Age of the oldest outbox row seen pending at the last drain or sweep.',
      unit: 's',
    })
    .addCallback((result) => {
      for (const [department, seen] of outboxSeen) {
        const age = seen.pending > 0 ? Math.max(0, (now() - seen.oldest) / 1000) : 0;
        result.observe(age, { department });
      }
    });
  observe(
    MetricNames.poisonLength,
    'Messages in a poison queue, as a timer last sampled it.',
    '{message}',
    (result) => {
      for (const [queue, length] of poisonSeen) result.observe(length, { queue });
    },
  );
  observe(
    MetricNames.logBatchesWaiting,
    'log-batches messages waiting, as the last flush saw the queue.',
    '{batch}',
    (result) => {
      if (logBatchesSeen !== undefined) result.observe(logBatchesSeen);
    },
  );
  const built: Instruments = {
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
  };
  current = { provider, instruments: built };
  return built;
}

/** Records the index lag of drained outbox rows: commit time (ms since 1970) to now. */
export function recordIndexLag(department: string, committedAt: readonly number[]): void {
  if (committedAt.length === 0) return;
  const { indexLag } = instruments();
  const at = now();
  for (const committed of committedAt) indexLag.record(Math.max(0, at - committed), { department });
}

/**
 * What a drain (or the sweep through it) saw of a department's outbox: `pending` rows, the
 * oldest committed at `oldest` (ms since 1970). A drain that read its outbox to the end reports 0.
 */
export function observeOutbox(department: string, pending: number, oldest = now()): void {
  instruments();
  outboxSeen.set(department, { pending, oldest });
}

/** Counts a drain round and its duration. */
export function recordDrainRound(outcome: DrainRoundOutcome, durationMs: number): void {
  const attributes: Attributes = { outcome };
  const { drainRounds, drainRoundDuration } = instruments();
  drainRounds.add(1, attributes);
  drainRoundDuration.record(durationMs, attributes);
}

/** What a timer saw of a poison queue's length (approximate, as the queue reports it). */
export function observePoisonQueue(queue: string, length: number): void {
  instruments();
  poisonSeen.set(queue, length);
}

/** What a log flush saw of the `log-batches` backlog, and the lag of the batches it wrote. */
export function recordLogFlush(waiting: number | undefined, enqueuedAt: readonly number[]): void {
  const { logFlushLag } = instruments();
  if (waiting !== undefined) logBatchesSeen = waiting;
  const at = now();
  for (const enqueued of enqueuedAt) logFlushLag.record(Math.max(0, at - enqueued));
}

/** Counts a timer function's run. */
export function recordTimerRun(timer: string, outcome: 'succeeded' | 'failed'): void {
  instruments().timerRuns.add(1, { timer, outcome });
}

/** Counts an issued SAS token (`kind`: what it grants, e.g. `table`, `photo-read`). */
export function recordSasIssued(kind: string): void {
  instruments().sasIssued.add(1, { kind });
}

/** Counts a request an authorization rule refused. */
export function recordAuthRefusal(rule: string): void {
  instruments().authRefusals.add(1, { rule });
}

/** Forgets the figures kept for the gauges and sets the clock (tests). */
export function resetMetricState(clock: () => number = Date.now): void {
  outboxSeen.clear();
  poisonSeen.clear();
  logBatchesSeen = undefined;
  now = clock;
  current = undefined;
}
