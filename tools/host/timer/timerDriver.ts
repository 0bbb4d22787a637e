/**
 * The timer trigger (`app.timer`): runs each function at the occurrences of its schedule (UTC),
 * once at startup with `runOnStartup`, and at once with `isPastDue: true` when the persisted
 * schedule status shows an occurrence was missed while the app was down (`useMonitor`, on by
 * default for schedules at least a minute apart). Runs of one timer never overlap.
 */
import { resolveBindingExpressions } from '../config/bindingExpressions';
import type { TriggerDriver } from '../drivers';
import { stringOption, type HostFunction } from '../functions';
import { describeError, type Logger } from '../log';
import type { FunctionRunner } from '../runner';
import { isMonitorable, parseSchedule, type Schedule } from './schedule';
import type { ScheduleMonitor } from './scheduleMonitor';
import { checkPastDue, statusAfterRun, type ScheduleStatus } from './scheduleStatus';

/** How the timer driver schedules and invokes functions. */
export interface TimerDriverOptions {
  env: Record<string, string | undefined>;
  runner: FunctionRunner;
  logger: Logger;
  /** Created on first use, so apps without timers never touch the hosts container. */
  monitor: () => ScheduleMonitor;
  now?: () => Date;
}

/** setTimeout's limit; longer waits are taken in steps. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

interface TimerState {
  fn: HostFunction;
  schedule: Schedule;
  runOnStartup: boolean;
  useMonitor: boolean;
  status: ScheduleStatus | null;
  timeout?: NodeJS.Timeout;
  /** The running invocation, if any (runs are serialized). */
  running: Promise<void>;
}

function booleanOption(fn: HostFunction, option: string, fallback: boolean): boolean {
  const value = fn.trigger.binding[option];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  throw new Error(`Function '${fn.name}': timer option '${option}' must be true or false.`);
}

/** The driver's state: its settings, the timers by function name, the schedule monitor. */
interface Timers {
  config: TimerDriverOptions;
  now: () => Date;
  timers: Map<string, TimerState>;
  stopped: boolean;
  monitor: ScheduleMonitor | undefined;
}

/** The driver of timer-triggered functions. */
export function createTimerDriver(config: TimerDriverOptions): TriggerDriver {
  const driver: Timers = {
    config,
    now: config.now ?? (() => new Date()),
    timers: new Map<string, TimerState>(),
    stopped: false,
    monitor: undefined,
  };
  const { timers } = driver;
  return {
    triggerTypes: ['timertrigger'],
    add(fn) {
      timers.set(fn.name, timerOf(driver, fn));
    },
    describe(fn) {
      const state = timers.get(fn.name)!;
      return `timerTrigger '${state.schedule.text}' (UTC)${state.runOnStartup ? ', runOnStartup' : ''}`;
    },
    async start() {
      for (const state of timers.values()) {
        void startTimer(driver, state).catch((error) =>
          config.logger.log(
            'error',
            state.fn.name,
            `The timer could not start: ${describeError(error)}`,
          ),
        );
      }
    },
    async stop(graceMs) {
      driver.stopped = true;
      for (const state of timers.values()) clearTimeout(state.timeout);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...timers.values()].map((state) => state.running)),
        new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    },
    async runOnce(fn) {
      await fire(driver, timers.get(fn.name)!, false, driver.now());
    },
  };
}

/** The schedule monitor, created on first use. */
function monitorOf(driver: Timers): ScheduleMonitor {
  return (driver.monitor ??= driver.config.monitor());
}

/**
 * A function's timer from its binding: the schedule (binding expressions resolved), its options.
 *
 * @throws {Error} when the schedule is missing or invalid, or an option is not a boolean.
 */
function timerOf({ config, now }: Timers, fn: HostFunction): TimerState {
  const raw = stringOption(fn.trigger.binding, 'schedule');
  if (raw === undefined)
    throw new Error(`Function '${fn.name}': a timer trigger needs a 'schedule'.`);
  let schedule: Schedule;
  try {
    schedule = parseSchedule(resolveBindingExpressions(raw, config.env));
  } catch (error) {
    throw new Error(`Function '${fn.name}': ${(error as Error).message}`, { cause: error });
  }
  const useMonitor = booleanOption(fn, 'useMonitor', true) && isMonitorable(schedule, now());
  return {
    fn,
    schedule,
    runOnStartup: booleanOption(fn, 'runOnStartup', false),
    useMonitor,
    status: null,
    running: Promise.resolve(),
  };
}

/**
 * Starts one timer: reads its schedule status (a missed occurrence runs it at once, past due),
 * runs it on startup when asked, then waits for its next occurrence.
 */
async function startTimer(driver: Timers, state: TimerState): Promise<void> {
  const { config, now } = driver;
  let pastDue = false;
  if (state.useMonitor) {
    try {
      const check = checkPastDue(
        await monitorOf(driver).read(state.fn.name),
        state.schedule,
        now(),
      );
      state.status = check.status;
      pastDue = check.pastDue;
      if (check.changed) await monitorOf(driver).write(state.fn.name, check.status);
    } catch (error) {
      config.logger.log(
        'warning',
        state.fn.name,
        `Could not read the schedule status (runs continue without it): ${(error as Error).message}`,
      );
    }
  }
  if (pastDue || state.runOnStartup) await fire(driver, state, pastDue, now());
  scheduleNext(driver, state);
}

/** Waits for the timer's next occurrence (in steps past setTimeout's limit), runs it, repeats. */
function scheduleNext(driver: Timers, state: TimerState): void {
  const { config, now } = driver;
  if (driver.stopped) return;
  const occurrence = state.schedule.next(now());
  const wait = (): void => {
    const remaining = occurrence.getTime() - now().getTime();
    if (remaining > 0) {
      state.timeout = setTimeout(wait, Math.min(remaining, MAX_TIMEOUT_MS));
      return;
    }
    void fire(driver, state, false, occurrence).then(() => scheduleNext(driver, state));
  };
  config.logger.log('debug', state.fn.name, `Next occurrence: ${occurrence.toISOString()}`);
  wait();
}

/** One run of the timer, after the one running (runs never overlap), then its status saved. */
function fire(
  driver: Timers,
  state: TimerState,
  isPastDue: boolean,
  occurrence: Date,
): Promise<void> {
  const { config, now } = driver;
  const run = state.running.then(async () => {
    const timerInfo = {
      Schedule: { AdjustForDST: true },
      ScheduleStatus: state.status,
      IsPastDue: isPastDue,
    };
    try {
      await config.runner.run(state.fn, {
        data: { json: JSON.stringify(timerInfo) },
        metadata: {},
        reason: isPastDue
          ? 'Timer fired (past due).'
          : `Timer fired at ${occurrence.toISOString()}`,
      });
    } catch {
      // The invoker logged it; a failed timer run waits for its next occurrence, as in Azure.
    }
    if (state.useMonitor) await saveStatus(driver, state, occurrence, now());
  });
  state.running = run;
  return run;
}

/** Records the occurrence that ran in the timer's schedule status (a failure only warns). */
async function saveStatus(
  driver: Timers,
  state: TimerState,
  occurrence: Date,
  at: Date,
): Promise<void> {
  state.status = statusAfterRun(state.schedule, occurrence, at);
  try {
    await monitorOf(driver).write(state.fn.name, state.status);
  } catch (error) {
    driver.config.logger.log(
      'warning',
      state.fn.name,
      `Could not save the schedule status: ${(error as Error).message}`,
    );
  }
}
