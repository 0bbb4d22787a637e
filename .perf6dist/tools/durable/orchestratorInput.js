"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_HTTP_ASYNC_SLEEP_MS = exports.LONG_RUNNING_TIMER_INTERVAL_DURATION = exports.MAXIMUM_SHORT_TIMER_DURATION = exports.UPPER_SCHEMA_VERSION = void 0;
exports.buildOrchestratorInput = buildOrchestratorInput;
exports.outcomeFromReturn = outcomeFromReturn;
exports.outcomeFromError = outcomeFromError;
/**
 * The orchestrator trigger's protocol: what the runtime hands an orchestrator function (the
 * `DurableOrchestrationInput` the extension sends) and how to read what comes back — an
 * `OrchestratorState`, or a thrown `OrchestrationFailureError` whose message carries the state
 * after `$OutOfProcData$:` (lib/src/error/OrchestrationFailureError.js).
 */
const historyEvents_1 = require("./historyEvents");
/** Replay schema V3 (`ReplaySchema.V3` = 2): compound actions, timers with explicit limits. */
exports.UPPER_SCHEMA_VERSION = 2;
/**
 * Timers up to this long are single timers. Set far beyond any real wait so the library never
 * splits a timer into "long timer" segments; the runtime re-arms timers longer than a queue
 * message can wait.
 */
exports.MAXIMUM_SHORT_TIMER_DURATION = '3650.00:00:00';
exports.LONG_RUNNING_TIMER_INTERVAL_DURATION = '3.00:00:00';
exports.DEFAULT_HTTP_ASYNC_SLEEP_MS = 30_000;
/**
 * Builds the trigger value for one episode.
 *
 * @param pastEvents - the committed history (handed over with `IsPlayed: true`).
 * @param newEvents - this episode's events, starting with its OrchestratorStarted.
 */
function buildOrchestratorInput(args) {
    return {
        history: [
            ...args.pastEvents.map((event) => (0, historyEvents_1.forOrchestrator)(event, true)),
            ...args.newEvents.map((event) => (0, historyEvents_1.forOrchestrator)(event, false)),
        ],
        input: args.input,
        instanceId: args.instanceId,
        isReplaying: args.pastEvents.length > 0,
        parentInstanceId: args.parentInstanceId,
        upperSchemaVersion: exports.UPPER_SCHEMA_VERSION,
        maximumShortTimerDuration: exports.MAXIMUM_SHORT_TIMER_DURATION,
        longRunningTimerIntervalDuration: exports.LONG_RUNNING_TIMER_INTERVAL_DURATION,
        defaultHttpAsyncRequestSleepTimeMillseconds: exports.DEFAULT_HTTP_ASYNC_SLEEP_MS,
    };
}
const OUT_OF_PROC_DATA_LABEL = '\n\n$OutOfProcData$:';
/** Reads the value an orchestrator function returned (any JSON-compatible form). */
function outcomeFromReturn(value) {
    const state = normalizeState(value);
    if (state === null ||
        typeof state !== 'object' ||
        typeof state.isDone !== 'boolean' ||
        !Array.isArray(state.actions)) {
        const message = 'The orchestrator function did not return an orchestrator state; is it registered with df.app.orchestration?';
        return {
            kind: 'failed',
            message,
            failureDetails: { ErrorType: 'Error', ErrorMessage: message },
        };
    }
    return { kind: 'state', state: state };
}
/** Reads the error an orchestrator invocation threw. */
function outcomeFromError(error) {
    const text = error instanceof Error ? error.message : String(error);
    const at = text.indexOf(OUT_OF_PROC_DATA_LABEL);
    if (at < 0) {
        return {
            kind: 'failed',
            message: text,
            failureDetails: {
                ErrorType: error instanceof Error ? error.name : 'Error',
                ErrorMessage: text,
                StackTrace: error instanceof Error ? error.stack : undefined,
            },
        };
    }
    let state = {};
    try {
        state = JSON.parse(text.slice(at + OUT_OF_PROC_DATA_LABEL.length));
    }
    catch {
        // The text before the label is then all there is.
    }
    // The state's `error` is the orchestrator's exception message; the text before the label is
    // not always (durable-functions 3.x passes a boolean there, which reads as "false").
    const message = typeof state.error === 'string' && state.error !== '' ? state.error : text.slice(0, at);
    const failureDetails = state.failureDetails && typeof state.failureDetails === 'object'
        ? state.failureDetails
        : {
            ErrorType: 'Error',
            ErrorMessage: message,
            StackTrace: error instanceof Error ? error.stack : undefined,
        };
    return { kind: 'failed', message, failureDetails, customStatus: state.customStatus };
}
/**
 * The state as plain JSON, whether the host handed back the object itself or its JSON text (the
 * shape it has after crossing the worker boundary).
 */
function normalizeState(value) {
    if (value === undefined)
        return undefined;
    if (typeof value === 'string') {
        try {
            return JSON.parse(value);
        }
        catch {
            return value;
        }
    }
    return JSON.parse(JSON.stringify(value));
}
//# sourceMappingURL=orchestratorInput.js.map