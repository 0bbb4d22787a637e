/**
 * The scale case's pure parts: one step's figures per employee (or per log line), idle polling
 * taken out of a step's requests, steps bounded by a timeout and a total budget (a step that runs
 * out of time is a result, not a crash), the size lists read from the environment, and the table
 * the case prints.
 */
import type { TrafficCounts } from '../types';

/** How a step ended. */
export type StepStatus = 'ok' | 'timedOut' | 'failed' | 'skipped';

/** One step at one size. */
export interface StepResult {
  /** e.g. `import`, `list`, `raw list (SDK)`. */
  step: string;
  /** The nominal size: employees in the department, or log lines in the hour. */
  size: number;
  unit: 'employee' | 'log line';
  /** Rows the step actually covered (fewer than `size` when it timed out part-way). */
  units: number;
  status: StepStatus;
  wallMs: number;
  requests: number;
  /** Entities storage returned to table queries and reads during the step. */
  entities: number;
  bytes: number;
  msPerUnit: number | null;
  requestsPerUnit: number | null;
  entitiesPerUnit: number | null;
  /** Whether the step is the raw-SDK measurement of an access (the emulator's own cost). */
  raw: boolean;
  note?: string;
}

/** The scale case's settings, as it ran. */
export interface ScaleSettings {
  /** Employees in the one department, one fresh host per size. */
  sizes: number[];
  /** Entries in the log hour, one fresh host per size. */
  logSizes: number[];
  stepTimeoutMs: number;
  budgetMs: number;
}

/** What the scale case keeps in its run's report (its `data`): every step at every size. */
export interface ScaleData {
  settings: ScaleSettings;
  steps: StepResult[];
}

/** `total / units`, rounded to 4 significant digits; `null` for no units. */
export function perUnit(total: number, units: number): number | null {
  if (!(units > 0)) return null;
  return Number((total / units).toPrecision(4));
}

/** What a step measured, before the per-unit figures. */
export interface StepFigures {
  step: string;
  size: number;
  unit: StepResult['unit'];
  units: number;
  status: StepStatus;
  wallMs: number;
  requests: number;
  entities: number;
  bytes: number;
  raw?: boolean;
  note?: string;
}

/** A step's figures with time, requests and entities per unit. */
export function stepResult(figures: StepFigures): StepResult {
  const { raw = false, note, ...rest } = figures;
  return {
    ...rest,
    wallMs: Math.round(figures.wallMs),
    msPerUnit: perUnit(figures.wallMs, figures.units),
    requestsPerUnit: perUnit(figures.requests, figures.units),
    entitiesPerUnit: perUnit(figures.entities, figures.units),
    raw,
    ...(note === undefined ? {} : { note }),
  };
}

/** Requests per ms of each `service:METHOD` kind while the host sat idle (its trigger polls). */
export type IdleRates = Record<string, number>;

/** Idle rates from the traffic of an idle period of `ms`. */
export function idleRates(traffic: TrafficCounts, ms: number): IdleRates {
  if (!(ms > 0)) return {};
  return Object.fromEntries(Object.entries(traffic.byKind).map(([kind, n]) => [kind, n / ms]));
}

/**
 * The requests of a step of `ms` minus what the host would have made idle in that time, per kind
 * (never below zero for a kind): trigger polls are the host's cost of existing, not the step's.
 */
export function requestsBeyondIdle(traffic: TrafficCounts, idle: IdleRates, ms: number): number {
  let total = 0;
  for (const [kind, n] of Object.entries(traffic.byKind)) {
    total += Math.max(0, n - (idle[kind] ?? 0) * ms);
  }
  return Math.round(total);
}

/** How far a step got: it updates `done` as it goes, so a timeout can say where it stopped. */
export interface StepProgress {
  done: number;
}

/** The outcome of {@link runBounded}. */
export type BoundedOutcome<T> =
  | { status: 'ok'; value: T; elapsedMs: number; done: number }
  | { status: 'timedOut'; elapsedMs: number; done: number }
  | { status: 'failed'; error: unknown; elapsedMs: number; done: number };

/**
 * Runs `work` for at most `timeoutMs`. On time-out the signal given to `work` aborts (so it stops
 * issuing requests) and the outcome says how far `progress.done` got; a throw is a `failed`
 * outcome. Never rejects.
 */
export async function runBounded<T>(
  timeoutMs: number,
  work: (signal: AbortSignal, progress: StepProgress) => Promise<T>,
  now: () => number = Date.now,
): Promise<BoundedOutcome<T>> {
  const controller = new AbortController();
  const progress: StepProgress = { done: 0 };
  const started = now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timedOut'>((resolve) => {
    timer = setTimeout(
      () => {
        controller.abort(new Error(`Step timed out after ${timeoutMs} ms.`));
        resolve('timedOut');
      },
      Math.max(0, timeoutMs),
    );
  });
  const running = work(controller.signal, progress).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  try {
    const first = await Promise.race([running, timedOut]);
    const elapsedMs = now() - started;
    if (first === 'timedOut') {
      // Let the aborted work settle, so no request of it is counted in the next step.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((resolve) => (grace = setTimeout(resolve, 5_000)))]);
      clearTimeout(grace);
      return { status: 'timedOut', elapsedMs, done: progress.done };
    }
    if ('error' in first)
      return { status: 'failed', error: first.error, elapsedMs, done: progress.done };
    return { status: 'ok', value: first.value, elapsedMs, done: progress.done };
  } finally {
    clearTimeout(timer);
  }
}

/** A time budget shared by the steps of a run. */
export interface Budget {
  /** ms left (0 when spent). */
  remaining(): number;
  /** The timeout a step gets: its own limit, cut to what is left. */
  stepTimeout(stepLimitMs: number): number;
}

/** A budget of `totalMs` from now. */
export function createBudget(totalMs: number, now: () => number = Date.now): Budget {
  const deadline = now() + totalMs;
  const remaining = (): number => Math.max(0, deadline - now());
  return { remaining, stepTimeout: (limit) => Math.min(limit, remaining()) };
}

/**
 * Reads a comma-separated list of sizes (`"1000,5000,20000"`), sorted ascending without
 * duplicates; `fallback` when unset or blank.
 *
 * @throws {Error} naming `name` when an item is not a whole number in 1..`max`.
 */
export function parseSizeList(
  raw: string | undefined,
  name: string,
  fallback: readonly number[],
  max = 999_999,
): number[] {
  if (raw === undefined || raw.trim() === '') return [...fallback];
  const sizes = raw.split(',').map((item) => {
    const text = item.trim().replace(/_/g, '');
    const value = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(value >= 1 && value <= max))
      throw new Error(`${name} must list whole numbers in 1..${max}, got "${item.trim()}".`);
    return value;
  });
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/**
 * Reads a whole number of ms (`fallback` when unset or blank).
 *
 * @throws {Error} naming `name` when it is not a whole number.
 */
export function parseMs(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim()))
    throw new Error(`${name} must be a whole number of ms, got "${raw}".`);
  return Number(raw.trim());
}

function figure(value: number | null, digits: number): string {
  if (value === null) return '–';
  if (value !== 0 && Math.abs(value) < 10 ** -digits) return value.toPrecision(2);
  return value.toFixed(digits);
}

const STATUS_MARK: Record<StepStatus, string> = {
  ok: '',
  timedOut: 'TIMED OUT',
  failed: 'FAILED',
  skipped: 'skipped',
};

/**
 * The printed table: one row per step and size, with ms, requests and entities per unit and what
 * became of the step (a timed-out step says how far it got).
 */
export function formatScaleTable(results: readonly StepResult[]): string {
  const header = [
    'step',
    'size',
    'unit',
    'covered',
    'ms/unit',
    'req/unit',
    'ent/unit',
    'wall s',
    'status',
  ];
  const rows = results.map((r) => [
    r.step,
    r.size.toLocaleString('en-US'),
    r.unit,
    r.units.toLocaleString('en-US'),
    figure(r.msPerUnit, 3),
    figure(r.requestsPerUnit, 4),
    figure(r.entitiesPerUnit, 3),
    (r.wallMs / 1000).toFixed(1),
    [STATUS_MARK[r.status], r.note ?? ''].filter(Boolean).join(': '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const left = new Set([0, 2, 8]);
  return [header, ...rows]
    .map((cells) =>
      cells
        .map((cell, i) => (left.has(i) ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
