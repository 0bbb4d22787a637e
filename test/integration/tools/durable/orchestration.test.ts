/**
 * An orchestration started over HTTP (the fixture's starter, through `durable-functions`'
 * DurableClient) runs to completion on the local runtime: two activities in sequence, then a
 * fan-out/fan-in; the status URL from `createCheckStatusResponse` reports Completed with output.
 */
import { callCount, resetFixtureControl } from '../../../fixtures/durableapp/control';
import { loadFixtureAppInJest } from '../../../fixtures/durableapp/harness/loadInJest';
import { startTestRuntime, waitForEnd, type TestRuntime } from './support/testRuntime';

const shim = loadFixtureAppInJest();

describe('local durable runtime: an orchestration started over HTTP', () => {
  let test: TestRuntime;

  beforeAll(async () => {
    test = await startTestRuntime(shim);
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(() => resetFixtureControl());

  it('runs two activities and a fan-out/fan-in to completion, reported through statusQueryGetUri', async () => {
    const input = { names: ['Ada', 'Grace'], numbers: [1, 2, 3, 4, 5] };
    const started = await test.startViaStarter('HelloSequence', input);

    expect(started.status).toBe(202);
    const payload = JSON.parse(started.body) as Record<string, string>;
    expect(payload.id).toMatch(/^[0-9a-f]{32}$/);
    expect(payload.statusQueryGetUri).toBe(
      `${test.origin}/runtime/webhooks/durabletask/instances/${payload.id}?taskHub=${test.taskHub}&connection=Storage`,
    );
    expect(started.headers.location).toBe(payload.statusQueryGetUri);
    for (const key of ['sendEventPostUri', 'terminatePostUri', 'purgeHistoryDeleteUri']) {
      expect(payload[key]).toContain(`/instances/${payload.id}`);
    }

    const { httpStatus, body } = await waitForEnd(payload.statusQueryGetUri!);
    expect(httpStatus).toBe(200);
    expect(body).toMatchObject({
      name: 'HelloSequence',
      instanceId: payload.id,
      runtimeStatus: 'Completed',
      input,
      output: { greetings: ['Hello, Ada!', 'Hello, Grace!'], total: 30 },
      customStatus: { stage: 'fan-out', count: 5 },
    });
    expect(Date.parse(body.lastUpdatedTime)).toBeGreaterThanOrEqual(Date.parse(body.createdTime));
    expect(callCount('Greet')).toBe(2);
    expect(callCount('Double')).toBe(5);
  });

  it('answers 202 with the running status while the orchestration is in progress', async () => {
    const started = await test.startViaStarter('ApprovalOrTimeout', { timeoutMs: 60_000 });
    const { statusQueryGetUri, terminatePostUri } = JSON.parse(started.body) as Record<
      string,
      string
    >;
    let status = await fetch(statusQueryGetUri!);
    for (
      let i = 0;
      i < 100 &&
      ((await status.clone().json()) as { runtimeStatus: string }).runtimeStatus !== 'Running';
      i += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await fetch(statusQueryGetUri!);
    }
    expect(status.status).toBe(202);
    expect(status.headers.get('location')).toContain('/runtime/webhooks/durabletask/instances/');
    expect(((await status.json()) as { runtimeStatus: string }).runtimeStatus).toBe('Running');

    const terminated = await fetch(terminatePostUri!.replace('{text}', 'done%20testing'), {
      method: 'POST',
    });
    expect(terminated.status).toBe(202);
    const end = await waitForEnd(statusQueryGetUri!);
    expect(end.body).toMatchObject({ runtimeStatus: 'Terminated', output: 'done testing' });
  });

  it('shows the replay history with showHistory, TaskScheduled before each completion', async () => {
    const started = await test.startViaStarter('HelloSequence', {
      names: ['A', 'B'],
      numbers: [7],
    });
    const { statusQueryGetUri } = JSON.parse(started.body) as Record<string, string>;
    await waitForEnd(statusQueryGetUri!);
    const response = await fetch(`${statusQueryGetUri}&showHistory=true&showHistoryOutput=true`);
    const body = (await response.json()) as { historyEvents: Array<Record<string, unknown>> };
    const types = body.historyEvents.map((event) => event.EventType);
    expect(types).toEqual([
      'ExecutionStarted',
      'TaskScheduled',
      'TaskCompleted',
      'TaskScheduled',
      'TaskCompleted',
      'TaskScheduled',
      'TaskCompleted',
      'ExecutionCompleted',
    ]);
    expect(body.historyEvents[2]).toMatchObject({
      FunctionName: 'Greet',
      Result: 'Hello, A!',
      TaskScheduledId: 0,
    });
    expect(body.historyEvents[6]).toMatchObject({
      FunctionName: 'Double',
      Result: 14,
      TaskScheduledId: 2,
    });
  });
});
