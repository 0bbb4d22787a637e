/**
 * Handles control-queue messages: a wake-up runs the orchestration forward; a timer message
 * records the timer's firing in the inbox and then runs the orchestration. Timer messages are
 * sent hidden for the whole seconds until they are due; one that arrives early (a timer longer
 * than a message can stay hidden) re-arms itself.
 */
import { Mutex } from 'async-mutex';
import type { RuntimeContext } from './context';
import { advanceOrchestration } from './episode';
import { EventType, plainEvent } from './replay/historyEvents';
import { timerFiredInboxKey } from './store/keys';
import { TERMINAL_STATUSES, type ControlMessage } from './store/records';

/** A timer message that arrives more than this early is re-armed; less, and it waits. */
const SHORT_WAIT_MS = 1000;

/**
 * The process's instance locks: two passes of one orchestration never run at the same time here
 * (across processes, the episode commit's insert decides). `waiting` counts the calls whose work
 * has not started; `users` every call holding the entry, which goes when the last one leaves.
 */
export type InstanceLocks = Map<string, { mutex: Mutex; waiting: number; users: number }>;

async function underLock(
  locks: InstanceLocks,
  instanceId: string,
  work: () => Promise<void>,
): Promise<void> {
  let entry = locks.get(instanceId);
  if (!entry) {
    entry = { mutex: new Mutex(), waiting: 0, users: 0 };
    locks.set(instanceId, entry);
  }
  const held = entry;
  held.users += 1;
  held.waiting += 1;
  try {
    await held.mutex.runExclusive(() => {
      held.waiting -= 1;
      return work();
    });
  } finally {
    held.users -= 1;
    if (held.users === 0) locks.delete(instanceId);
  }
}

/**
 * Handles one control message under the instance's lock.
 *
 * @throws storage errors left after the SDK's retries (the message is then retried).
 */
export async function handleControlMessage(
  ctx: RuntimeContext,
  locks: InstanceLocks,
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
  if (message.kind === 'wake' && (locks.get(message.instanceId)?.waiting ?? 0) > 0) return;
  await underLock(locks, message.instanceId, async () => {
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
