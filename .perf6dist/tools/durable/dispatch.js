"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.dispatchEpisode = dispatchEpisode;
const historyEvents_1 = require("./historyEvents");
const instances_1 = require("./instances");
const keys_1 = require("./keys");
const store_1 = require("./store");
/** Dispatches `episode` of `instance`'s current execution, then marks it dispatched. */
async function dispatchEpisode(ctx, instance, episode) {
    const { store } = ctx;
    const now = ctx.clock();
    let wakeSelf = false;
    for (const event of episode.events) {
        if (event.EventType === historyEvents_1.EventType.TaskScheduled) {
            const failure = event.Local?.failImmediately;
            if (failure) {
                const failed = (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.TaskFailed, now, {
                    TaskScheduledId: event.EventId,
                    Reason: failure.ErrorMessage,
                    Details: failure.StackTrace,
                    FailureDetails: failure,
                });
                await store.putInbox(instance.instanceId, instance.executionId, (0, keys_1.taskResultInboxKey)(event.EventId), failed, now);
                wakeSelf = true;
            }
            else {
                await store.sendWorkItem({
                    instanceId: instance.instanceId,
                    executionId: instance.executionId,
                    taskScheduledId: event.EventId,
                    name: event.Name ?? '',
                    input: event.Input,
                });
            }
        }
        else if (event.EventType === historyEvents_1.EventType.TimerCreated) {
            const fireAt = event.FireAt ?? now.toISOString();
            await store.sendControl({
                kind: 'timer',
                instanceId: instance.instanceId,
                executionId: instance.executionId,
                timerId: event.EventId,
                fireAt,
            }, Math.floor((Date.parse(fireAt) - now.getTime()) / 1000));
        }
        else if (event.EventType === historyEvents_1.EventType.SubOrchestrationInstanceCreated) {
            if (await startSubOrchestration(ctx, instance, event))
                wakeSelf = true;
        }
    }
    const completion = episode.events.find((event) => event.EventType === historyEvents_1.EventType.ExecutionCompleted ||
        event.EventType === historyEvents_1.EventType.ExecutionTerminated);
    const lastUpdatedTime = now.toISOString();
    if (!completion) {
        await store.patchInstance(instance.instanceId, {
            runtimeStatus: 'Running',
            customStatus: episode.customStatus,
            lastUpdatedTime,
        });
    }
    else if (completion.OrchestrationStatus === 'ContinuedAsNew') {
        const next = completion.Local?.nextExecutionId;
        if (!next)
            throw new Error('A continue-as-new completion has no next execution id.');
        await (0, instances_1.writeStartEvent)(ctx, instance.instanceId, next, instance.name, completion.Result);
        await store.patchInstance(instance.instanceId, {
            runtimeStatus: 'Running',
            executionId: next,
            input: completion.Result,
            output: undefined,
            customStatus: episode.customStatus,
            lastUpdatedTime,
        });
        wakeSelf = true;
    }
    else {
        const terminated = completion.EventType === historyEvents_1.EventType.ExecutionTerminated;
        // The parent first: once the status says ended, nothing re-dispatches this episode.
        await notifyParent(ctx, instance, completion);
        await store.patchInstance(instance.instanceId, {
            runtimeStatus: terminated
                ? 'Terminated'
                : completion.OrchestrationStatus === 'Failed'
                    ? 'Failed'
                    : 'Completed',
            output: terminated ? (completion.Input ?? JSON.stringify('')) : completion.Result,
            customStatus: episode.customStatus,
            lastUpdatedTime,
        });
    }
    await store.markDispatched(instance.instanceId, instance.executionId, episode.episode);
    const consumed = episode.events.flatMap((event) => event.Local?.inboxKey ? [event.Local.inboxKey] : []);
    await store.deleteInbox(instance.instanceId, instance.executionId, consumed);
    if (wakeSelf)
        await store.sendControl({ kind: 'wake', instanceId: instance.instanceId });
}
/**
 * Starts the child of a SubOrchestrationInstanceCreated event (once).
 *
 * @returns true when the child could not start and the parent got a failure in its inbox.
 */
async function startSubOrchestration(ctx, parent, event) {
    const childId = event.InstanceId ?? '';
    const name = event.Name ?? '';
    const existing = await ctx.store.getInstance(childId);
    if (existing &&
        existing.parentInstanceId === parent.instanceId &&
        existing.parentExecutionId === parent.executionId &&
        existing.parentTaskScheduledId === event.EventId) {
        return false; // Started by an earlier dispatch of this episode.
    }
    let problem;
    if (!ctx.orchestrations.has(name)) {
        problem = `The function '${name}' doesn't exist, is disabled, or is not an orchestrator function.`;
    }
    else if (existing && !store_1.TERMINAL_STATUSES.has(existing.runtimeStatus)) {
        problem = `An orchestration instance with id '${childId}' is already ${existing.runtimeStatus.toLowerCase()}.`;
    }
    if (problem) {
        const now = ctx.clock();
        const failed = (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.SubOrchestrationInstanceFailed, now, {
            TaskScheduledId: event.EventId,
            Reason: problem,
            FailureDetails: { ErrorType: 'Error', ErrorMessage: problem },
        });
        await ctx.store.putInbox(parent.instanceId, parent.executionId, (0, keys_1.taskResultInboxKey)(event.EventId), failed, now);
        return true;
    }
    if (existing)
        await ctx.store.deleteHistory(childId);
    await (0, instances_1.createInstance)(ctx, {
        instanceId: childId,
        name,
        input: event.Input,
        parent: {
            instanceId: parent.instanceId,
            executionId: parent.executionId,
            taskScheduledId: event.EventId,
        },
    });
    return false;
}
/** Tells the parent orchestration (if any) that this sub-orchestration ended. */
async function notifyParent(ctx, child, completion) {
    const { parentInstanceId, parentExecutionId, parentTaskScheduledId } = child;
    if (!parentInstanceId || !parentExecutionId || parentTaskScheduledId === undefined)
        return;
    const parent = await ctx.store.getInstance(parentInstanceId);
    if (!parent ||
        parent.executionId !== parentExecutionId ||
        store_1.TERMINAL_STATUSES.has(parent.runtimeStatus)) {
        return;
    }
    const now = ctx.clock();
    const succeeded = completion.EventType === historyEvents_1.EventType.ExecutionCompleted &&
        completion.OrchestrationStatus === 'Completed';
    const reason = completion.EventType === historyEvents_1.EventType.ExecutionTerminated
        ? `Sub-orchestration '${child.instanceId}' was terminated.`
        : parseText(completion.Result);
    const event = succeeded
        ? (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.SubOrchestrationInstanceCompleted, now, {
            TaskScheduledId: parentTaskScheduledId,
            Result: completion.Result ?? 'null',
        })
        : (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.SubOrchestrationInstanceFailed, now, {
            TaskScheduledId: parentTaskScheduledId,
            Reason: reason,
            FailureDetails: completion.FailureDetails ?? { ErrorType: 'Error', ErrorMessage: reason },
        });
    await ctx.store.putInbox(parentInstanceId, parentExecutionId, (0, keys_1.taskResultInboxKey)(parentTaskScheduledId), event, now);
    await ctx.store.sendControl({ kind: 'wake', instanceId: parentInstanceId });
}
function parseText(json) {
    if (json === undefined)
        return '';
    try {
        const value = JSON.parse(json);
        return typeof value === 'string' ? value : json;
    }
    catch {
        return json;
    }
}
//# sourceMappingURL=dispatch.js.map