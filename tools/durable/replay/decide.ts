/**
 * One orchestration episode, decided: given the ledger of the committed history, the new events
 * (in the order the orchestrator saw them) and what the orchestrator returned, which events to
 * append — the work to schedule, with sequence numbers matching the ones `durable-functions` gave
 * its tasks, and the completion if the execution is over. Pure: no I/O, no clock, no randomness
 * beyond what the caller passes in.
 */
import { actionTree, leavesOf, MalformedActionsError, type OrchestratorAction } from './actions';
import {
  customStatusProblem,
  missingTaskProblem,
  nodeDone,
  retryTimeoutProblem,
  unknownFunctionProblem,
  type KnownFunctions,
} from './extensionRules';
import {
  EventType,
  orchestrationFailureDetails,
  type FailureDetailsJson,
  type FailureText,
  type HistoryEventJson,
  type LocalEventInfo,
} from './historyEvents';
import { subOrchestrationInstanceId } from '../store/keys';
import {
  recordEvent,
  retryStepOf,
  type Ledger,
  type RetryChain,
  type ScheduledTask,
} from './ledger';
import { nextLeg, nextLegOf, timerFields } from './longTimers';
import type { OrchestratorOutcome } from './orchestratorInput';
import { retryDelayMs, retryTimedOut } from './retry';

/**
 * What deciding one orchestrator episode needs: the history so far, the new events and what the
 * orchestrator yielded.
 */
export interface EpisodeInput {
  instanceId: string;
  orchestrationName: string;
  /** Ledger of the committed history; updated in place with this episode's events. */
  ledger: Ledger;
  /** This episode's arriving events, in the order handed to the orchestrator. */
  newEvents: readonly HistoryEventJson[];
  outcome: OrchestratorOutcome;
  now: Date;
  /** Supplies the execution id that follows a continue-as-new. */
  newExecutionId: () => string;
  /** The app's functions; calls to others fail the orchestration (unchecked when absent). */
  known?: KnownFunctions;
  /** The custom status before this episode (kept when the new one is refused). */
  previousCustomStatus?: unknown;
}

/** How an instance stands after an episode. */
export type EpisodeStatus = 'Running' | 'Completed' | 'Failed' | 'ContinuedAsNew';

/** What an episode decided: the events to append, the status and the custom status. */
export interface EpisodeDecision {
  /** Events to append after the new events: scheduled work, then the completion if any. */
  events: HistoryEventJson[];
  status: EpisodeStatus;
  customStatus: unknown;
}

/** Why an episode failed the orchestration although the orchestrator code did not throw. */
class EpisodeFailure extends Error {}

/** Decides one episode. Never throws for orchestrator mistakes: they fail the orchestration. */
export function decideEpisode(input: EpisodeInput): EpisodeDecision {
  const { outcome, now } = input;
  const { state } = outcome;
  const customStatus = outcome.kind === 'state' ? outcome.state.customStatus : outcome.customStatus;
  // The extension sets the custom status before it replays anything, and refuses one over 16 KB.
  const statusProblem = customStatusProblem(customStatus);
  if (statusProblem) {
    return failed(
      input,
      statusProblem,
      { ErrorType: 'ArgumentException', ErrorMessage: statusProblem },
      input.previousCustomStatus,
    );
  }
  // A plain exception (no OrchestrationFailureError state) fails at once, as in the extension.
  if (!state) {
    const { message, failureDetails } = outcome as Extract<OrchestratorOutcome, { kind: 'failed' }>;
    return failed(input, message, failureDetails, customStatus);
  }
  const scheduled: HistoryEventJson[] = [];
  try {
    for (const event of input.newEvents) {
      const step = retryStepOf(input.ledger, event);
      const longTimer = nextLegOf(input.ledger, event, now);
      recordEvent(input.ledger, event);
      if (longTimer) scheduled.push(schedule(input.ledger, nextLeg(longTimer, now)));
      if (step?.step === 'failedAttempt') {
        scheduled.push(schedule(input.ledger, retryTimer(step.chain, now)));
      } else if (step?.step === 'retryTimerFired' && step.retry) {
        scheduled.push(schedule(input.ledger, retryAttempt(input, step.chain)));
      }
    }
    const walk = walkActions(input, state.actions, scheduled);
    // Until every yielded task is done the extension is still awaiting: Running, whatever the
    // orchestrator returned or threw (siblings of a failed Task.all keep running and land).
    if (walk.waiting) return { events: scheduled, status: 'Running', customStatus };
    if (outcome.kind === 'failed') {
      return failed(input, outcome.message, outcome.failureDetails, customStatus);
    }
    if (!state.isDone) return { events: scheduled, status: 'Running', customStatus };
    if (walk.continueAsNew) {
      const completion = completionEvent(now, 'ContinuedAsNew', walk.continueAsNew.input, {
        nextExecutionId: input.newExecutionId(),
      });
      return { events: [...scheduled, completion], status: 'ContinuedAsNew', customStatus };
    }
    const completion = completionEvent(now, 'Completed', state.output ?? null);
    return { events: [...scheduled, completion], status: 'Completed', customStatus };
  } catch (error) {
    if (error instanceof EpisodeFailure || error instanceof MalformedActionsError) {
      return failed(
        input,
        error.message,
        { ErrorType: error.name, ErrorMessage: error.message },
        customStatus,
      );
    }
    throw error;
  }
}

/**
 * Goes through the yielded actions as the extension's shim does: node after node, checking each
 * task against the history and scheduling the new ones, until a node is not done yet — the
 * extension has not reached the nodes after it, so their tasks wait.
 */
function walkActions(
  input: EpisodeInput,
  actions: unknown,
  scheduled: HistoryEventJson[],
): { waiting: boolean; continueAsNew?: Extract<OrchestratorAction, { kind: 'continueAsNew' }> } {
  const { ledger } = input;
  const known = ledger.actionTasks.length;
  const leafInfo = new Map<OrchestratorAction, { task?: ScheduledTask; eventOrdinal?: number }>();
  const waits = new Map<string, number>();
  let continueAsNew: Extract<OrchestratorAction, { kind: 'continueAsNew' }> | undefined;
  let index = 0;
  let waiting = false;
  for (const node of actionTree(actions)) {
    for (const action of leavesOf([node])) {
      if (action.kind === 'waitForEvent') {
        const ordinal = (waits.get(action.name) ?? 0) + 1;
        waits.set(action.name, ordinal);
        leafInfo.set(action, { eventOrdinal: ordinal });
        continue;
      }
      if (action.kind === 'continueAsNew') {
        if (!waiting) continueAsNew = action;
        continue;
      }
      if (action.kind === 'unsupported') {
        throw new EpisodeFailure(
          `The local durable runtime does not support ${action.description}; run this orchestration under Azure Functions.`,
        );
      }
      const problem = waiting
        ? undefined
        : (unknownFunctionProblem(action, input.known) ?? retryTimeoutProblem(action));
      if (problem) throw new EpisodeFailure(problem);
      let task: ScheduledTask | undefined;
      if (index < known) {
        task = ledger.actionTasks[index]!;
        if (!sameTask(task, action)) {
          throw new EpisodeFailure(
            `Non-deterministic orchestration: the history has ${describeTask(task)} at sequence number ${task.eventId}, ` +
              `but this replay asked for ${describeAction(action)} there. Was the orchestrator code changed while this instance was running?`,
          );
        }
      } else if (!waiting) {
        const event = schedule(ledger, forAction(input, action));
        scheduled.push(event);
        task = ledger.tasks.get(event.EventId);
      }
      leafInfo.set(action, { task });
      index += 1;
    }
    if (!waiting && !nodeDone(node, ledger, (action) => leafInfo.get(action) ?? {})) {
      waiting = true;
    }
  }
  // The history holds a task this replay did not ask for: DurableTask.Core fails the
  // orchestration (NonDeterministicOrchestrationException).
  if (index < known) throw new EpisodeFailure(missingTaskProblem(ledger.actionTasks[index]!));
  return { waiting, continueAsNew };
}

function failed(
  input: EpisodeInput,
  message: string,
  failureDetails: FailureDetailsJson,
  customStatus: unknown,
): EpisodeDecision {
  const reason = `Orchestrator function '${input.orchestrationName}' failed: ${message}`;
  // As the extension records it (legacy error propagation): the reason as the result, Details as
  // `OutOfProcOrchestrationShim` writes them; a parent receives both on
  // SubOrchestrationInstanceFailed.
  const completion: HistoryEventJson = {
    ...completionEvent(input.now, 'Failed', reason),
    Details: orchestrationFailureDetails(message, failureDetails.StackTrace),
  };
  return { events: [completion], status: 'Failed', customStatus };
}

function completionEvent(
  now: Date,
  status: 'Completed' | 'Failed' | 'ContinuedAsNew',
  result: unknown,
  local?: LocalEventInfo,
): HistoryEventJson {
  return {
    EventType: EventType.ExecutionCompleted,
    EventId: -1,
    Timestamp: now.toISOString(),
    OrchestrationStatus: status,
    Result: JSON.stringify(result ?? null),
    Local: local,
  };
}

/** Gives the event the next sequence number and records it. */
function schedule(ledger: Ledger, event: Omit<HistoryEventJson, 'EventId'>): HistoryEventJson {
  const numbered: HistoryEventJson = { ...event, EventId: ledger.nextEventId };
  recordEvent(ledger, numbered);
  return numbered;
}

function forAction(
  input: EpisodeInput,
  action: Extract<OrchestratorAction, { kind: 'activity' | 'subOrchestration' | 'timer' }>,
): Omit<HistoryEventJson, 'EventId'> {
  const Timestamp = input.now.toISOString();
  const origin = 'action' as const;
  switch (action.kind) {
    case 'activity':
      return {
        EventType: EventType.TaskScheduled,
        Timestamp,
        Name: action.name,
        Input: jsonText(action.input),
        Local: { origin, retry: action.retry },
      };
    case 'subOrchestration':
      return {
        EventType: EventType.SubOrchestrationInstanceCreated,
        Timestamp,
        Name: action.name,
        InstanceId:
          action.instanceId ??
          subOrchestrationInstanceId(input.instanceId, input.ledger.nextEventId),
        Input: jsonText(action.input),
        Local: { origin, retry: action.retry },
      };
    case 'timer': {
      const { FireAt, finalFireAt } = timerFields(input.now, action.fireAt);
      return {
        EventType: EventType.TimerCreated,
        Timestamp,
        FireAt,
        Local: finalFireAt ? { origin, finalFireAt } : { origin },
      };
    }
  }
}

function retryTimer(chain: RetryChain, now: Date): Omit<HistoryEventJson, 'EventId'> {
  const fireAt = new Date(now.getTime() + retryDelayMs(chain.policy, chain.failures));
  return {
    EventType: EventType.TimerCreated,
    Timestamp: now.toISOString(),
    FireAt: fireAt.toISOString(),
    Local: { origin: 'retry', chain: chain.firstId },
  };
}

/** The Reason and Details of a chain's last failure (a retry timeout passed: it fails again). */
function lastFailureText(last: HistoryEventJson | undefined): FailureText {
  if (last?.Reason !== undefined && last.Details !== undefined) {
    return { Reason: last.Reason, Details: last.Details };
  }
  const reason = last?.Reason ?? 'The retry timeout passed before the next attempt.';
  return { Reason: reason, Details: orchestrationFailureDetails(reason) };
}

function retryAttempt(input: EpisodeInput, chain: RetryChain): Omit<HistoryEventJson, 'EventId'> {
  // The retry timeout has passed: the attempt still takes its sequence number (the library
  // counts it) but fails at once with the last real failure instead of running.
  const failImmediately = retryTimedOut(chain.policy, chain.firstAttemptAt, input.now)
    ? lastFailureText(chain.lastFailure)
    : undefined;
  const Local: LocalEventInfo = { origin: 'retry', chain: chain.firstId, failImmediately };
  const Timestamp = input.now.toISOString();
  if (chain.kind === 'activity') {
    return {
      EventType: EventType.TaskScheduled,
      Timestamp,
      Name: chain.name,
      Input: chain.input,
      Local,
    };
  }
  const generated = subOrchestrationInstanceId(input.instanceId, chain.firstId);
  return {
    EventType: EventType.SubOrchestrationInstanceCreated,
    Timestamp,
    Name: chain.name,
    InstanceId:
      chain.instanceId !== undefined && chain.instanceId !== generated
        ? chain.instanceId
        : subOrchestrationInstanceId(input.instanceId, input.ledger.nextEventId),
    Input: chain.input,
    Local,
  };
}

function sameTask(task: ScheduledTask, action: OrchestratorAction): boolean {
  switch (action.kind) {
    case 'activity':
      return (
        task.kind === 'activity' &&
        task.event.Name === action.name &&
        (task.event.Local?.retry !== undefined) === (action.retry !== undefined)
      );
    case 'subOrchestration':
      return task.kind === 'subOrchestration' && task.event.Name === action.name;
    case 'timer':
      return task.kind === 'timer';
    default:
      return false;
  }
}

function describeTask(task: ScheduledTask): string {
  if (task.kind === 'timer') return 'a timer';
  const what = task.kind === 'activity' ? 'activity' : 'sub-orchestration';
  return `${what} '${task.event.Name ?? ''}'${task.event.Local?.retry ? ' (with retry)' : ''}`;
}

function describeAction(action: OrchestratorAction): string {
  switch (action.kind) {
    case 'activity':
      return `activity '${action.name}'${action.retry ? ' (with retry)' : ''}`;
    case 'subOrchestration':
      return `sub-orchestration '${action.name}'`;
    case 'timer':
      return 'a timer';
    default:
      return action.kind;
  }
}

function jsonText(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}
