/**
 * `callActivityWithRetry` on the local runtime: a flaky activity succeeds on a later attempt, with
 * the history the library's RetryableTask expects (TaskFailed → retry timer → TaskScheduled);
 * an activity that keeps failing fails the orchestration with its reason, in the shape the
 * extension gives it in Azure (Reason + a serialised .NET exception), which the status API cuts to
 * one line.
 */
import { orchestrationView } from '../../../../src/orchestrations/status';
import { callCount, resetFixtureControl } from '../../../fixtures/durableapp/control';
import { loadFixtureAppInJest } from '../../../fixtures/durableapp/harness/loadInJest';
import { startTestRuntime, waitForEnd, type TestRuntime } from './support/testRuntime';

const shim = loadFixtureAppInJest();

describe('local durable runtime: activities with retry', () => {
  let test: TestRuntime;

  beforeAll(async () => {
    test = await startTestRuntime(shim);
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(() => resetFixtureControl());

  it('retries a failing activity after the retry interval until it succeeds', async () => {
    const started = await test.startViaStarter('FlakyWithRetry', {
      key: 'k1',
      failTimes: 2,
      attempts: 4,
    });
    const { statusQueryGetUri } = JSON.parse(started.body) as Record<string, string>;
    const { body } = await waitForEnd(statusQueryGetUri!);

    expect(body).toMatchObject({ runtimeStatus: 'Completed', output: 'ok after 2 failures' });
    expect(callCount('Flaky')).toBe(3);

    const history = (await (await fetch(`${statusQueryGetUri}&showHistory=true`)).json()) as {
      historyEvents: Array<{
        EventType: string;
        EventId: number;
        TaskScheduledId?: number;
        TimerId?: number;
        FireAt?: string;
        Timestamp: string;
      }>;
    };
    const steps = history.historyEvents
      .filter((e) => e.EventType !== 'ExecutionStarted' && e.EventType !== 'ExecutionCompleted')
      .map(
        (e) => `${e.EventType}:${e.EventId >= 0 ? e.EventId : (e.TaskScheduledId ?? e.TimerId)}`,
      );
    expect(steps).toEqual([
      'TaskScheduled:0',
      'TaskFailed:0',
      'TimerCreated:1',
      'TimerFired:1',
      'TaskScheduled:2',
      'TaskFailed:2',
      'TimerCreated:3',
      'TimerFired:3',
      'TaskScheduled:4',
      'TaskCompleted:4',
    ]);
    // The retry timer waits firstRetryIntervalInMilliseconds (150 ms) after the failure.
    const failed = history.historyEvents.find((e) => e.EventType === 'TaskFailed')!;
    const timer = history.historyEvents.find((e) => e.EventType === 'TimerCreated')!;
    expect(Date.parse(timer.FireAt!) - Date.parse(failed.Timestamp)).toBeGreaterThanOrEqual(140);
  });

  it('fails the orchestration with the activity error once the attempts are used up', async () => {
    const started = await test.startViaStarter('DoomedWithRetry', 'the ledger is locked');
    const { statusQueryGetUri } = JSON.parse(started.body) as Record<string, string>;
    const { httpStatus, body } = await waitForEnd(statusQueryGetUri!);

    expect(httpStatus).toBe(200);
    expect(body.runtimeStatus).toBe('Failed');
    // Azure's shape: the task failed with Reason + Details (a serialised .NET exception), which
    // durable-functions joins with " \n " into the orchestrator's error.
    const output = String(body.output);
    expect(output).toMatch(
      /^Orchestrator function 'DoomedWithRetry' failed: Activity function 'AlwaysFails' failed: {2}the ledger is locked \n \{"\$type":"System\.Exception, System\.Private\.CoreLib"/,
    );
    expect(output).toContain('Result: Failure\\nException: the ledger is locked\\nStack: Error');
    expect(callCount('AlwaysFails')).toBe(2);
    // What GET /api/orchestrations/{id} makes of it: one plain line.
    expect(orchestrationView(body).failure).toBe(
      "Activity function 'AlwaysFails' failed: the ledger is locked",
    );
  });

  it('reports a failed orchestration as 500 when returnInternalServerErrorOnFailure=true', async () => {
    const started = await test.startViaStarter('DoomedWithRetry', 'still locked');
    const { statusQueryGetUri } = JSON.parse(started.body) as Record<string, string>;
    await waitForEnd(statusQueryGetUri!);
    const response = await fetch(`${statusQueryGetUri}&returnInternalServerErrorOnFailure=true`);
    expect(response.status).toBe(500);
  });
});
