/**
 * Deterministic replay: a history recorded from a run on Azurite, handed back to the fixture's
 * orchestrator through `durable-functions`' own replay engine, yields the very same actions,
 * completion and custom status in every episode; the runtime's episode decisions reproduce the
 * recorded scheduled events; a history that contradicts the code is reported as non-determinism.
 * Then whole orchestrations with retries and fan-outs run in memory against the real library.
 */
import recorded from '../../../../fixtures/durableapp/histories/helloSequence.json';
import { resetFixtureControl } from '../../../../fixtures/durableapp/control';
import { invokeDurable } from '../../../../fixtures/durableapp/harness/durableApp';
import { loadFixtureAppInJest } from '../../../../fixtures/durableapp/harness/loadInJest';
import { decideEpisode } from '../../../../../tools/durable/replay/decide';
import {
  EventType,
  isScheduledEvent,
  type HistoryEventJson,
} from '../../../../../tools/durable/replay/historyEvents';
import { buildLedger } from '../../../../../tools/durable/replay/ledger';
import {
  outcomeFromReturn,
  type DurableOrchestrationInputJson,
} from '../../../../../tools/durable/replay/orchestratorInput';
import { runInMemory } from './support/memoryEngine';

const shim = loadFixtureAppInJest();

interface RecordedEpisode {
  triggerValue: DurableOrchestrationInputJson;
  state: { isDone: boolean; actions: unknown; output?: unknown; customStatus?: unknown };
}
const episodes = recorded.episodes as unknown as RecordedEpisode[];

function split(history: HistoryEventJson[]): {
  past: HistoryEventJson[];
  fresh: HistoryEventJson[];
} {
  const firstNew = history.findIndex((event) => event.IsPlayed === false);
  return { past: history.slice(0, firstNew), fresh: history.slice(firstNew) };
}

describe('durable replay of a recorded history', () => {
  beforeEach(() => resetFixtureControl());

  it.each(episodes.map((episode, index) => [index + 1, episode] as const))(
    'episode %i: the orchestrator returns the recorded actions again',
    async (_n, episode) => {
      const replayed = await invokeDurable(
        shim,
        recorded.orchestrator,
        structuredClone(episode.triggerValue),
        'orchestrationTrigger',
      );
      expect(replayed).toEqual(episode.state);
    },
  );

  it('replaying twice gives identical results (no hidden state between invocations)', async () => {
    const last = episodes.at(-1)!;
    const first = await invokeDurable(
      shim,
      recorded.orchestrator,
      structuredClone(last.triggerValue),
      'orchestrationTrigger',
    );
    const second = await invokeDurable(
      shim,
      recorded.orchestrator,
      structuredClone(last.triggerValue),
      'orchestrationTrigger',
    );
    expect(second).toEqual(first);
    expect(first).toMatchObject({
      isDone: true,
      output: { greetings: ['Hello, Ada!', 'Hello, Grace!'], total: 12 },
    });
  });

  it('each episode decision schedules exactly the events the next recorded episode shows', () => {
    for (let i = 0; i + 1 < episodes.length; i += 1) {
      const { past, fresh } = split(episodes[i]!.triggerValue.history);
      const decision = decideEpisode({
        instanceId: 'recorded-1',
        orchestrationName: recorded.orchestrator,
        ledger: buildLedger(past),
        newEvents: fresh.slice(1),
        outcome: outcomeFromReturn(episodes[i]!.state),
        now: new Date(fresh[0]!.Timestamp),
        newExecutionId: () => '0'.repeat(32),
      });
      const nextHistory = episodes[i + 1]!.triggerValue.history;
      const recordedScheduled = nextHistory
        .slice(past.length + fresh.length)
        .filter(isScheduledEvent)
        .map((event) => [event.EventType, event.EventId, event.Name, event.Input]);
      const decided = decision.events.map((event) => [
        event.EventType,
        event.EventId,
        event.Name,
        event.Input,
      ]);
      expect(decided).toEqual(recordedScheduled);
      expect(decision.status).toBe('Running');
    }
  });

  it('reports a history that contradicts the code as a non-deterministic orchestration', async () => {
    const last = structuredClone(episodes.at(-1)!.triggerValue);
    const second = last.history.filter((event) => event.EventType === EventType.TaskScheduled)[1]!;
    second.Name = 'Wave'; // the code calls Greet here
    const { past, fresh } = split(last.history);
    const state = await invokeDurable(shim, recorded.orchestrator, last, 'orchestrationTrigger');
    const decision = decideEpisode({
      instanceId: 'recorded-1',
      orchestrationName: recorded.orchestrator,
      ledger: buildLedger(past),
      newEvents: fresh.slice(1),
      outcome: outcomeFromReturn(state),
      now: new Date(fresh[0]!.Timestamp),
      newExecutionId: () => '0'.repeat(32),
    });
    expect(decision.status).toBe('Failed');
    expect(JSON.parse(decision.events[0]!.Result!)).toBe(
      "Orchestrator function 'HelloSequence' failed: Non-deterministic orchestration: the history has activity 'Wave' at sequence number 1, " +
        "but this replay asked for activity 'Greet' there. Was the orchestrator code changed while this instance was running?",
    );
  });
});

describe('whole orchestrations replayed in memory by the real library', () => {
  beforeEach(() => resetFixtureControl());

  it('runs a sequence with a fan-out', async () => {
    const run = await runInMemory(shim, 'HelloSequence', {
      names: ['a', 'b'],
      numbers: [1, 2, 3, 4],
    });
    expect(run).toMatchObject({
      status: 'Completed',
      output: { greetings: ['Hello, a!', 'Hello, b!'], total: 20 },
    });
    expect(run.episodes).toBe(4);
  });

  it('numbers retry timers and attempts like the library when a retried task fans out beside a plain one', async () => {
    const run = await runInMemory(shim, 'MixedFanOut', 'mixed');
    expect(run).toMatchObject({
      status: 'Completed',
      output: { flaky: 'ok after 2 failures', doubled: 42, after: 'Hello, after!' },
    });
    const scheduled = run.history
      .filter(isScheduledEvent)
      .map((event) => `${event.EventId}:${event.Name ?? 'timer'}`);
    expect(scheduled).toEqual([
      '0:Flaky',
      '1:Double',
      '2:timer',
      '3:Flaky',
      '4:timer',
      '5:Flaky',
      '6:Greet',
    ]);
  });

  it('gives a new action the number after a retry timer taken in the same episode', async () => {
    // Episode 2 receives Flaky's failure and Double(1)'s result together: the failure takes #2
    // for its retry timer, and the Double(2) that the orchestrator then yields takes #3.
    const run = await runInMemory(shim, 'RetryBesideSequence', 'beside');
    expect(run).toMatchObject({
      status: 'Completed',
      output: { quick: 2, next: 4, flaky: 'ok after 3 failures' },
    });
    const scheduled = run.history
      .filter(isScheduledEvent)
      .map((event) => `${event.EventId}:${event.Name ?? 'timer'}`);
    expect(scheduled.slice(0, 4)).toEqual(['0:Flaky', '1:Double', '2:timer', '3:Double']);
  });

  it('fails with the last error after the last attempt, once its retry timer has fired', async () => {
    const run = await runInMemory(shim, 'DoomedWithRetry', 'nope');
    expect(run.status).toBe('Failed');
    // The library rejects the task with "<Reason> \n <Details>" (Azure's shape, not FailureDetails).
    expect(run.output).toMatch(
      /^Orchestrator function 'DoomedWithRetry' failed: Activity function 'AlwaysFails' failed: {2}nope \n \{"\$type":"System\.Exception, System\.Private\.CoreLib"/,
    );
    const kinds = run.history
      .filter((e) =>
        [
          EventType.TaskScheduled,
          EventType.TaskFailed,
          EventType.TimerCreated,
          EventType.TimerFired,
        ].includes(e.EventType as 4),
      )
      .map((e) => e.EventType);
    expect(kinds).toEqual([
      EventType.TaskScheduled,
      EventType.TaskFailed,
      EventType.TimerCreated,
      EventType.TimerFired,
      EventType.TaskScheduled,
      EventType.TaskFailed,
      EventType.TimerCreated,
      EventType.TimerFired,
    ]);
  });
});
