/**
 * One orchestration episode, decided: given the ledger of the committed history, the new events
 * (in the order the orchestrator saw them) and what the orchestrator returned, which events to
 * append — the work to schedule, with sequence numbers matching the ones `durable-functions` gave
 * its tasks, and the completion if the execution is over. Pure: no I/O, no clock, no randomness
 * beyond what the caller passes in.
 */
import { flattenActions, MalformedActionsError, type OrchestratorAction } from './actions';
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
  const customStatus = outcome.kind === 'state' ? outcome.state.customStatus : outcome.customStatus;
  if (outcome.kind === 'failed') {
    return failed(input, outcome.message, outcome.failureDetails, customStatus);
  }
  const scheduled: HistoryEventJson[] = [];
  try {
    for (const event of input.newEvents) {
      const step = retryStepOf(input.ledger, event);
      recordEvent(input.ledger, event);
      if (step?.step === 'failedAttempt') {
        scheduled.push(schedule(input.ledger, retryTimer(step.chain, now)));
      } else if (step?.step === 'retryTimerFired' && step.retry) {
        scheduled.push(schedule(input.ledger, retryAttempt(input, step.chain)));
      }
    }

    let continueAsNew: Extract<OrchestratorAction, { kind: 'continueAsNew' }> | undefined;
    const known = input.ledger.actionTasks.length;
    let index = 0;
    for (const action of flattenActions(outcome.state.actions)) {
      if (action.kind === 'waitForEvent') continue;
      if (action.kind === 'continueAsNew') {
        continueAsNew = action;
        continue;
      }
      if (action.kind === 'unsupported') {
        throw new EpisodeFailure(
          `The local durable runtime does not support ${action.description}; run this orchestration under Azure Functions.`,
        );
      }
      if (index < known) {
        const task = input.ledger.actionTasks[index]!;
        if (!sameTask(task, action)) {
          throw new EpisodeFailure(
            `Non-deterministic orchestration: the history has ${describeTask(task)} at sequence number ${task.eventId}, ` +
              `but this replay asked for ${describeAction(action)} there. Was the orchestrator code changed while this instance was running?`,
          );
        }
      } else {
        scheduled.push(schedule(input.ledger, forAction(input, action)));
      }
      index += 1;
    }

    if (!outcome.state.isDone) return { events: scheduled, status: 'Running', customStatus };
    if (continueAsNew) {
      const completion = completionEvent(now, 'ContinuedAsNew', continueAsNew.input, {
        nextExecutionId: input.newExecutionId(),
      });
      return { events: [...scheduled, completion], status: 'ContinuedAsNew', customStatus };
    }
    const completion = completionEvent(now, 'Completed', outcome.state.output ?? null);
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
    case 'timer':
      return {
        EventType: EventType.TimerCreated,
        Timestamp,
        FireAt: action.fireAt,
        Local: { origin },
      };
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
