/**
 * Runs one activity work item: invoke the activity, store its result (or failure) in the
 * orchestration's inbox under a key derived from the task's sequence number — so a repeated run
 * overwrites rather than duplicates — and wake the orchestration.
 */
import type { RuntimeContext } from './context';
import {
  activityFailure,
  EventType,
  plainEvent,
  type HistoryEventJson,
} from './replay/historyEvents';
import { taskResultInboxKey } from './store/keys';
import { TERMINAL_STATUSES, type WorkItemMessage } from './store/records';

/**
 * Handles a work item. As in Azure, the activity runs whatever became of its instance
 * (DurableTask.AzureStorage `LockNextTaskActivityWorkItem` looks at no instance state): a work
 * item queued before the instance ended, was terminated or continued as new still runs, and its
 * result is then dropped, as the orchestration dispatcher drops it there.
 *
 * @throws storage errors left after the SDK's retries (the message is then retried).
 */
export async function runWorkItem(ctx: RuntimeContext, item: WorkItemMessage): Promise<void> {
  const inputText = item.inputInHistory ? await inputFromHistory(ctx, item) : item.input;

  let result: HistoryEventJson;
  try {
    if (!ctx.activities.has(item.name)) {
      throw new Error(
        `The function '${item.name}' doesn't exist, is disabled, or is not an activity function.`,
      );
    }
    const input = inputText === undefined ? undefined : (JSON.parse(inputText) as unknown);
    const value = await ctx.invoke(item.name, input, 'activityTrigger');
    result = plainEvent(EventType.TaskCompleted, ctx.clock(), {
      TaskScheduledId: item.taskScheduledId,
      Result: JSON.stringify(value ?? null),
    });
  } catch (error) {
    // Azure's shape (Reason + a serialised .NET exception, no FailureDetails), so orchestrations
    // and the status API see here what they see deployed.
    result = plainEvent(EventType.TaskFailed, ctx.clock(), {
      TaskScheduledId: item.taskScheduledId,
      ...activityFailure(item.name, error),
    });
  }
  const instance = await ctx.store.getInstance(item.instanceId);
  if (
    !instance ||
    instance.executionId !== item.executionId ||
    TERMINAL_STATUSES.has(instance.runtimeStatus)
  ) {
    return;
  }
  await ctx.store.putInbox(
    item.instanceId,
    item.executionId,
    taskResultInboxKey(item.taskScheduledId),
    result,
    ctx.clock(),
  );
  await ctx.store.sendControl({ kind: 'wake', instanceId: item.instanceId });
}

async function inputFromHistory(
  ctx: RuntimeContext,
  item: WorkItemMessage,
): Promise<string | undefined> {
  const rows = await ctx.store.loadExecution(item.instanceId, item.executionId);
  for (const episode of rows.episodes) {
    for (const event of episode.events) {
      if (event.EventType === EventType.TaskScheduled && event.EventId === item.taskScheduledId) {
        return event.Input;
      }
    }
  }
  throw new Error(
    `Task ${item.taskScheduledId} of instance '${item.instanceId}' is not in its history.`,
  );
}
