"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handleControlMessage = handleControlMessage;
const episode_1 = require("./episode");
const historyEvents_1 = require("./historyEvents");
const keys_1 = require("./keys");
const store_1 = require("./store");
/** A timer message that arrives more than this early is re-armed; less, and it waits. */
const SHORT_WAIT_MS = 1000;
/**
 * Handles one control message under the instance's lock.
 *
 * @throws storage errors left after the SDK's retries (the message is then retried).
 */
async function handleControlMessage(ctx, locks, message) {
    if (message.kind === 'timer') {
        const remainingMs = Date.parse(message.fireAt) - ctx.clock().getTime();
        if (remainingMs > SHORT_WAIT_MS) {
            // Queue visibility has whole-second steps and a 7-day maximum: re-arm for the rest.
            await ctx.store.sendControl(message, Math.floor(remainingMs / 1000));
            return;
        }
        // Sub-second remainder: wait here (outside the instance lock) for an on-time firing.
        if (remainingMs > 0)
            await new Promise((resolve) => setTimeout(resolve, remainingMs));
    }
    // A wake-up queued behind another one for the same instance adds nothing: the queued pass
    // starts later and sees every inbox row written before this message was sent.
    if (message.kind === 'wake' && locks.waiting(message.instanceId) > 0)
        return;
    await locks.run(message.instanceId, async () => {
        if (message.kind === 'timer') {
            const instance = await ctx.store.getInstance(message.instanceId);
            if (!instance ||
                instance.executionId !== message.executionId ||
                store_1.TERMINAL_STATUSES.has(instance.runtimeStatus)) {
                return;
            }
            const now = ctx.clock();
            const fired = (0, historyEvents_1.plainEvent)(historyEvents_1.EventType.TimerFired, now, {
                TimerId: message.timerId,
                FireAt: message.fireAt,
            });
            await ctx.store.putInbox(message.instanceId, message.executionId, (0, keys_1.timerFiredInboxKey)(message.timerId), fired, now);
        }
        await (0, episode_1.advanceOrchestration)(ctx, message.instanceId);
    });
}
//# sourceMappingURL=controlWorker.js.map