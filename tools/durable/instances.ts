/**
 * Starting an orchestration instance: its start event goes to the inbox of a fresh execution, the
 * instance row points at that execution (Pending), and a wake-up message makes the control worker
 * run the first episode.
 */
import type { RuntimeContext } from './context';
import { EventType, plainEvent } from './replay/historyEvents';
import { START_INBOX_KEY } from './store/keys';
import type { InstanceRecord } from './store/records';

/** The parent of a sub-orchestration. */
export interface ParentLink {
  instanceId: string;
  executionId: string;
  taskScheduledId: number;
}

/**
 * Creates (or re-creates, after the caller purged it) an instance and wakes it.
 *
 * @param input - JSON text of the input, or undefined for none.
 */
export async function createInstance(
  ctx: RuntimeContext,
  args: { instanceId: string; name: string; input?: string; parent?: ParentLink },
): Promise<InstanceRecord> {
  const now = ctx.clock();
  const executionId = ctx.newId();
  await writeStartEvent(ctx, args.instanceId, executionId, args.name, args.input, args.parent);
  const record: InstanceRecord = {
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
export async function writeStartEvent(
  ctx: RuntimeContext,
  instanceId: string,
  executionId: string,
  name: string,
  input: string | undefined,
  parent?: ParentLink,
): Promise<void> {
  const now = ctx.clock();
  const started = plainEvent(EventType.ExecutionStarted, now, {
    Name: name,
    Input: input,
    ParentInstance: parent
      ? { InstanceId: parent.instanceId, TaskScheduledId: parent.taskScheduledId }
      : undefined,
  });
  await ctx.store.putInbox(instanceId, executionId, START_INBOX_KEY, started, now);
}
