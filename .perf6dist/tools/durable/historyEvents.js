"use strict";
/**
 * History events in the JSON shape the Durable Functions extension sends to out-of-process
 * orchestrators (`DurableOrchestrationInput.history`), which `durable-functions` replays.
 *
 * The numbering is the library's `HistoryEventType` (lib/src/history/HistoryEventType.js); a unit
 * test pins the two together. Results and inputs travel as JSON text, as the extension sends them.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.EventType = void 0;
exports.eventTypeName = eventTypeName;
exports.isScheduledEvent = isScheduledEvent;
exports.plainEvent = plainEvent;
exports.failureDetailsOf = failureDetailsOf;
exports.forOrchestrator = forOrchestrator;
/** Event types, numbered as in `durable-functions`. */
exports.EventType = {
    ExecutionStarted: 0,
    ExecutionCompleted: 1,
    ExecutionFailed: 2,
    ExecutionTerminated: 3,
    TaskScheduled: 4,
    TaskCompleted: 5,
    TaskFailed: 6,
    SubOrchestrationInstanceCreated: 7,
    SubOrchestrationInstanceCompleted: 8,
    SubOrchestrationInstanceFailed: 9,
    TimerCreated: 10,
    TimerFired: 11,
    OrchestratorStarted: 12,
    OrchestratorCompleted: 13,
    EventSent: 14,
    EventRaised: 15,
    ContinueAsNew: 16,
    GenericEvent: 17,
    HistoryState: 18,
    ExecutionSuspended: 19,
    ExecutionResumed: 20,
};
/** The name of an event type number (for status output), or `Unknown(<n>)`. */
function eventTypeName(eventType) {
    const entry = Object.entries(exports.EventType).find(([, value]) => value === eventType);
    return entry ? entry[0] : `Unknown(${eventType})`;
}
/** Events that consume a task sequence number (the orchestrator numbers its tasks the same way). */
function isScheduledEvent(event) {
    return (event.EventType === exports.EventType.TaskScheduled ||
        event.EventType === exports.EventType.TimerCreated ||
        event.EventType === exports.EventType.SubOrchestrationInstanceCreated);
}
/** An event not tied to a scheduled task (EventId -1). */
function plainEvent(eventType, timestamp, fields = {}) {
    return { EventType: eventType, EventId: -1, Timestamp: timestamp.toISOString(), ...fields };
}
/**
 * Failure details of a thrown value. A message that is itself the JSON payload the library writes
 * when an exception-properties provider is registered (`{errorType, errorMessage, properties}`)
 * is unpacked so the properties reach the orchestrator.
 */
function failureDetailsOf(error) {
    const err = error instanceof Error ? error : new Error(String(error));
    try {
        const payload = JSON.parse(err.message);
        if (typeof payload.errorType === 'string' && typeof payload.errorMessage === 'string') {
            return {
                ErrorType: payload.errorType,
                ErrorMessage: payload.errorMessage,
                StackTrace: typeof payload.stackTrace === 'string' ? payload.stackTrace : err.stack,
                IsNonRetriable: payload.isNonRetriable === true,
                Properties: payload.properties && typeof payload.properties === 'object'
                    ? payload.properties
                    : undefined,
            };
        }
    }
    catch {
        // Not a JSON payload: an ordinary error message.
    }
    return {
        ErrorType: err.name || 'Error',
        ErrorMessage: err.message,
        StackTrace: err.stack,
        IsNonRetriable: false,
    };
}
/** A copy of the event as the orchestrator receives it: no runtime bookkeeping, `IsPlayed` set. */
function forOrchestrator(event, isPlayed) {
    const { Local: _local, ...rest } = event;
    return { ...rest, IsPlayed: isPlayed };
}
//# sourceMappingURL=historyEvents.js.map