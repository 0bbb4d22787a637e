/**
 * Handles control-queue messages: a wake-up runs the orchestration forward; a timer message
 * records the timer's firing in the inbox and then runs the orchestration. Timer messages are
 * sent hidden for the whole seconds until they are due; one that arrives early (a timer longer
 * than a message can stay hidden) re-arms itself.
 */
import type { RuntimeContext } from './context';
import { advanceOrchestration } from './episode';
import { EventType, plainEvent } from './replay/historyEvents';
import type { KeyedMutex } from './keyedMutex';
import { timerFiredInboxKey } from './store/keys';
import { TERMINAL_STATUSES, type ControlMessage } from './store/records';

/** A timer message that arrives more than this early is re-armed; less, and it waits. */
const SHORT_WAIT_MS = 1000;

/**
 * Handles one control message under the instance's lock.
 *
 * @throws storage errors left after the SDK's retries (the message is then retried).
 */
export async function handleControlMessage(
  ctx: RuntimeContext,
  locks: KeyedMutex,
  message: ControlMessage,
): Promise<void> {
  if (message.kind === 'timer') {
    const remainingMs = Date.parse(message.fireAt) - ctx.clock().getTime();
    if (remainingMs > SHORT_WAIT_MS) {
      // Queue visibility has whole-second steps and a 7-day maximum: re-arm for the rest.
      await ctx.store.sendControl(message, Math.floor(remainingMs / 1000));
      return;
    }
    // Sub-second remainder: wait here (outside the instance lock) for an on-time firing.
    if (remainingMs > 0) await new Promise((resolve) => setTimeout(resolve, remainingMs));
  }
  // A wake-up queued behind another one for the same instance adds nothing: the queued pass
  // starts later and sees every inbox row written before this message was sent.
  if (message.kind === 'wake' && locks.waiting(message.instanceId) > 0) return;
  await locks.run(message.instanceId, async () => {
    if (message.kind === 'timer') {
      const instance = await ctx.store.getInstance(message.instanceId);
      if (
        !instance ||
        instance.executionId !== message.executionId ||
        TERMINAL_STATUSES.has(instance.runtimeStatus)
      ) {
        return;
      }
      const now = ctx.clock();
      const fired = plainEvent(EventType.TimerFired, now, {
        TimerId: message.timerId,
        FireAt: message.fireAt,
      });
      await ctx.store.putInbox(
        message.instanceId,
        message.executionId,
        timerFiredInboxKey(message.timerId),
        fired,
        now,
      );
    }
    await advanceOrchestration(ctx, message.instanceId);
  });
}
