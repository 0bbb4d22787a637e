/**
 * Episode decisions (pure): retry timing, the retry timeout, continue-as-new, sub-orchestration
 * ids, orchestrator failures, and the text storage helpers episodes rely on.
 */
import { decideEpisode, type EpisodeInput } from '../../../../../tools/durable/replay/decide';
import {
  EventType,
  plainEvent,
  type HistoryEventJson,
  type RetryPolicy,
} from '../../../../../tools/durable/replay/historyEvents';
import { buildLedger, orderNewEvents } from '../../../../../tools/durable/replay/ledger';
import {
  CHARS_PER_PROPERTY,
  MAX_PROPERTIES_PER_ENTITY,
  readTextProperties,
  splitText,
  textProperties,
  TextTooLargeError,
} from '../../../../../tools/durable/store/largeText';
import {
  retryDelayMs,
  retryTimedOut,
  shouldRetry,
} from '../../../../../tools/durable/replay/retry';

const T0 = new Date('2024-05-01T10:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

function decide(
  history: HistoryEventJson[],
  newEvents: HistoryEventJson[],
  actions: unknown[],
  extra: Partial<EpisodeInput> = {},
) {
  return decideEpisode({
    instanceId: 'i1',
    orchestrationName: 'Orch',
    ledger: buildLedger(history),
    newEvents,
    outcome: { kind: 'state', state: { isDone: false, actions: [actions] } },
    now: at(10_000),
    newExecutionId: () => 'e'.repeat(32),
    ...extra,
  });
}

const retryAction = (policy: Partial<RetryPolicy> = {}): object => ({
  actionType: 1,
  functionName: 'F',
  input: { x: 1 },
  retryOptions: { firstRetryIntervalInMilliseconds: 1000, maxNumberOfAttempts: 3, ...policy },
});

describe('durable retry timing', () => {
  it('waits first * coefficient^(n-1), capped at the maximum interval', () => {
    const policy: RetryPolicy = {
      firstRetryIntervalInMilliseconds: 100,
      maxNumberOfAttempts: 5,
      backoffCoefficient: 2,
      maxRetryIntervalInMilliseconds: 500,
    };
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(policy, n))).toEqual([100, 200, 400, 500, 500]);
    expect(retryDelayMs({ firstRetryIntervalInMilliseconds: 250, maxNumberOfAttempts: 2 }, 3)).toBe(
      250,
    );
    expect(shouldRetry(policy, 4)).toBe(true);
    expect(shouldRetry(policy, 5)).toBe(false);
    expect(retryTimedOut({ ...policy, retryTimeoutInMilliseconds: 1000 }, T0, at(999))).toBe(false);
    expect(retryTimedOut({ ...policy, retryTimeoutInMilliseconds: 1000 }, T0, at(1000))).toBe(true);
    expect(retryTimedOut(policy, T0, at(10 ** 9))).toBe(false);
  });
});

describe('durable episode decisions', () => {
  const started = plainEvent(EventType.ExecutionStarted, T0, { Name: 'Orch' });

  it('schedules a retry timer after a failed attempt, then the next attempt when it fires', () => {
    const first = decide([], [started], [retryAction({ backoffCoefficient: 2 })]);
    expect(first.events).toEqual([
      expect.objectContaining({
        EventType: EventType.TaskScheduled,
        EventId: 0,
        Name: 'F',
        Input: '{"x":1}',
      }),
    ]);
    const history = [started, ...first.events];
    const failed = plainEvent(EventType.TaskFailed, at(10_500), {
      TaskScheduledId: 0,
      Reason: 'x',
    });
    const second = decide(history, [failed], [retryAction({ backoffCoefficient: 2 })]);
    expect(second.events).toEqual([
      expect.objectContaining({
        EventType: EventType.TimerCreated,
        EventId: 1,
        FireAt: at(11_000).toISOString(),
        Local: { origin: 'retry', chain: 0 },
      }),
    ]);
    history.push(failed, ...second.events);
    const fired = plainEvent(EventType.TimerFired, at(11_000), { TimerId: 1 });
    const third = decide(history, [fired], [retryAction({ backoffCoefficient: 2 })]);
    expect(third.events).toEqual([
      expect.objectContaining({
        EventType: EventType.TaskScheduled,
        EventId: 2,
        Name: 'F',
        Input: '{"x":1}',
        Local: expect.objectContaining({ origin: 'retry', chain: 0 }),
      }),
    ]);
    history.push(fired, ...third.events);
    const failedAgain = plainEvent(EventType.TaskFailed, at(11_500), {
      TaskScheduledId: 2,
      Reason: 'x',
    });
    const fourth = decide(history, [failedAgain], [retryAction({ backoffCoefficient: 2 })], {
      now: at(12_000),
    });
    // Second failure: 1000 * 2^1.
    expect(fourth.events[0]).toMatchObject({ EventId: 3, FireAt: at(14_000).toISOString() });
  });

  it('refuses a retry timeout, which hangs the orchestration in Azure (durable-js#629)', () => {
    const decision = decide([], [started], [retryAction({ retryTimeoutInMilliseconds: 500 })]);
    expect(decision.status).toBe('Failed');
    expect(decision.events).toHaveLength(1);
    expect(decision.events[0]!.Result).toContain('retryTimeoutInMilliseconds');
  });

  it('orders an episode: start, then retry steps, then the rest in arrival order', () => {
    const first = decide([], [started], [retryAction(), { actionType: 0, functionName: 'G' }]);
    const ledger = buildLedger([started, ...first.events]);
    const done = plainEvent(EventType.TaskCompleted, at(1), { TaskScheduledId: 1, Result: '1' });
    const failed = plainEvent(EventType.TaskFailed, at(2), { TaskScheduledId: 0 });
    const raised = plainEvent(EventType.EventRaised, at(3), { Name: 'E' });
    expect(orderNewEvents(ledger, [done, raised, failed])).toEqual([failed, done, raised]);
  });

  it('names sub-orchestrations <parent>:<sequence number> unless the orchestrator chose an id', () => {
    const decision = decide(
      [],
      [started],
      [
        {
          actionType: 12,
          compoundActions: [
            { actionType: 2, functionName: 'Child', input: { a: 1 } },
            { actionType: 2, functionName: 'Child', instanceId: 'chosen', input: 'x' },
          ],
        },
      ],
    );
    expect(decision.events.map((e) => [e.EventType, e.EventId, e.InstanceId, e.Input])).toEqual([
      [EventType.SubOrchestrationInstanceCreated, 0, 'i1:0', '{"a":1}'],
      [EventType.SubOrchestrationInstanceCreated, 1, 'chosen', '"x"'],
    ]);
  });

  it('completes with ContinuedAsNew and the next execution id when the orchestrator continues as new', () => {
    const decision = decideEpisode({
      instanceId: 'i1',
      orchestrationName: 'Orch',
      ledger: buildLedger([]),
      newEvents: [started],
      outcome: {
        kind: 'state',
        state: { isDone: true, actions: [[{ actionType: 4, input: '"next"' }]] },
      },
      now: T0,
      newExecutionId: () => 'a'.repeat(32),
    });
    expect(decision.status).toBe('ContinuedAsNew');
    expect(decision.events).toEqual([
      expect.objectContaining({
        EventType: EventType.ExecutionCompleted,
        OrchestrationStatus: 'ContinuedAsNew',
        Result: '"next"',
        Local: { nextExecutionId: 'a'.repeat(32) },
      }),
    ]);
  });

  it('fails the orchestration for unsupported actions and for orchestrator exceptions', () => {
    const entity = decide([], [started], [{ actionType: 7, operation: 'get' }]);
    expect(entity.status).toBe('Failed');
    expect(JSON.parse(entity.events[0]!.Result!)).toContain(
      'does not support callEntity (durable entities)',
    );
    const thrown = decideEpisode({
      instanceId: 'i1',
      orchestrationName: 'Orch',
      ledger: buildLedger([]),
      newEvents: [started],
      outcome: {
        kind: 'failed',
        message: 'Error: no',
        failureDetails: { ErrorType: 'Error', ErrorMessage: 'no' },
        customStatus: 'mid',
      },
      now: T0,
      newExecutionId: () => 'a'.repeat(32),
    });
    expect(thrown).toMatchObject({ status: 'Failed', customStatus: 'mid' });
    expect(thrown.events[0]).toMatchObject({
      Result: JSON.stringify("Orchestrator function 'Orch' failed: Error: no"),
      Details: 'Message: Error: no, StackTrace: ',
    });
  });

  it('refuses a history whose sequence numbers have gaps', () => {
    const gap = [
      plainEvent(EventType.ExecutionStarted, T0),
      { ...plainEvent(EventType.TaskScheduled, T0, { Name: 'F' }), EventId: 1 },
    ];
    expect(() => buildLedger(gap)).toThrow(/sequence number 1, expected 0/);
  });
});

describe('durable large text properties', () => {
  it('splits long text over numbered properties and reads it back, never splitting a surrogate pair', () => {
    const text = `${'a'.repeat(CHARS_PER_PROPERTY - 1)}🚀${'b'.repeat(10)}`;
    const properties = textProperties('Output', text);
    expect(properties.Output_Parts).toBe(2);
    expect((properties.Output as string).length).toBe(CHARS_PER_PROPERTY - 1);
    expect(readTextProperties(properties, 'Output')).toBe(text);
    expect(readTextProperties(textProperties('Output', undefined), 'Output')).toBeUndefined();
    expect(readTextProperties(textProperties('Output', ''), 'Output')).toBe('');
    expect(splitText('abcdef', 4)).toEqual(['abcd', 'ef']);
  });

  it('refuses text larger than an entity can hold', () => {
    expect(() =>
      textProperties('Input', 'x'.repeat(CHARS_PER_PROPERTY * MAX_PROPERTIES_PER_ENTITY + 1)),
    ).toThrow(TextTooLargeError);
  });
});
