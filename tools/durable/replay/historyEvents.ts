/**
 * History events in the JSON shape the Durable Functions extension sends to out-of-process
 * orchestrators (`DurableOrchestrationInput.history`), which `durable-functions` replays.
 *
 * The numbering is the library's `HistoryEventType` (lib/src/history/HistoryEventType.js); a unit
 * test pins the two together. Results and inputs travel as JSON text, as the extension sends them.
 */

/** Event types, numbered as in `durable-functions`. */
export const EventType = {
  ExecutionStarted: 0,
  ExecutionCompleted: 1,
  ExecutionFailed: 2,
  ExecutionTerminated: 3,
  TaskScheduled: 4,
  TaskCompleted: 5,
  TaskFailed: 6,
  SubOrchestrationInstanceCreated: 7,
  SubOrchestrationInstanceCompleted: 8,
  SubOrchestrationInstanceFailed: 9,
  TimerCreated: 10,
  TimerFired: 11,
  OrchestratorStarted: 12,
  OrchestratorCompleted: 13,
  EventSent: 14,
  EventRaised: 15,
  ContinueAsNew: 16,
  GenericEvent: 17,
  HistoryState: 18,
  ExecutionSuspended: 19,
  ExecutionResumed: 20,
} as const;

/** The numeric value of one {@link EventType}. */
export type EventTypeValue = (typeof EventType)[keyof typeof EventType];

/** The name of an event type number (for status output), or `Unknown(<n>)`. */
export function eventTypeName(eventType: number): string {
  const entry = Object.entries(EventType).find(([, value]) => value === eventType);
  return entry ? entry[0] : `Unknown(${eventType})`;
}

/** Failure details as the extension serialises them (`FailureDetails` on TaskFailed etc.). */
export interface FailureDetailsJson {
  ErrorType: string;
  ErrorMessage: string;
  StackTrace?: string;
  IsNonRetriable?: boolean;
  Properties?: Record<string, unknown>;
  InnerFailure?: FailureDetailsJson;
}

/** Retry settings of a `callActivityWithRetry` / `callSubOrchestratorWithRetry` action. */
export interface RetryPolicy {
  firstRetryIntervalInMilliseconds: number;
  maxNumberOfAttempts: number;
  backoffCoefficient?: number;
  maxRetryIntervalInMilliseconds?: number;
  retryTimeoutInMilliseconds?: number;
}

/**
 * The runtime's own bookkeeping on a stored event. It is removed before the history is handed to
 * the orchestrator, which sees exactly what the extension would send.
 */
export interface LocalEventInfo {
  /** The inbox row this event came from (marks that row as consumed). */
  inboxKey?: string;
  /**
   * Scheduled because the orchestrator yielded an action, by the runtime for a retry, or as the
   * next leg of a long timer.
   */
  origin?: 'action' | 'retry' | 'leg';
  /** Retry chain: the EventId of the chain's first attempt; a leg: the timer's first leg. */
  chain?: number;
  /** On the first leg of a timer longer than the longest single timer: when it really fires. */
  finalFireAt?: string;
  /** Retry settings, on a chain's first attempt. */
  retry?: RetryPolicy;
  /** Set on a retry attempt that must not run (retry timeout passed): fail it with these. */
  failImmediately?: FailureText;
  /** On a continue-as-new completion: the execution that follows. */
  nextExecutionId?: string;
}

/** One history event. Fields beyond the common ones depend on `EventType`. */
export interface HistoryEventJson {
  EventType: number;
  /** The task sequence number for scheduled events; -1 for all others. */
  EventId: number;
  /** ISO time the event was recorded. */
  Timestamp: string;
  /** Set when handed to the orchestrator: true for events of earlier episodes. */
  IsPlayed?: boolean;
  Name?: string;
  /** JSON text. */
  Input?: string;
  /** JSON text. */
  Result?: string;
  Reason?: string;
  Details?: string;
  FailureDetails?: FailureDetailsJson;
  TaskScheduledId?: number;
  TimerId?: number;
  FireAt?: string;
  InstanceId?: string;
  Version?: string;
  /** On ExecutionCompleted: Completed, Failed or ContinuedAsNew. */
  OrchestrationStatus?: 'Completed' | 'Failed' | 'ContinuedAsNew';
  /** On ExecutionStarted of a sub-orchestration. */
  ParentInstance?: { InstanceId: string; TaskScheduledId: number };
  Local?: LocalEventInfo;
}

/** Events that consume a task sequence number (the orchestrator numbers its tasks the same way). */
export function isScheduledEvent(event: HistoryEventJson): boolean {
  return (
    event.EventType === EventType.TaskScheduled ||
    event.EventType === EventType.TimerCreated ||
    event.EventType === EventType.SubOrchestrationInstanceCreated
  );
}

/** An event not tied to a scheduled task (EventId -1). */
export function plainEvent(
  eventType: EventTypeValue,
  timestamp: Date,
  fields: Omit<Partial<HistoryEventJson>, 'EventType' | 'EventId' | 'Timestamp'> = {},
): HistoryEventJson {
  return { EventType: eventType, EventId: -1, Timestamp: timestamp.toISOString(), ...fields };
}

/** The Reason and Details of a failure, as the extension writes them on TaskFailed etc. */
export interface FailureText {
  Reason: string;
  Details: string;
}

/** `HResult` of a plain `System.Exception` (COR_E_EXCEPTION). */
const COR_E_EXCEPTION = -2146233088;

/**
 * A serialised .NET exception as the extension's error data converter writes it (Newtonsoft,
 * `TypeNameHandling.Objects`, the ISerializable fields of `System.Exception`).
 */
function dotnetException(
  typeName: string,
  assembly: string,
  message: string,
  inner: Record<string, unknown> | null,
  stackTrace: string | null,
): Record<string, unknown> {
  return {
    $type: `${typeName}, ${assembly}`,
    ClassName: typeName,
    Message: message,
    Data: null,
    InnerException: inner,
    HelpURL: null,
    StackTraceString: stackTrace,
    RemoteStackTraceString: null,
    RemoteStackIndex: 0,
    ExceptionMethod: null,
    HResult: COR_E_EXCEPTION,
    Source: stackTrace === null ? null : 'Microsoft.Azure.WebJobs.Script',
    WatsonBuckets: null,
  };
}

/**
 * TaskFailed's Reason and Details for an activity that threw, in the shape the Durable extension
 * gives out-of-process (JavaScript) orchestrators; `durable-functions` then rejects the task with
 * an `Error` whose message is `<Reason> \n <Details>` (TaskOrchestrationExecutor), so an
 * orchestration that does not catch it fails with that whole text. How Azure builds it:
 * - the Node.js worker reports the error as `{message: error.message, stackTrace: error.stack}`
 *   (azure-functions-nodejs-worker `toRpcStatus`);
 * - the host wraps it in an `RpcException` whose message is
 *   `Result: Failure\nException: <message>\nStack: <stack>` (azure-functions-host
 *   `Workers/Rpc/MessageExtensions/RpcException.cs`);
 * - the extension's `TaskActivityShim` takes the text between `\nException:` and `\nStack:` as the
 *   friendly message (`OutOfProcExceptionHelpers`, leading space included), throws
 *   `TaskFailureException("Activity function '<name>' failed: <friendly>",
 *   Utils.SerializeCause(new Exception(friendly, rpcException)))`, and DurableTask.Core records its
 *   message as Reason and the serialised exception as Details.
 * The .NET stack trace of the host's frames is an approximation; the rest follows those sources.
 */
export function activityFailure(activityName: string, error: unknown): FailureText {
  const err = error instanceof Error ? error : new Error(String(error));
  const stack = err.stack ?? '';
  const rpcMessage = `Result: Failure\nException: ${err.message}\nStack: ${stack}`;
  const friendly = rpcMessage.slice(
    rpcMessage.indexOf('\nException:') + '\nException:'.length,
    rpcMessage.indexOf('\nStack:'),
  );
  const rpcException = dotnetException(
    'Microsoft.Azure.WebJobs.Script.Workers.Rpc.RpcException',
    'Microsoft.Azure.WebJobs.Script',
    rpcMessage,
    null,
    '   at Microsoft.Azure.WebJobs.Script.Description.WorkerFunctionInvoker.InvokeCore(Object[] parameters, FunctionInvocationContext context)',
  );
  return {
    Reason: `Activity function '${activityName}' failed: ${friendly}`,
    Details: JSON.stringify(
      dotnetException('System.Exception', 'System.Private.CoreLib', friendly, rpcException, null),
    ),
  };
}

/**
 * The Details the extension gives a failed orchestration (`OutOfProcOrchestrationShim`:
 * `Message: <error>, StackTrace: <stack>`), which a parent receives on
 * SubOrchestrationInstanceFailed with the child's reason.
 */
export function orchestrationFailureDetails(message: string, stackTrace?: string): string {
  return `Message: ${message}, StackTrace: ${stackTrace ?? ''}`;
}

/** A copy of the event as the orchestrator receives it: no runtime bookkeeping, `IsPlayed` set. */
export function forOrchestrator(event: HistoryEventJson, isPlayed: boolean): HistoryEventJson {
  const { Local: _local, ...rest } = event;
  return { ...rest, IsPlayed: isPlayed };
}
