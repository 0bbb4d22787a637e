/**
 * External events, durable timers, termination and sub-orchestrations on the local runtime,
 * driven through the DurableClient's HTTP API shape.
 */
import { callCount, resetFixtureControl } from '../../../fixtures/durableapp/control';
import { loadFixtureAppInJest } from '../../../fixtures/durableapp/harness/loadInJest';
import {
  startTestRuntime,
  waitForEnd,
  type StatusBody,
  type TestRuntime,
} from './support/testRuntime';

const shim = loadFixtureAppInJest();

async function waitForRunning(statusUrl: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const body = (await (await fetch(statusUrl)).json()) as StatusBody;
    if (body.runtimeStatus === 'Running') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('The instance never ran.');
}

describe('local durable runtime: events, timers and sub-orchestrations', () => {
  let test: TestRuntime;

  beforeAll(async () => {
    test = await startTestRuntime(shim);
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(() => resetFixtureControl());

  it('delivers a raised event to waitForExternalEvent before the timer fires', async () => {
    const started = await test.startViaStarter('ApprovalOrTimeout', { timeoutMs: 60_000 });
    const urls = JSON.parse(started.body) as Record<string, string>;
    await waitForRunning(urls.statusQueryGetUri!);

    const raised = await fetch(urls.sendEventPostUri!.replace('{eventName}', 'Approval'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ by: 'manager' }),
    });
    expect(raised.status).toBe(202);

    const { body } = await waitForEnd(urls.statusQueryGetUri!);
    expect(body).toMatchObject({
      runtimeStatus: 'Completed',
      output: { approved: { by: 'manager' }, timedOut: false },
    });
  });

  it('fires a durable timer when no event comes', async () => {
    const before = Date.now();
    const started = await test.startViaStarter('ApprovalOrTimeout', { timeoutMs: 400 });
    const urls = JSON.parse(started.body) as Record<string, string>;
    const { body } = await waitForEnd(urls.statusQueryGetUri!);
    expect(body).toMatchObject({
      runtimeStatus: 'Completed',
      output: { approved: null, timedOut: true },
    });
    expect(Date.now() - before).toBeGreaterThanOrEqual(400);
  });

  it('answers 410 to events and terminations for an ended instance, 404 for an unknown one', async () => {
    const started = await test.startViaStarter('ApprovalOrTimeout', { timeoutMs: 10 });
    const urls = JSON.parse(started.body) as Record<string, string>;
    await waitForEnd(urls.statusQueryGetUri!);
    const late = await fetch(urls.sendEventPostUri!.replace('{eventName}', 'Approval'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '1',
    });
    expect(late.status).toBe(410);
    const terminate = await fetch(urls.terminatePostUri!.replace('{text}', 'x'), {
      method: 'POST',
    });
    expect(terminate.status).toBe(410);
    const unknown = await fetch(`${test.origin}/runtime/webhooks/durabletask/instances/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: 'InstanceNotFound', message: "No instance with ID 'nope' found." },
    });
  });

  it('runs a sub-orchestration and returns its output to the parent', async () => {
    const input = { names: ['Kay', 'Lin'], numbers: [10, 20] };
    const started = await test.startViaStarter('ParentOfSequence', input);
    const urls = JSON.parse(started.body) as Record<string, string>;
    const { body } = await waitForEnd(urls.statusQueryGetUri!);

    expect(body).toMatchObject({
      runtimeStatus: 'Completed',
      output: { child: { greetings: ['Hello, Kay!', 'Hello, Lin!'], total: 60 } },
    });
    const childId = `${urls.id}:0`;
    const child = (await (
      await fetch(
        `${test.origin}/runtime/webhooks/durabletask/instances/${encodeURIComponent(childId)}`,
      )
    ).json()) as StatusBody;
    expect(child).toMatchObject({ name: 'HelloSequence', runtimeStatus: 'Completed', input });
    expect(callCount('Double')).toBe(2);
  });

  it('continues as new with a fresh history until the orchestration returns', async () => {
    const started = await test.startViaStarter('CountDown', 3);
    const urls = JSON.parse(started.body) as Record<string, string>;
    const { body } = await waitForEnd(urls.statusQueryGetUri!);
    expect(body).toMatchObject({ runtimeStatus: 'Completed', output: 'liftoff', input: 0 });
    expect([3, 2, 1].map((n) => callCount('Double', n))).toEqual([1, 1, 1]);
    const history = (await (
      await fetch(`${urls.statusQueryGetUri}&showHistory=true&showHistoryOutput=true`)
    ).json()) as StatusBody;
    expect(history.historyEvents!.map((e) => e.EventType)).toEqual([
      'ExecutionStarted',
      'ExecutionCompleted',
    ]);
    expect(history.historyEvents![0]).toMatchObject({ Input: 0 });
  });
});
