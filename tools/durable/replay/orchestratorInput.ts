/**
 * The orchestrator trigger's protocol: what the runtime hands an orchestrator function (the
 * `DurableOrchestrationInput` the extension sends) and how to read what comes back — an
 * `OrchestratorState`, or a thrown `OrchestrationFailureError` whose message carries the state
 * after `$OutOfProcData$:` (lib/src/error/OrchestrationFailureError.js).
 */
import { forOrchestrator, type FailureDetailsJson, type HistoryEventJson } from './historyEvents';
import { LONG_RUNNING_TIMER_INTERVAL_DURATION, MAXIMUM_SHORT_TIMER_DURATION } from './longTimers';

/** Replay schema V3 (`ReplaySchema.V3` = 2): compound actions, timers with explicit limits. */
export const UPPER_SCHEMA_VERSION = 2;

/** How long the SDK waits between two polls of an HTTP 202 (callHttp). */
export const DEFAULT_HTTP_ASYNC_SLEEP_MS = 30_000;

/** What the `orchestrationTrigger` binding delivers to the orchestrator function. */
export interface DurableOrchestrationInputJson {
  history: HistoryEventJson[];
  input: unknown;
  instanceId: string;
  isReplaying: boolean;
  parentInstanceId?: string;
  upperSchemaVersion: number;
  maximumShortTimerDuration: string;
  longRunningTimerIntervalDuration: string;
  defaultHttpAsyncRequestSleepTimeMillseconds: number;
}

/**
 * Builds the trigger value for one episode.
 *
 * @param pastEvents - the committed history (handed over with `IsPlayed: true`).
 * @param newEvents - this episode's events, starting with its OrchestratorStarted.
 */
export function buildOrchestratorInput(args: {
  instanceId: string;
  pastEvents: readonly HistoryEventJson[];
  newEvents: readonly HistoryEventJson[];
  input: unknown;
  parentInstanceId?: string;
}): DurableOrchestrationInputJson {
  return {
    history: [
      ...args.pastEvents.map((event) => forOrchestrator(event, true)),
      ...args.newEvents.map((event) => forOrchestrator(event, false)),
    ],
    input: args.input,
    instanceId: args.instanceId,
    isReplaying: args.pastEvents.length > 0,
    parentInstanceId: args.parentInstanceId,
    upperSchemaVersion: UPPER_SCHEMA_VERSION,
    maximumShortTimerDuration: MAXIMUM_SHORT_TIMER_DURATION,
    longRunningTimerIntervalDuration: LONG_RUNNING_TIMER_INTERVAL_DURATION,
    defaultHttpAsyncRequestSleepTimeMillseconds: DEFAULT_HTTP_ASYNC_SLEEP_MS,
  };
}

/** `OrchestratorState` after a JSON round trip. */
export interface OrchestratorStateJson {
  isDone: boolean;
  actions: unknown;
  output?: unknown;
  error?: string;
  customStatus?: unknown;
}

/** The result of one orchestrator invocation. */
export type OrchestratorOutcome =
  | { kind: 'state'; state: OrchestratorStateJson }
  | {
      kind: 'failed';
      message: string;
      failureDetails: FailureDetailsJson;
      customStatus?: unknown;
      /**
       * The state the orchestrator threw with (OrchestrationFailureError): the extension replays
       * its actions, awaiting each, before it fails the orchestration.
       */
      state?: OrchestratorStateJson;
    };

const OUT_OF_PROC_DATA_LABEL = '\n\n$OutOfProcData$:';

/** Reads the value an orchestrator function returned (any JSON-compatible form). */
export function outcomeFromReturn(value: unknown): OrchestratorOutcome {
  const state = normalizeState(value);
  if (
    state === null ||
    typeof state !== 'object' ||
    typeof (state as { isDone?: unknown }).isDone !== 'boolean' ||
    !Array.isArray((state as { actions?: unknown }).actions)
  ) {
    const message =
      'The orchestrator function did not return an orchestrator state; is it registered with df.app.orchestration?';
    return {
      kind: 'failed',
      message,
      failureDetails: { ErrorType: 'Error', ErrorMessage: message },
    };
  }
  return { kind: 'state', state: state as OrchestratorStateJson };
}

/** Reads the error an orchestrator invocation threw. */
export function outcomeFromError(error: unknown): OrchestratorOutcome {
  const text = error instanceof Error ? error.message : String(error);
  const at = text.indexOf(OUT_OF_PROC_DATA_LABEL);
  if (at < 0) {
    return {
      kind: 'failed',
      message: text,
      failureDetails: {
        ErrorType: error instanceof Error ? error.name : 'Error',
        ErrorMessage: text,
        StackTrace: error instanceof Error ? error.stack : undefined,
      },
    };
  }
  let state: {
    error?: unknown;
    failureDetails?: unknown;
    customStatus?: unknown;
    actions?: unknown;
  } = {};
  try {
    state = JSON.parse(text.slice(at + OUT_OF_PROC_DATA_LABEL.length)) as typeof state;
  } catch {
    // The text before the label is then all there is.
  }
  // The state's `error` is the orchestrator's exception message; the text before the label is
  // not always (durable-functions 3.x passes a boolean there, which reads as "false").
  const message =
    typeof state.error === 'string' && state.error !== '' ? state.error : text.slice(0, at);
  const failureDetails =
    state.failureDetails && typeof state.failureDetails === 'object'
      ? (state.failureDetails as FailureDetailsJson)
      : {
          ErrorType: 'Error',
          ErrorMessage: message,
          StackTrace: error instanceof Error ? error.stack : undefined,
        };
  return {
    kind: 'failed',
    message,
    failureDetails,
    customStatus: state.customStatus,
    ...(Array.isArray(state.actions)
      ? { state: { isDone: false, actions: state.actions, customStatus: state.customStatus } }
      : {}),
  };
}

/**
 * The state as plain JSON, whether the host handed back the object itself or its JSON text (the
 * shape it has after crossing the worker boundary).
 */
function normalizeState(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return JSON.parse(JSON.stringify(value)) as unknown;
}
