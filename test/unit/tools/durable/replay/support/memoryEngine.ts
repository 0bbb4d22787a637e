/**
 * Drives an orchestration of the fixture app entirely in memory: the real `durable-functions`
 * replay engine (through the core shim) and the runtime's pure parts (ledger, event ordering,
 * episode decisions), with activities run inline and timers fired at once. Everything an episode
 * scheduled comes back in the next episode, so failures, retries and completions meet in one
 * episode — the orderings the storage-backed runtime can produce.
 */
import { invokeDurable } from '../../../../../fixtures/durableapp/harness/durableApp';
import type { CoreShim } from '../../../../../fixtures/durableapp/harness/functionsCore';
import { decideEpisode } from '../../../../../../tools/durable/replay/decide';
import {
  EventType,
  activityFailure,
  plainEvent,
  type HistoryEventJson,
} from '../../../../../../tools/durable/replay/historyEvents';
import { buildLedger, orderNewEvents } from '../../../../../../tools/durable/replay/ledger';
import {
  buildOrchestratorInput,
  outcomeFromError,
  outcomeFromReturn,
} from '../../../../../../tools/durable/replay/orchestratorInput';

export interface MemoryRun {
  status: 'Completed' | 'Failed' | 'ContinuedAsNew';
  output: unknown;
  history: HistoryEventJson[];
  episodes: number;
  /** Trigger values handed to the orchestrator, per episode. */
  inputs: ReturnType<typeof buildOrchestratorInput>[];
  /** With `followContinueAsNew`: the history of every execution, in order (the last = history). */
  executions: HistoryEventJson[][];
}

/**
 * Runs `name` to completion (or up to `maxEpisodes`). With `followContinueAsNew`, a
 * continue-as-new starts the next execution with a fresh history, as the runtime does, instead of
 * ending the run.
 */
export async function runInMemory(
  shim: CoreShim,
  name: string,
  firstInput: unknown,
  options: { maxEpisodes?: number; start?: Date; followContinueAsNew?: boolean } = {},
): Promise<MemoryRun> {
  let clock = (options.start ?? new Date('2024-05-01T10:00:00Z')).getTime();
  const now = (): Date => new Date((clock += 1000));
  let input = firstInput;
  let history: HistoryEventJson[] = [];
  const executions: HistoryEventJson[][] = [history];
  const inputs: MemoryRun['inputs'] = [];
  let inbox: HistoryEventJson[] = [
    plainEvent(EventType.ExecutionStarted, now(), { Name: name, Input: JSON.stringify(input) }),
  ];
  for (let episode = 1; episode <= (options.maxEpisodes ?? 50); episode += 1) {
    const ledger = buildLedger(history);
    const started = plainEvent(EventType.OrchestratorStarted, now());
    const newEvents = orderNewEvents(ledger, inbox, new Date(started.Timestamp));
    const triggerValue = buildOrchestratorInput({
      instanceId: 'memory-1',
      pastEvents: history,
      newEvents: [started, ...newEvents],
      input,
    });
    inputs.push(triggerValue);
    const outcome = await invokeDurable(shim, name, triggerValue, 'orchestrationTrigger').then(
      outcomeFromReturn,
      outcomeFromError,
    );
    const decision = decideEpisode({
      instanceId: 'memory-1',
      orchestrationName: name,
      ledger,
      newEvents,
      outcome,
      now: new Date(started.Timestamp),
      newExecutionId: () => 'f'.repeat(32),
    });
    history.push(
      started,
      ...newEvents,
      ...decision.events,
      plainEvent(EventType.OrchestratorCompleted, now()),
    );
    if (decision.status === 'ContinuedAsNew' && options.followContinueAsNew) {
      input = JSON.parse(decision.events.at(-1)!.Result ?? 'null') as unknown;
      history = [];
      executions.push(history);
      inbox = [
        plainEvent(EventType.ExecutionStarted, now(), { Name: name, Input: JSON.stringify(input) }),
      ];
      continue;
    }
    if (decision.status !== 'Running') {
      const completion = decision.events.at(-1)!;
      return {
        executions,
        status: decision.status,
        output: JSON.parse(completion.Result ?? 'null') as unknown,
        history,
        episodes: episode,
        inputs,
      };
    }
    inbox = [];
    for (const event of decision.events) {
      if (event.EventType === EventType.TaskScheduled) {
        inbox.push(await runActivity(shim, event, now()));
      } else if (event.EventType === EventType.TimerCreated) {
        inbox.push(
          plainEvent(EventType.TimerFired, now(), { TimerId: event.EventId, FireAt: event.FireAt }),
        );
      }
    }
  }
  throw new Error(`${name} did not finish in memory.`);
}

async function runActivity(
  shim: CoreShim,
  scheduled: HistoryEventJson,
  at: Date,
): Promise<HistoryEventJson> {
  try {
    const value = await invokeDurable(
      shim,
      scheduled.Name!,
      scheduled.Input === undefined ? undefined : JSON.parse(scheduled.Input),
      'activityTrigger',
    );
    return plainEvent(EventType.TaskCompleted, at, {
      TaskScheduledId: scheduled.EventId,
      Result: JSON.stringify(value ?? null),
    });
  } catch (error) {
    return plainEvent(EventType.TaskFailed, at, {
      TaskScheduledId: scheduled.EventId,
      ...activityFailure(scheduled.Name!, error),
    });
  }
}
