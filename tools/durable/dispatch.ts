/**
 * Sends out a committed episode's work: activity work items, timer messages, sub-orchestration
 * starts, the instance row's new status, the parent's notification when a sub-orchestration ends,
 * and the next execution of a continue-as-new. Every step is safe to repeat, because a crash
 * between the commit and `markDispatched` makes the next pass dispatch the episode again (an
 * activity may then run twice: activities are at-least-once, as in Azure).
 */
import type { RuntimeContext } from './context';
import {
  EventType,
  orchestrationFailureDetails,
  plainEvent,
  type HistoryEventJson,
} from './replay/historyEvents';
import { createInstance, writeStartEvent } from './instances';
import { taskResultInboxKey } from './store/keys';
import { TERMINAL_STATUSES, type EpisodeRecord, type InstanceRecord } from './store/records';

/** Dispatches `episode` of `instance`'s current execution, then marks it dispatched. */
export async function dispatchEpisode(
  ctx: RuntimeContext,
  instance: InstanceRecord,
  episode: EpisodeRecord,
): Promise<void> {
  const { store } = ctx;
  const now = ctx.clock();
  const workWakes = await sendScheduledWork(ctx, instance, episode, now);
  const statusWakes = await recordStatus(ctx, instance, episode, now);
  await store.markDispatched(instance.instanceId, instance.executionId, episode.episode);
  const consumed = episode.events.flatMap((event) =>
    event.Local?.inboxKey ? [event.Local.inboxKey] : [],
  );
  await store.deleteInbox(instance.instanceId, instance.executionId, consumed);
  if (workWakes || statusWakes) {
    await store.sendControl({ kind: 'wake', instanceId: instance.instanceId });
  }
}

/**
 * Sends the work the episode scheduled: activities, timers, sub-orchestrations.
 *
 * @returns true when the instance has new inbox events to replay (a task that failed at once).
 */
async function sendScheduledWork(
  ctx: RuntimeContext,
  instance: InstanceRecord,
  episode: EpisodeRecord,
  now: Date,
): Promise<boolean> {
  const { store } = ctx;
  let wakeSelf = false;
  for (const event of episode.events) {
    if (event.EventType === EventType.TaskScheduled) {
      if (await sendTask(ctx, instance, event, now)) wakeSelf = true;
    } else if (event.EventType === EventType.TimerCreated) {
      const fireAt = event.FireAt ?? now.toISOString();
      await store.sendControl(
        {
          kind: 'timer',
          instanceId: instance.instanceId,
          executionId: instance.executionId,
          timerId: event.EventId,
          fireAt,
        },
        Math.floor((Date.parse(fireAt) - now.getTime()) / 1000),
      );
    } else if (event.EventType === EventType.SubOrchestrationInstanceCreated) {
      if (await startSubOrchestration(ctx, instance, event)) wakeSelf = true;
    }
  }
  return wakeSelf;
}

/**
 * Sends an activity's work item, or, for a task that fails without running (`failImmediately`),
 * puts its failure in the instance's inbox.
 *
 * @returns true when the failure was put in the inbox.
 */
async function sendTask(
  { store }: RuntimeContext,
  instance: InstanceRecord,
  event: HistoryEventJson,
  now: Date,
): Promise<boolean> {
  const failure = event.Local?.failImmediately;
  if (!failure) {
    await store.sendWorkItem({
      instanceId: instance.instanceId,
      executionId: instance.executionId,
      taskScheduledId: event.EventId,
      name: event.Name ?? '',
      input: event.Input,
    });
    return false;
  }
  const failed = plainEvent(EventType.TaskFailed, now, {
    TaskScheduledId: event.EventId,
    Reason: failure.Reason,
    Details: failure.Details,
  });
  await store.putInbox(
    instance.instanceId,
    instance.executionId,
    taskResultInboxKey(event.EventId),
    failed,
    now,
  );
  return true;
}

/**
 * Writes the instance row's new status: running, the next execution of a continue-as-new (its
 * start event first), or ended (the parent notified first).
 *
 * @returns true when a next execution was started and must run.
 * @throws {Error} when a continue-as-new completion carries no next execution id.
 */
async function recordStatus(
  ctx: RuntimeContext,
  instance: InstanceRecord,
  episode: EpisodeRecord,
  now: Date,
): Promise<boolean> {
  const { store } = ctx;
  const completion = episode.events.find(
    (event) =>
      event.EventType === EventType.ExecutionCompleted ||
      event.EventType === EventType.ExecutionTerminated,
  );
  const lastUpdatedTime = now.toISOString();
  if (!completion) {
    await store.patchInstance(instance.instanceId, {
      runtimeStatus: 'Running',
      customStatus: episode.customStatus,
      lastUpdatedTime,
    });
    return false;
  }
  if (completion.OrchestrationStatus === 'ContinuedAsNew') {
    const next = completion.Local?.nextExecutionId;
    if (!next) throw new Error('A continue-as-new completion has no next execution id.');
    await writeStartEvent(ctx, instance.instanceId, next, instance.name, completion.Result);
    await store.patchInstance(instance.instanceId, {
      runtimeStatus: 'Running',
      executionId: next,
      input: completion.Result,
      output: undefined,
      customStatus: episode.customStatus,
      lastUpdatedTime,
    });
    return true;
  }
  const terminated = completion.EventType === EventType.ExecutionTerminated;
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
  return false;
}

/**
 * Starts the child of a SubOrchestrationInstanceCreated event (once).
 *
 * @returns true when the child could not start and the parent got a failure in its inbox.
 */
async function startSubOrchestration(
  ctx: RuntimeContext,
  parent: InstanceRecord,
  event: HistoryEventJson,
): Promise<boolean> {
  const childId = event.InstanceId ?? '';
  const name = event.Name ?? '';
  const existing = await ctx.store.getInstance(childId);
  if (
    existing &&
    existing.parentInstanceId === parent.instanceId &&
    existing.parentExecutionId === parent.executionId &&
    existing.parentTaskScheduledId === event.EventId
  ) {
    return false; // Started by an earlier dispatch of this episode.
  }
  let problem: string | undefined;
  if (!ctx.orchestrations.has(name)) {
    problem = `The function '${name}' doesn't exist, is disabled, or is not an orchestrator function.`;
  } else if (existing && !TERMINAL_STATUSES.has(existing.runtimeStatus)) {
    problem = `An orchestration instance with id '${childId}' is already ${existing.runtimeStatus.toLowerCase()}.`;
  }
  if (problem) {
    const now = ctx.clock();
    const failed = plainEvent(EventType.SubOrchestrationInstanceFailed, now, {
      TaskScheduledId: event.EventId,
      Reason: problem,
      Details: orchestrationFailureDetails(problem),
    });
    await ctx.store.putInbox(
      parent.instanceId,
      parent.executionId,
      taskResultInboxKey(event.EventId),
      failed,
      now,
    );
    return true;
  }
  if (existing) await ctx.store.deleteHistory(childId);
  await createInstance(ctx, {
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
async function notifyParent(
  ctx: RuntimeContext,
  child: InstanceRecord,
  completion: HistoryEventJson,
): Promise<void> {
  const { parentInstanceId, parentExecutionId, parentTaskScheduledId } = child;
  if (!parentInstanceId || !parentExecutionId || parentTaskScheduledId === undefined) return;
  const parent = await ctx.store.getInstance(parentInstanceId);
  if (
    !parent ||
    parent.executionId !== parentExecutionId ||
    TERMINAL_STATUSES.has(parent.runtimeStatus)
  ) {
    return;
  }
  const now = ctx.clock();
  const succeeded =
    completion.EventType === EventType.ExecutionCompleted &&
    completion.OrchestrationStatus === 'Completed';
  const reason =
    completion.EventType === EventType.ExecutionTerminated
      ? `Sub-orchestration '${child.instanceId}' was terminated.`
      : parseText(completion.Result);
  const event = succeeded
    ? plainEvent(EventType.SubOrchestrationInstanceCompleted, now, {
        TaskScheduledId: parentTaskScheduledId,
        Result: completion.Result ?? 'null',
      })
    : plainEvent(EventType.SubOrchestrationInstanceFailed, now, {
        TaskScheduledId: parentTaskScheduledId,
        Reason: reason,
        Details: completion.Details ?? orchestrationFailureDetails(reason),
      });
  await ctx.store.putInbox(
    parentInstanceId,
    parentExecutionId,
    taskResultInboxKey(parentTaskScheduledId),
    event,
    now,
  );
  await ctx.store.sendControl({ kind: 'wake', instanceId: parentInstanceId });
}

function parseText(json: string | undefined): string {
  if (json === undefined) return '';
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'string' ? value : json;
  } catch {
    return json;
  }
}
