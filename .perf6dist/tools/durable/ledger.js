"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CorruptHistoryError = void 0;
exports.buildLedger = buildLedger;
exports.recordEvent = recordEvent;
exports.retryStepOf = retryStepOf;
exports.orderNewEvents = orderNewEvents;
/**
 * What a stored history says about an orchestration: which task sequence numbers are taken, which
 * tasks the orchestrator itself asked for (in order), the state of each retry chain, and which
 * inbox rows the history has already consumed.
 *
 * The invariant that makes replay line up: every sequence number `durable-functions` hands out
 * while replaying (one per activity, timer or sub-orchestration task, and one per retry timer and
 * retry attempt) has exactly one scheduled event here, with that number as its EventId.
 */
const historyEvents_1 = require("./historyEvents");
const retry_1 = require("./retry");
/** The stored history contradicts itself (sequence numbers out of order, unknown retry chain). */
class CorruptHistoryError extends Error {
    constructor(message) {
        super(message);
        this.name = 'CorruptHistoryError';
    }
}
exports.CorruptHistoryError = CorruptHistoryError;
/**
 * Reads a history (oldest first).
 *
 * @throws {CorruptHistoryError} when scheduled events are not numbered 0, 1, 2, ... in order.
 */
function buildLedger(history) {
    const ledger = {
        nextEventId: 0,
        actionTasks: [],
        tasks: new Map(),
        chains: new Map(),
        consumedInboxKeys: new Set(),
        started: false,
        finished: false,
    };
    for (const event of history)
        recordEvent(ledger, event);
    return ledger;
}
/**
 * Adds one event to the ledger (used while building it and while deciding an episode).
 *
 * @throws {CorruptHistoryError} for an out-of-order sequence number or an unknown retry chain.
 */
function recordEvent(ledger, event) {
    if (event.Local?.inboxKey)
        ledger.consumedInboxKeys.add(event.Local.inboxKey);
    if ((0, historyEvents_1.isScheduledEvent)(event)) {
        recordScheduled(ledger, event);
        return;
    }
    switch (event.EventType) {
        case historyEvents_1.EventType.ExecutionStarted:
            ledger.started = true;
            break;
        case historyEvents_1.EventType.ExecutionCompleted:
        case historyEvents_1.EventType.ExecutionFailed:
        case historyEvents_1.EventType.ExecutionTerminated:
            ledger.finished = true;
            break;
        case historyEvents_1.EventType.TaskFailed:
        case historyEvents_1.EventType.SubOrchestrationInstanceFailed: {
            const chain = chainOfAttempt(ledger, event.TaskScheduledId);
            if (chain) {
                chain.failures += 1;
                chain.lastFailure = event;
            }
            break;
        }
        default:
            break;
    }
}
function recordScheduled(ledger, event) {
    if (event.EventId !== ledger.nextEventId) {
        throw new CorruptHistoryError(`Scheduled event has sequence number ${event.EventId}, expected ${ledger.nextEventId}.`);
    }
    ledger.nextEventId += 1;
    const kind = event.EventType === historyEvents_1.EventType.TaskScheduled
        ? 'activity'
        : event.EventType === historyEvents_1.EventType.TimerCreated
            ? 'timer'
            : 'subOrchestration';
    const origin = event.Local?.origin ?? 'action';
    const task = { eventId: event.EventId, event, kind, origin };
    ledger.tasks.set(event.EventId, task);
    if (origin === 'action') {
        ledger.actionTasks.push(task);
        if (event.Local?.retry && kind !== 'timer') {
            task.chain = event.EventId;
            ledger.chains.set(event.EventId, {
                firstId: event.EventId,
                kind,
                name: event.Name ?? '',
                input: event.Input,
                instanceId: kind === 'subOrchestration' ? event.InstanceId : undefined,
                policy: event.Local.retry,
                firstAttemptAt: new Date(event.Timestamp),
                failures: 0,
                currentAttemptId: event.EventId,
            });
        }
        return;
    }
    const chain = event.Local?.chain === undefined ? undefined : ledger.chains.get(event.Local.chain);
    if (!chain) {
        throw new CorruptHistoryError(`Retry event ${event.EventId} names an unknown retry chain.`);
    }
    task.chain = chain.firstId;
    if (kind === 'timer') {
        chain.retryTimerId = event.EventId;
    }
    else {
        chain.currentAttemptId = event.EventId;
        chain.retryTimerId = undefined;
    }
}
function chainOfAttempt(ledger, taskScheduledId) {
    if (taskScheduledId === undefined)
        return undefined;
    const task = ledger.tasks.get(taskScheduledId);
    const chain = task?.chain === undefined ? undefined : ledger.chains.get(task.chain);
    return chain && chain.currentAttemptId === taskScheduledId && task?.kind !== 'timer'
        ? chain
        : undefined;
}
/** Whether `event` is a failed attempt or a retry timer of some retry chain. */
function retryStepOf(ledger, event) {
    if (event.EventType === historyEvents_1.EventType.TaskFailed ||
        event.EventType === historyEvents_1.EventType.SubOrchestrationInstanceFailed) {
        const chain = chainOfAttempt(ledger, event.TaskScheduledId);
        return chain ? { step: 'failedAttempt', chain } : undefined;
    }
    if (event.EventType === historyEvents_1.EventType.TimerFired && event.TimerId !== undefined) {
        const task = ledger.tasks.get(event.TimerId);
        const chain = task?.chain === undefined ? undefined : ledger.chains.get(task.chain);
        if (chain && chain.retryTimerId === event.TimerId) {
            return { step: 'retryTimerFired', chain, retry: (0, retry_1.shouldRetry)(chain.policy, chain.failures) };
        }
    }
    return undefined;
}
/**
 * Orders the events of a new episode the way the runtime numbers its work: the start first, then
 * the events that make `durable-functions` take a sequence number for a retry (a failed attempt
 * takes one for its timer; a retry timer takes one for the next attempt) — neither resumes the
 * orchestrator code — then everything else in arrival order. New actions the orchestrator yields
 * while processing the latter then get the numbers after the retry ones.
 */
function orderNewEvents(ledger, events) {
    const starts = [];
    const retrySteps = [];
    const rest = [];
    for (const event of events) {
        if (event.EventType === historyEvents_1.EventType.ExecutionStarted) {
            starts.push(event);
            continue;
        }
        const step = retryStepOf(ledger, event);
        if (step && (step.step === 'failedAttempt' || step.retry))
            retrySteps.push(event);
        else
            rest.push(event);
    }
    return [...starts, ...retrySteps, ...rest];
}
//# sourceMappingURL=ledger.js.map