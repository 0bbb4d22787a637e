/**
 * The status JSON of `GET /runtime/webhooks/durabletask/instances/{id}`, in the shape
 * `durable-functions`' `DurableOrchestrationStatus` reads (name, instanceId, runtimeStatus,
 * input, customStatus, output, createdTime, lastUpdatedTime, and historyEvents on request).
 */
import { EventType, eventTypeName, type HistoryEventJson } from '../replay/historyEvents';
import type { InstanceRecord } from '../store/records';

/** What an instance status includes (history, its outputs, the input). */
export interface StatusOptions {
  showInput: boolean;
  /** The current execution's history, when `showHistory=true`. */
  history?: readonly HistoryEventJson[];
  showHistoryOutput: boolean;
}

/** Builds the status object of one instance. */
export function instanceStatus(
  instance: InstanceRecord,
  options: StatusOptions,
): Record<string, unknown> {
  const status: Record<string, unknown> = {
    name: instance.name,
    instanceId: instance.instanceId,
    runtimeStatus: instance.runtimeStatus,
    input: options.showInput ? parseOrNull(instance.input) : null,
    customStatus: parseOrNull(instance.customStatus),
    output: parseOrNull(instance.output),
    createdTime: wholeSeconds(instance.createdTime),
    lastUpdatedTime: wholeSeconds(instance.lastUpdatedTime),
  };
  if (options.history)
    status.historyEvents = historyForStatus(options.history, options.showHistoryOutput);
  return status;
}

/**
 * History as the extension shows it: bookkeeping events (OrchestratorStarted/Completed) left
 * out, completions labelled with the function they complete, payloads only with
 * `showHistoryOutput`.
 */
export function historyForStatus(
  history: readonly HistoryEventJson[],
  showOutput: boolean,
): Array<Record<string, unknown>> {
  const scheduled = new Map<number, HistoryEventJson>();
  const shown: Array<Record<string, unknown>> = [];
  for (const event of history) {
    if (
      event.EventType === EventType.OrchestratorStarted ||
      event.EventType === EventType.OrchestratorCompleted
    ) {
      continue;
    }
    if (event.EventId >= 0) scheduled.set(event.EventId, event);
    const entry: Record<string, unknown> = {
      EventType: eventTypeName(event.EventType),
      EventId: event.EventId,
      Timestamp: event.Timestamp,
    };
    const origin = event.TaskScheduledId ?? event.TimerId;
    const source = origin === undefined ? undefined : scheduled.get(origin);
    const functionName = event.Name ?? source?.Name;
    if (functionName !== undefined) entry.FunctionName = functionName;
    if (event.TaskScheduledId !== undefined) entry.TaskScheduledId = event.TaskScheduledId;
    if (event.TimerId !== undefined) entry.TimerId = event.TimerId;
    if (source) entry.ScheduledTime = source.Timestamp;
    if (event.FireAt !== undefined) entry.FireAt = event.FireAt;
    if (event.InstanceId !== undefined) entry.InstanceId = event.InstanceId;
    if (event.OrchestrationStatus !== undefined)
      entry.OrchestrationStatus = event.OrchestrationStatus;
    if (event.Reason !== undefined) entry.Reason = event.Reason;
    if (event.FailureDetails !== undefined) entry.FailureDetails = event.FailureDetails;
    if (showOutput) {
      if (event.Input !== undefined) entry.Input = parseOrNull(event.Input);
      if (event.Result !== undefined) entry.Result = parseOrNull(event.Result);
    }
    shown.push(entry);
  }
  return shown;
}

function parseOrNull(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `2024-05-01T10:00:00Z`: the extension reports times to the second. */
function wholeSeconds(iso: string): string {
  return iso.replace(/\.\d+Z$/, 'Z');
}
