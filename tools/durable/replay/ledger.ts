/**
 * What a stored history says about an orchestration: which task sequence numbers are taken, which
 * tasks the orchestrator itself asked for (in order), the state of each retry chain, and which
 * inbox rows the history has already consumed.
 *
 * The invariant that makes replay line up: every sequence number `durable-functions` hands out
 * while replaying (one per activity, timer or sub-orchestration task, and one per retry timer and
 * retry attempt) has exactly one scheduled event here, with that number as its EventId.
 * Glossary: "ledger" (docs/glossary.md).
 */
import {
  EventType,
  isScheduledEvent,
  type HistoryEventJson,
  type RetryPolicy,
} from './historyEvents';
import { nextLegOf, type LongTimer } from './longTimers';
import { shouldRetry } from './retry';

/** A task the history scheduled. */
export interface ScheduledTask {
  eventId: number;
  event: HistoryEventJson;
  kind: 'activity' | 'subOrchestration' | 'timer';
  origin: 'action' | 'retry' | 'leg';
  chain?: number;
}

/** One `...WithRetry` task and its attempts so far. */
export interface RetryChain {
  /** EventId of the first attempt; later attempts point here. */
  firstId: number;
  kind: 'activity' | 'subOrchestration';
  name: string;
  /** JSON text of the input, reused by every attempt. */
  input?: string;
  /** The first attempt's sub-orchestration instance id (reused when the caller chose it). */
  instanceId?: string;
  policy: RetryPolicy;
  firstAttemptAt: Date;
  failures: number;
  /** EventId of the attempt in flight (or last attempted). */
  currentAttemptId: number;
  /** The retry timer created after the latest failure, until the next attempt is scheduled. */
  retryTimerId?: number;
  lastFailure?: HistoryEventJson;
  /** The retry task has its outcome: an attempt succeeded, or the last retry timer fired. */
  done: boolean;
}

/**
 * An execution's committed history as the runtime needs it to decide: event ids and the tasks
 * scheduled so far.
 */
export interface Ledger {
  /** The next free task sequence number. */
  nextEventId: number;
  /** Tasks scheduled for actions the orchestrator yielded, in yield order. */
  actionTasks: ScheduledTask[];
  tasks: Map<number, ScheduledTask>;
  chains: Map<number, RetryChain>;
  /** Long timers by the EventId of their first leg. */
  longTimers: Map<number, LongTimer>;
  consumedInboxKeys: Set<string>;
  /** Sequence numbers of the tasks whose result (completed, failed, fired) is in the history. */
  results: Set<number>;
  /** EventRaised events per event name. */
  raised: Map<string, number>;
  started: boolean;
  /** The execution has completed, failed, been terminated or continued as new. */
  finished: boolean;
}

/** The stored history contradicts itself (sequence numbers out of order, unknown retry chain). */
export class CorruptHistoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptHistoryError';
  }
}

/**
 * Reads a history (oldest first).
 *
 * @throws {CorruptHistoryError} when scheduled events are not numbered 0, 1, 2, ... in order.
 */
export function buildLedger(history: readonly HistoryEventJson[]): Ledger {
  const ledger: Ledger = {
    nextEventId: 0,
    actionTasks: [],
    tasks: new Map(),
    chains: new Map(),
    longTimers: new Map(),
    consumedInboxKeys: new Set(),
    results: new Set(),
    raised: new Map(),
    started: false,
    finished: false,
  };
  for (const event of history) recordEvent(ledger, event);
  return ledger;
}

/**
 * Adds one event to the ledger (used while building it and while deciding an episode).
 *
 * @throws {CorruptHistoryError} for an out-of-order sequence number or an unknown retry chain.
 */
export function recordEvent(ledger: Ledger, event: HistoryEventJson): void {
  if (event.Local?.inboxKey) ledger.consumedInboxKeys.add(event.Local.inboxKey);
  if (isScheduledEvent(event)) {
    recordScheduled(ledger, event);
    return;
  }
  switch (event.EventType) {
    case EventType.ExecutionStarted:
      ledger.started = true;
      break;
    case EventType.ExecutionCompleted:
    case EventType.ExecutionFailed:
    case EventType.ExecutionTerminated:
      ledger.finished = true;
      break;
    case EventType.TaskFailed:
    case EventType.SubOrchestrationInstanceFailed: {
      if (event.TaskScheduledId !== undefined) ledger.results.add(event.TaskScheduledId);
      const chain = chainOfAttempt(ledger, event.TaskScheduledId);
      if (chain) {
        chain.failures += 1;
        chain.lastFailure = event;
      }
      break;
    }
    case EventType.TaskCompleted:
    case EventType.SubOrchestrationInstanceCompleted: {
      if (event.TaskScheduledId !== undefined) ledger.results.add(event.TaskScheduledId);
      const chain = chainOfAttempt(ledger, event.TaskScheduledId);
      if (chain) chain.done = true;
      break;
    }
    case EventType.TimerFired: {
      if (event.TimerId === undefined) break;
      ledger.results.add(event.TimerId);
      const task = ledger.tasks.get(event.TimerId);
      const chain = task?.chain === undefined ? undefined : ledger.chains.get(task.chain);
      if (
        chain &&
        chain.retryTimerId === event.TimerId &&
        !shouldRetry(chain.policy, chain.failures)
      )
        chain.done = true;
      break;
    }
    case EventType.EventRaised:
      ledger.raised.set(event.Name ?? '', (ledger.raised.get(event.Name ?? '') ?? 0) + 1);
      break;
    default:
      break;
  }
}

function recordScheduled(ledger: Ledger, event: HistoryEventJson): void {
  if (event.EventId !== ledger.nextEventId) {
    throw new CorruptHistoryError(
      `Scheduled event has sequence number ${event.EventId}, expected ${ledger.nextEventId}.`,
    );
  }
  ledger.nextEventId += 1;
  const kind =
    event.EventType === EventType.TaskScheduled
      ? 'activity'
      : event.EventType === EventType.TimerCreated
        ? 'timer'
        : 'subOrchestration';
  const origin = event.Local?.origin ?? 'action';
  const task: ScheduledTask = { eventId: event.EventId, event, kind, origin };
  ledger.tasks.set(event.EventId, task);

  if (origin === 'leg') {
    const timer =
      event.Local?.chain === undefined ? undefined : ledger.longTimers.get(event.Local.chain);
    if (!timer) throw new CorruptHistoryError(`Timer leg ${event.EventId} names no long timer.`);
    task.chain = timer.firstId;
    timer.lastLegId = event.EventId;
    return;
  }
  if (origin === 'action') {
    ledger.actionTasks.push(task);
    if (kind === 'timer' && event.Local?.finalFireAt) {
      const { EventId: firstId } = event;
      task.chain = firstId;
      ledger.longTimers.set(firstId, {
        firstId,
        finalFireAt: event.Local.finalFireAt,
        lastLegId: firstId,
      });
    }
    if (event.Local?.retry && kind !== 'timer') {
      task.chain = event.EventId;
      ledger.chains.set(event.EventId, {
        firstId: event.EventId,
        kind,
        name: event.Name ?? '',
        input: event.Input,
        instanceId: kind === 'subOrchestration' ? event.InstanceId : undefined,
        policy: event.Local.retry,
        firstAttemptAt: new Date(event.Timestamp),
        failures: 0,
        currentAttemptId: event.EventId,
        done: false,
      });
    }
    return;
  }

  const chain = event.Local?.chain === undefined ? undefined : ledger.chains.get(event.Local.chain);
  if (!chain) {
    throw new CorruptHistoryError(`Retry event ${event.EventId} names an unknown retry chain.`);
  }
  task.chain = chain.firstId;
  if (kind === 'timer') {
    chain.retryTimerId = event.EventId;
  } else {
    chain.currentAttemptId = event.EventId;
    chain.retryTimerId = undefined;
  }
}

function chainOfAttempt(
  ledger: Ledger,
  taskScheduledId: number | undefined,
): RetryChain | undefined {
  if (taskScheduledId === undefined) return undefined;
  const task = ledger.tasks.get(taskScheduledId);
  const chain = task?.chain === undefined ? undefined : ledger.chains.get(task.chain);
  return chain && chain.currentAttemptId === taskScheduledId && task?.kind !== 'timer'
    ? chain
    : undefined;
}

/** What an arriving event means for a retry chain. */
export type RetryStep =
  | { step: 'failedAttempt'; chain: RetryChain }
  | { step: 'retryTimerFired'; chain: RetryChain; retry: boolean }
  | undefined;

/** Whether `event` is a failed attempt or a retry timer of some retry chain. */
export function retryStepOf(ledger: Ledger, event: HistoryEventJson): RetryStep {
  if (
    event.EventType === EventType.TaskFailed ||
    event.EventType === EventType.SubOrchestrationInstanceFailed
  ) {
    const chain = chainOfAttempt(ledger, event.TaskScheduledId);
    return chain ? { step: 'failedAttempt', chain } : undefined;
  }
  if (event.EventType === EventType.TimerFired && event.TimerId !== undefined) {
    const task = ledger.tasks.get(event.TimerId);
    const chain = task?.chain === undefined ? undefined : ledger.chains.get(task.chain);
    if (chain && chain.retryTimerId === event.TimerId) {
      return { step: 'retryTimerFired', chain, retry: shouldRetry(chain.policy, chain.failures) };
    }
  }
  return undefined;
}

/**
 * Orders the events of a new episode the way the runtime numbers its work: the start first, then
 * the events that make `durable-functions` take a sequence number for a retry (a failed attempt
 * takes one for its timer; a retry timer takes one for the next attempt; so does a long timer's
 * leg that another leg follows, given the episode's time `now`) — none resumes the
 * orchestrator code — then everything else in arrival order. New actions the orchestrator yields
 * while processing the latter then get the numbers after the retry ones.
 */
export function orderNewEvents(
  ledger: Ledger,
  events: readonly HistoryEventJson[],
  now?: Date,
): HistoryEventJson[] {
  const starts: HistoryEventJson[] = [];
  const retrySteps: HistoryEventJson[] = [];
  const rest: HistoryEventJson[] = [];
  for (const event of events) {
    if (event.EventType === EventType.ExecutionStarted) {
      starts.push(event);
      continue;
    }
    const step = retryStepOf(ledger, event);
    // A long timer's leg that another leg follows takes a sequence number the same way.
    const leg = now !== undefined && nextLegOf(ledger, event, now) !== undefined;
    if (leg || (step && (step.step === 'failedAttempt' || step.retry))) retrySteps.push(event);
    else rest.push(event);
  }
  return [...starts, ...retrySteps, ...rest];
}
