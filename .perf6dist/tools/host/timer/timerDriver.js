"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createTimerDriver = createTimerDriver;
/**
 * The timer trigger (`app.timer`): runs each function at the occurrences of its schedule (UTC),
 * once at startup with `runOnStartup`, and at once with `isPastDue: true` when the persisted
 * schedule status shows an occurrence was missed while the app was down (`useMonitor`, on by
 * default for schedules at least a minute apart). Runs of one timer never overlap.
 */
const bindingExpressions_1 = require("../config/bindingExpressions");
const functions_1 = require("../functions");
const log_1 = require("../log");
const schedule_1 = require("./schedule");
const scheduleStatus_1 = require("./scheduleStatus");
/** setTimeout's limit; longer waits are taken in steps. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
function booleanOption(fn, option, fallback) {
    const value = fn.trigger.binding[option];
    if (value === undefined || value === null)
        return fallback;
    if (typeof value === 'boolean')
        return value;
    throw new Error(`Function '${fn.name}': timer option '${option}' must be true or false.`);
}
function createTimerDriver(config) {
    const now = config.now ?? (() => new Date());
    const timers = new Map();
    let stopped = false;
    let monitor;
    const getMonitor = () => (monitor ??= config.monitor());
    const fire = (state, isPastDue, occurrence) => {
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
            }
            catch {
                // The invoker logged it; a failed timer run waits for its next occurrence, as in Azure.
            }
            if (state.useMonitor) {
                state.status = (0, scheduleStatus_1.statusAfterRun)(state.schedule, occurrence, now());
                try {
                    await getMonitor().write(state.fn.name, state.status);
                }
                catch (error) {
                    config.logger.log('warning', state.fn.name, `Could not save the schedule status: ${error.message}`);
                }
            }
        });
        state.running = run;
        return run;
    };
    const scheduleNext = (state) => {
        if (stopped)
            return;
        const occurrence = state.schedule.next(now());
        const wait = () => {
            const remaining = occurrence.getTime() - now().getTime();
            if (remaining > 0) {
                state.timeout = setTimeout(wait, Math.min(remaining, MAX_TIMEOUT_MS));
                return;
            }
            void fire(state, false, occurrence).then(() => scheduleNext(state));
        };
        config.logger.log('debug', state.fn.name, `Next occurrence: ${occurrence.toISOString()}`);
        wait();
    };
    const startTimer = async (state) => {
        let pastDue = false;
        if (state.useMonitor) {
            try {
                const check = (0, scheduleStatus_1.checkPastDue)(await getMonitor().read(state.fn.name), state.schedule, now());
                state.status = check.status;
                pastDue = check.pastDue;
                if (check.changed)
                    await getMonitor().write(state.fn.name, check.status);
            }
            catch (error) {
                config.logger.log('warning', state.fn.name, `Could not read the schedule status (runs continue without it): ${error.message}`);
            }
        }
        if (pastDue || state.runOnStartup)
            await fire(state, pastDue, now());
        scheduleNext(state);
    };
    return {
        triggerTypes: ['timertrigger'],
        add(fn) {
            const raw = (0, functions_1.stringOption)(fn.trigger.binding, 'schedule');
            if (raw === undefined)
                throw new Error(`Function '${fn.name}': a timer trigger needs a 'schedule'.`);
            let schedule;
            try {
                schedule = (0, schedule_1.parseSchedule)((0, bindingExpressions_1.resolveBindingExpressions)(raw, config.env));
            }
            catch (error) {
                throw new Error(`Function '${fn.name}': ${error.message}`);
            }
            const useMonitor = booleanOption(fn, 'useMonitor', true) && (0, schedule_1.isMonitorable)(schedule, now());
            timers.set(fn.name, {
                fn,
                schedule,
                runOnStartup: booleanOption(fn, 'runOnStartup', false),
                useMonitor,
                status: null,
                running: Promise.resolve(),
            });
        },
        describe(fn) {
            const state = timers.get(fn.name);
            return `timerTrigger '${state.schedule.text}' (UTC)${state.runOnStartup ? ', runOnStartup' : ''}`;
        },
        async start() {
            for (const state of timers.values()) {
                void startTimer(state).catch((error) => config.logger.log('error', state.fn.name, `The timer could not start: ${(0, log_1.describeError)(error)}`));
            }
        },
        async stop(graceMs) {
            stopped = true;
            for (const state of timers.values())
                clearTimeout(state.timeout);
            let timer;
            await Promise.race([
                Promise.allSettled([...timers.values()].map((state) => state.running)),
                new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
            ]);
            clearTimeout(timer);
        },
        async runOnce(fn) {
            const state = timers.get(fn.name);
            await fire(state, false, now());
        },
    };
}
//# sourceMappingURL=timerDriver.js.map