"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createInstance = createInstance;
exports.writeStartEvent = writeStartEvent;
const historyEvents_1 = require("./historyEvents");
const keys_1 = require("./keys");
/**
 * Creates (or re-creates, after the caller purged it) an instance and wakes it.
 *
 * @param input - JSON text of the input, or undefined for none.
 */
async function createInstance(ctx, args) {
    const now = ctx.clock();
    const executionId = ctx.newId();
    await writeStartEvent(ctx, args.instanceId, executionId, args.name, args.input, args.parent);
    const record = {
        instanceId: args.instanceId,
        name: args.name,
        runtimeStatus: 'Pending',
        executionId,
        input: args.input,
        createdTime: now.toISOString(),
        lastUpdatedTime: now.toISOString(),
        parentInstanceId: args.parent?.instanceId,
        parentExecutionId: args.parent?.executionId,
        parentTaskScheduledId: args.parent?.taskScheduledId,
    };
    await ctx.store.putInstance(record);
    await ctx.store.sendControl({ kind: 'wake', instanceId: args.instanceId });
    return record;
}
/** Puts the ExecutionStarted event of `executionId` in its inbox (idempotent). */
async function writeStartEvent(ctx, instanceId, executionId, name, input, parent) {
    const now = ctx.clock();
    const started = (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.ExecutionStarted, now, {
        Name: name,
        Input: input,
        ParentInstance: parent
            ? { InstanceId: parent.instanceId, TaskScheduledId: parent.taskScheduledId }
            : undefined,
    });
    await ctx.store.putInbox(instanceId, executionId, keys_1.START_INBOX_KEY, started, now);
}
//# sourceMappingURL=instances.js.map