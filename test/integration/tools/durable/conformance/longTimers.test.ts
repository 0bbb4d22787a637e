/**
 * Conformance: a timer longer than the Azure Storage provider's longest delay (6 days) waits in
 * legs of 3 days, the last one ending at the due time, each leg with its own sequence number —
 * as the extension does (azure-functions-durable-extension, AzureStorageDurabilityProvider.cs
 * `MaximumDelayTime` / `LongRunningTimerIntervalLength`, DurableOrchestrationContext.cs
 * `CreateTimer`) and durable-functions' LongTimerTask numbers them. Driven episode by episode
 * through the real library, each timer firing at its FireAt.
 */
import { invokeDurable } from '../../../../fixtures/durableapp/harness/durableApp';
import { loadFixtureAppInJest } from '../../../../fixtures/durableapp/harness/loadInJest';
import { decideEpisode } from '../../../../../tools/durable/replay/decide';
import {
  EventType,
  plainEvent,
  type HistoryEventJson,
} from '../../../../../tools/durable/replay/historyEvents';
import { buildLedger, orderNewEvents } from '../../../../../tools/durable/replay/ledger';
import {
  buildOrchestratorInput,
  outcomeFromError,
  outcomeFromReturn,
} from '../../../../../tools/durable/replay/orchestratorInput';

const shim = loadFixtureAppInJest();
const T0 = Date.parse('2026-12-01T00:00:00.000Z');
const DAY = 24 * 3600 * 1000;

describe('conformance: long timers', () => {
  it('hands the library the provider limits and waits 10 days in legs of 3, 3 and 4 days', async () => {
    const history: HistoryEventJson[] = [];
    let inbox = [
      plainEvent(EventType.ExecutionStarted, new Date(T0), { Name: 'LongWait', Input: '10' }),
    ];
    let now = new Date(T0);
    const created: HistoryEventJson[] = [];
    for (let episode = 0; episode < 6; episode += 1) {
      const ledger = buildLedger(history);
      const started = plainEvent(EventType.OrchestratorStarted, now);
      const newEvents = orderNewEvents(ledger, inbox, now);
      const triggerValue = buildOrchestratorInput({
        instanceId: 'long-1',
        pastEvents: history,
        newEvents: [started, ...newEvents],
        input: 10,
      });
      expect(triggerValue.maximumShortTimerDuration).toBe('6.00:00:00');
      expect(triggerValue.longRunningTimerIntervalDuration).toBe('3.00:00:00');
      const outcome = await invokeDurable(
        shim,
        'LongWait',
        triggerValue,
        'orchestrationTrigger',
      ).then(outcomeFromReturn, outcomeFromError);
      const decision = decideEpisode({
        instanceId: 'long-1',
        orchestrationName: 'LongWait',
        ledger,
        newEvents,
        outcome,
        now,
        newExecutionId: () => 'e'.repeat(32),
      });
      history.push(started, ...newEvents, ...decision.events);
      if (decision.status !== 'Running') {
        expect(decision.status).toBe('Completed');
        expect(decision.events.at(-1)!.Result).toBe('"waited"');
        break;
      }
      const timer = decision.events.find((event) => event.EventType === EventType.TimerCreated)!;
      created.push(timer);
      now = new Date(timer.FireAt!);
      inbox = [
        plainEvent(EventType.TimerFired, now, { TimerId: timer.EventId, FireAt: timer.FireAt }),
      ];
    }
    expect(created.map((timer) => [timer.EventId, (Date.parse(timer.FireAt!) - T0) / DAY])).toEqual(
      [
        [0, 3],
        [1, 6],
        [2, 10],
      ],
    );
    expect(history.at(-1)!.EventType).toBe(EventType.ExecutionCompleted);
  });
});
