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
  /** Scheduled because the orchestrator yielded an action, or by the runtime for a retry. */
  origin?: 'action' | 'retry';
  /** Retry chain: the EventId of the chain's first attempt. */
  chain?: number;
  /** Retry settings, on a chain's first attempt. */
  retry?: RetryPolicy;
  /** Set on a retry attempt that must not run (retry timeout passed): fail it with these. */
  failImmediately?: FailureDetailsJson;
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

/**
 * Failure details of a thrown value. A message that is itself the JSON payload the library writes
 * when an exception-properties provider is registered (`{errorType, errorMessage, properties}`)
 * is unpacked so the properties reach the orchestrator.
 */
export function failureDetailsOf(error: unknown): FailureDetailsJson {
  const err = error instanceof Error ? error : new Error(String(error));
  try {
    const payload = JSON.parse(err.message) as Record<string, unknown>;
    if (typeof payload.errorType === 'string' && typeof payload.errorMessage === 'string') {
      return {
        ErrorType: payload.errorType,
        ErrorMessage: payload.errorMessage,
        StackTrace: typeof payload.stackTrace === 'string' ? payload.stackTrace : err.stack,
        IsNonRetriable: payload.isNonRetriable === true,
        Properties:
          payload.properties && typeof payload.properties === 'object'
            ? (payload.properties as Record<string, unknown>)
            : undefined,
      };
    }
  } catch {
    // Not a JSON payload: an ordinary error message.
  }
  return {
    ErrorType: err.name || 'Error',
    ErrorMessage: err.message,
    StackTrace: err.stack,
    IsNonRetriable: false,
  };
}

/** A copy of the event as the orchestrator receives it: no runtime bookkeeping, `IsPlayed` set. */
export function forOrchestrator(event: HistoryEventJson, isPlayed: boolean): HistoryEventJson {
  const { Local: _local, ...rest } = event;
  return { ...rest, IsPlayed: isPlayed };
}
