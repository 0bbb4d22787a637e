"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runWorkItem = runWorkItem;
const historyEvents_1 = require("./historyEvents");
const keys_1 = require("./keys");
const store_1 = require("./store");
/**
 * Handles a work item. Work for an instance that has ended or moved to another execution is
 * dropped.
 *
 * @throws storage errors left after the SDK's retries (the message is then retried).
 */
async function runWorkItem(ctx, item) {
    const instance = await ctx.store.getInstance(item.instanceId);
    if (!instance ||
        instance.executionId !== item.executionId ||
        store_1.TERMINAL_STATUSES.has(instance.runtimeStatus)) {
        return;
    }
    const inputText = item.inputInHistory ? await inputFromHistory(ctx, item) : item.input;
    let result;
    try {
        if (!ctx.activities.has(item.name)) {
            throw new Error(`The function '${item.name}' doesn't exist, is disabled, or is not an activity function.`);
        }
        const input = inputText === undefined ? undefined : JSON.parse(inputText);
        const value = await ctx.invoke(item.name, input, 'activityTrigger');
        result = (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.TaskCompleted, ctx.clock(), {
            TaskScheduledId: item.taskScheduledId,
            Result: JSON.stringify(value ?? null),
        });
    }
    catch (error) {
        const details = (0, historyEvents_1.failureDetailsOf)(error);
        result = (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.TaskFailed, ctx.clock(), {
            TaskScheduledId: item.taskScheduledId,
            Reason: details.ErrorMessage,
            Details: details.StackTrace,
            FailureDetails: details,
        });
    }
    await ctx.store.putInbox(item.instanceId, item.executionId, (0, keys_1.taskResultInboxKey)(item.taskScheduledId), result, ctx.clock());
    await ctx.store.sendControl({ kind: 'wake', instanceId: item.instanceId });
}
async function inputFromHistory(ctx, item) {
    const rows = await ctx.store.loadExecution(item.instanceId, item.executionId);
    for (const episode of rows.episodes) {
        for (const event of episode.events) {
            if (event.EventType === historyEvents_1.EventType.TaskScheduled && event.EventId === item.taskScheduledId) {
                return event.Input;
            }
        }
    }
    throw new Error(`Task ${item.taskScheduledId} of instance '${item.instanceId}' is not in its history.`);
}
//# sourceMappingURL=activityWorker.js.map