/**
 * Conformance: a history in the real extension's storage format replays on the local runtime.
 * The fixture (test/fixtures/durableapp/histories/azureStorageHelloSequence.json) is written by
 * hand from DurableTask.AzureStorage's History table format (Azure/durabletask,
 * src/DurableTask.AzureStorage/Tracking/AzureTableTrackingStore.cs, TableEntityConverter.cs,
 * src/DurableTask.Core/History/EventType.cs), not recorded from this runtime: the orchestrator
 * replays it without asking for anything new, and finishes on the last activity's result.
 */
import fixture from '../../../../fixtures/durableapp/histories/azureStorageHelloSequence.json';
import { invokeDurable } from '../../../../fixtures/durableapp/harness/durableApp';
import { loadFixtureAppInJest } from '../../../../fixtures/durableapp/harness/loadInJest';
import {
  AzureHistoryFormatError,
  fromAzureHistoryRows,
} from '../../../../../tools/durable/replay/azureHistory';
import { decideEpisode } from '../../../../../tools/durable/replay/decide';
import {
  EventType,
  plainEvent,
  type HistoryEventJson,
} from '../../../../../tools/durable/replay/historyEvents';
import { buildLedger } from '../../../../../tools/durable/replay/ledger';
import {
  buildOrchestratorInput,
  outcomeFromError,
  outcomeFromReturn,
} from '../../../../../tools/durable/replay/orchestratorInput';

const shim = loadFixtureAppInJest();
const NOW = new Date('2026-11-30T09:00:03.000Z');

async function replay(past: HistoryEventJson[], arriving: HistoryEventJson[]) {
  const started = plainEvent(EventType.OrchestratorStarted, NOW);
  const start = past.find((event) => event.EventType === EventType.ExecutionStarted)!;
  const triggerValue = buildOrchestratorInput({
    instanceId: 'azure-hello-1',
    pastEvents: past,
    newEvents: [started, ...arriving],
    input: JSON.parse(start.Input!) as unknown,
  });
  const outcome = await invokeDurable(
    shim,
    'HelloSequence',
    triggerValue,
    'orchestrationTrigger',
  ).then(outcomeFromReturn, outcomeFromError);
  return decideEpisode({
    instanceId: 'azure-hello-1',
    orchestrationName: 'HelloSequence',
    ledger: buildLedger(past),
    newEvents: arriving,
    outcome,
    now: NOW,
    newExecutionId: () => 'e'.repeat(32),
    known: { activities: new Set(['Greet', 'Double']), orchestrations: new Set(['HelloSequence']) },
  });
}

describe('conformance: replaying a history of the real extension', () => {
  const past = fromAzureHistoryRows(fixture.rows);

  it('reads the rows in sequence order, without the sentinel, with numeric event types', () => {
    expect(past).toHaveLength(18);
    expect(past[0]).toEqual({
      EventType: EventType.OrchestratorStarted,
      EventId: -1,
      Timestamp: '2026-11-30T09:00:01.102Z',
    });
    expect(
      past.filter((e) => e.EventType === EventType.TaskScheduled).map((e) => e.EventId),
    ).toEqual([0, 1, 2, 3, 4]);
    expect(() => fromAzureHistoryRows([{ RowKey: '0', EventType: 'Bogus' }])).toThrow(
      AzureHistoryFormatError,
    );
  });

  it('replays it with nothing new to schedule while Double(3) is outstanding', async () => {
    const decision = await replay(past, []);
    expect(decision).toMatchObject({ status: 'Running', events: [] });
    expect(decision.customStatus).toEqual({ stage: 'fan-out', count: 3 });
  });

  it('completes with the right output when the last result arrives', async () => {
    const done = plainEvent(EventType.TaskCompleted, NOW, { TaskScheduledId: 4, Result: '6' });
    const decision = await replay(past, [done]);
    expect(decision.status).toBe('Completed');
    expect(decision.events).toHaveLength(1);
    expect(JSON.parse(decision.events[0]!.Result!)).toEqual({
      greetings: ['Hello, Ada!', 'Hello, Grace!'],
      total: 12,
    });
  });
});
