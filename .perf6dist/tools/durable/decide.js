"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.decideEpisode = decideEpisode;
/**
 * One orchestration episode, decided: given the ledger of the committed history, the new events
 * (in the order the orchestrator saw them) and what the orchestrator returned, which events to
 * append — the work to schedule, with sequence numbers matching the ones `durable-functions` gave
 * its tasks, and the completion if the execution is over. Pure: no I/O, no clock, no randomness
 * beyond what the caller passes in.
 */
const actions_1 = require("./actions");
const historyEvents_1 = require("./historyEvents");
const keys_1 = require("./keys");
const ledger_1 = require("./ledger");
const retry_1 = require("./retry");
/** Why an episode failed the orchestration although the orchestrator code did not throw. */
class EpisodeFailure extends Error {
}
/** Decides one episode. Never throws for orchestrator mistakes: they fail the orchestration. */
function decideEpisode(input) {
    const { outcome, now } = input;
    const customStatus = outcome.kind === 'state' ? outcome.state.customStatus : outcome.customStatus;
    if (outcome.kind === 'failed') {
        return failed(input, outcome.message, outcome.failureDetails, customStatus);
    }
    const scheduled = [];
    try {
        for (const event of input.newEvents) {
            const step = (0, ledger_1.retryStepOf)(input.ledger, event);
            (0, ledger_1.recordEvent)(input.ledger, event);
            if (step?.step === 'failedAttempt') {
                scheduled.push(schedule(input.ledger, retryTimer(step.chain, now)));
            }
            else if (step?.step === 'retryTimerFired' && step.retry) {
                scheduled.push(schedule(input.ledger, retryAttempt(input, step.chain)));
            }
        }
        let continueAsNew;
        const known = input.ledger.actionTasks.length;
        let index = 0;
        for (const action of (0, actions_1.flattenActions)(outcome.state.actions)) {
            if (action.kind === 'waitForEvent')
                continue;
            if (action.kind === 'continueAsNew') {
                continueAsNew = action;
                continue;
            }
            if (action.kind === 'unsupported') {
                throw new EpisodeFailure(`The local durable runtime does not support ${action.description}; run this orchestration under Azure Functions.`);
            }
            if (index < known) {
                const task = input.ledger.actionTasks[index];
                if (!sameTask(task, action)) {
                    throw new EpisodeFailure(`Non-deterministic orchestration: the history has ${describeTask(task)} at sequence number ${task.eventId}, ` +
                        `but this replay asked for ${describeAction(action)} there. Was the orchestrator code changed while this instance was running?`);
                }
            }
            else {
                scheduled.push(schedule(input.ledger, forAction(input, action)));
            }
            index += 1;
        }
        if (!outcome.state.isDone)
            return { events: scheduled, status: 'Running', customStatus };
        if (continueAsNew) {
            const completion = completionEvent(now, 'ContinuedAsNew', continueAsNew.input, {
                nextExecutionId: input.newExecutionId(),
            });
            return { events: [...scheduled, completion], status: 'ContinuedAsNew', customStatus };
        }
        const completion = completionEvent(now, 'Completed', outcome.state.output ?? null);
        return { events: [...scheduled, completion], status: 'Completed', customStatus };
    }
    catch (error) {
        if (error instanceof EpisodeFailure || error instanceof actions_1.MalformedActionsError) {
            return failed(input, error.message, { ErrorType: error.name, ErrorMessage: error.message }, customStatus);
        }
        throw error;
    }
}
function failed(input, message, failureDetails, customStatus) {
    const reason = `Orchestrator function '${input.orchestrationName}' failed: ${message}`;
    const completion = {
        ...completionEvent(input.now, 'Failed', reason),
        FailureDetails: failureDetails,
    };
    return { events: [completion], status: 'Failed', customStatus };
}
function completionEvent(now, status, result, local) {
    return {
        EventType: historyEvents_1.EventType.ExecutionCompleted,
        EventId: -1,
        Timestamp: now.toISOString(),
        OrchestrationStatus: status,
        Result: JSON.stringify(result ?? null),
        Local: local,
    };
}
/** Gives the event the next sequence number and records it. */
function schedule(ledger, event) {
    const numbered = { ...event, EventId: ledger.nextEventId };
    (0, ledger_1.recordEvent)(ledger, numbered);
    return numbered;
}
function forAction(input, action) {
    const Timestamp = input.now.toISOString();
    const origin = 'action';
    switch (action.kind) {
        case 'activity':
            return {
                EventType: historyEvents_1.EventType.TaskScheduled,
                Timestamp,
                Name: action.name,
                Input: jsonText(action.input),
                Local: { origin, retry: action.retry },
            };
        case 'subOrchestration':
            return {
                EventType: historyEvents_1.EventType.SubOrchestrationInstanceCreated,
                Timestamp,
                Name: action.name,
                InstanceId: action.instanceId ??
                    (0, keys_1.subOrchestrationInstanceId)(input.instanceId, input.ledger.nextEventId),
                Input: jsonText(action.input),
                Local: { origin, retry: action.retry },
            };
        case 'timer':
            return {
                EventType: historyEvents_1.EventType.TimerCreated,
                Timestamp,
                FireAt: action.fireAt,
                Local: { origin },
            };
    }
}
function retryTimer(chain, now) {
    const fireAt = new Date(now.getTime() + (0, retry_1.retryDelayMs)(chain.policy, chain.failures));
    return {
        EventType: historyEvents_1.EventType.TimerCreated,
        Timestamp: now.toISOString(),
        FireAt: fireAt.toISOString(),
        Local: { origin: 'retry', chain: chain.firstId },
    };
}
function retryAttempt(input, chain) {
    // The retry timeout has passed: the attempt still takes its sequence number (the library
    // counts it) but fails at once with the last real failure instead of running.
    const failImmediately = (0, retry_1.retryTimedOut)(chain.policy, chain.firstAttemptAt, input.now)
        ? (chain.lastFailure?.FailureDetails ?? {
            ErrorType: 'RetryTimeoutError',
            ErrorMessage: 'The retry timeout passed before the next attempt.',
        })
        : undefined;
    const Local = { origin: 'retry', chain: chain.firstId, failImmediately };
    const Timestamp = input.now.toISOString();
    if (chain.kind === 'activity') {
        return {
            EventType: historyEvents_1.EventType.TaskScheduled,
            Timestamp,
            Name: chain.name,
            Input: chain.input,
            Local,
        };
    }
    const generated = (0, keys_1.subOrchestrationInstanceId)(input.instanceId, chain.firstId);
    return {
        EventType: historyEvents_1.EventType.SubOrchestrationInstanceCreated,
        Timestamp,
        Name: chain.name,
        InstanceId: chain.instanceId !== undefined && chain.instanceId !== generated
            ? chain.instanceId
            : (0, keys_1.subOrchestrationInstanceId)(input.instanceId, input.ledger.nextEventId),
        Input: chain.input,
        Local,
    };
}
function sameTask(task, action) {
    switch (action.kind) {
        case 'activity':
            return (task.kind === 'activity' &&
                task.event.Name === action.name &&
                (task.event.Local?.retry !== undefined) === (action.retry !== undefined));
        case 'subOrchestration':
            return task.kind === 'subOrchestration' && task.event.Name === action.name;
        case 'timer':
            return task.kind === 'timer';
        default:
            return false;
    }
}
function describeTask(task) {
    if (task.kind === 'timer')
        return 'a timer';
    const what = task.kind === 'activity' ? 'activity' : 'sub-orchestration';
    return `${what} '${task.event.Name ?? ''}'${task.event.Local?.retry ? ' (with retry)' : ''}`;
}
function describeAction(action) {
    switch (action.kind) {
        case 'activity':
            return `activity '${action.name}'${action.retry ? ' (with retry)' : ''}`;
        case 'subOrchestration':
            return `sub-orchestration '${action.name}'`;
        case 'timer':
            return 'a timer';
        default:
            return action.kind;
    }
}
function jsonText(value) {
    return value === undefined ? undefined : JSON.stringify(value);
}
//# sourceMappingURL=decide.js.map