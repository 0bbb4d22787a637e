/**
 * The runtime's `/runtime/webhooks/durabletask` API as `durable-functions`' own DurableClient uses
 * it (through `rpcBaseUrl`), and its answers to bad or conflicting requests.
 */
import { resetFixtureControl } from '../../../fixtures/durableapp/control';
import { loadFixtureAppInJest } from '../../../fixtures/durableapp/harness/loadInJest';
import { startTestRuntime, waitForEnd, type TestRuntime } from './support/testRuntime';

const shim = loadFixtureAppInJest();

interface LibraryStatus {
  name: string;
  instanceId: string;
  runtimeStatus: string;
  input: unknown;
  output: unknown;
  createdTime: Date;
  lastUpdatedTime: Date;
}

/** The subset of durable-functions' DurableClient these tests call. */
interface LibraryClient {
  startNew(name: string, options?: { input?: unknown; instanceId?: string }): Promise<string>;
  getStatus(id: string, options?: { showHistory?: boolean }): Promise<LibraryStatus>;
  getStatusBy(filter: { runtimeStatus?: string[] }): Promise<LibraryStatus[]>;
  getStatusAll(): Promise<LibraryStatus[]>;
  raiseEvent(id: string, event: string, data: unknown): Promise<void>;
  terminate(id: string, reason: string): Promise<void>;
  purgeInstanceHistory(id: string): Promise<{ instancesDeleted: number }>;
  waitForCompletionOrCreateCheckStatusResponse(
    request: unknown,
    id: string,
    options: { timeoutInMilliseconds: number; retryIntervalInMilliseconds: number },
  ): Promise<{ status: number; json(): Promise<unknown> }>;
}

function libraryClient(input: object): LibraryClient {
  const { DurableClient } = jest.requireActual<{
    DurableClient: new (data: object) => LibraryClient;
  }>('durable-functions/lib/src/durableClient/DurableClient');
  return new DurableClient(input);
}

describe('local durable runtime: the HTTP API', () => {
  let test: TestRuntime;
  let client: LibraryClient;
  let api: string;

  beforeAll(async () => {
    test = await startTestRuntime(shim);
    client = libraryClient(test.runtime.clientInputFor());
    api = `${test.origin}/runtime/webhooks/durabletask`;
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(() => resetFixtureControl());

  it("serves the library client's startNew, getStatus, raiseEvent and waitForCompletion", async () => {
    const id = await client.startNew('ApprovalOrTimeout', {
      input: { timeoutMs: 60_000 },
      instanceId: 'lib-1',
    });
    expect(id).toBe('lib-1');
    await client.raiseEvent(id, 'Approval', 'yes');
    const response = await client.waitForCompletionOrCreateCheckStatusResponse(
      { url: `${test.origin}/x` },
      id,
      {
        timeoutInMilliseconds: 15_000,
        retryIntervalInMilliseconds: 50,
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ approved: 'yes', timedOut: false });

    const status = await client.getStatus(id);
    expect(status).toMatchObject({
      name: 'ApprovalOrTimeout',
      instanceId: 'lib-1',
      runtimeStatus: 'Completed',
    });
    expect(status.createdTime).toBeInstanceOf(Date);
    expect(status.input).toEqual({ timeoutMs: 60_000 });
  });

  it('lists instances by status and purges ended ones through the library client', async () => {
    const running = await client.startNew('ApprovalOrTimeout', { input: { timeoutMs: 60_000 } });
    const done = await client.startNew('HelloSequence', {
      input: { names: ['x', 'y'], numbers: [1] },
    });
    await waitForEnd(`${api}/instances/${done}`);
    await waitForStatus(client, running, 'Running');

    const runningIds = (await client.getStatusBy({ runtimeStatus: ['Running'] })).map(
      (s) => s.instanceId,
    );
    expect(runningIds).toContain(running);
    expect(runningIds).not.toContain(done);
    const all = (await client.getStatusAll()).map((s) => s.instanceId);
    expect(all).toEqual(expect.arrayContaining([running, done]));

    const notEnded = await fetch(`${api}/instances/${running}`, { method: 'DELETE' });
    expect(notEnded.status).toBe(409);
    await client.terminate(running, 'cleanup');
    await waitForEnd(`${api}/instances/${running}`);
    expect(await client.purgeInstanceHistory(running)).toEqual({ instancesDeleted: 1 });
    expect((await fetch(`${api}/instances/${running}`)).status).toBe(404);
    expect(await client.purgeInstanceHistory(running)).toEqual({ instancesDeleted: 0 });
  });

  it('pages the instance list with x-ms-continuation-token', async () => {
    for (let i = 0; i < 3; i += 1) {
      await client.startNew('ApprovalOrTimeout', {
        input: { timeoutMs: 60_000 },
        instanceId: `page-${i}`,
      });
    }
    const first = await fetch(`${api}/instances/?top=2&instanceIdPrefix=page-`);
    const token = first.headers.get('x-ms-continuation-token');
    expect(((await first.json()) as unknown[]).length).toBe(2);
    expect(token).toBeTruthy();
    const second = await fetch(`${api}/instances/?top=2&instanceIdPrefix=page-`, {
      headers: { 'x-ms-continuation-token': token! },
    });
    const ids = ((await second.json()) as Array<{ instanceId: string }>).map((s) => s.instanceId);
    expect(ids).toEqual(['page-2']);
  });

  it('refuses bad starts with a JSON error naming the problem', async () => {
    const unknown = await fetch(`${api}/orchestrators/NoSuchThing`, { method: 'POST' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      error: {
        code: 'UnknownOrchestrator',
        message:
          "The function 'NoSuchThing' doesn't exist, is disabled, or is not an orchestrator function.",
      },
    });
    const badJson = await fetch(`${api}/orchestrators/HelloSequence`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { error: { code: string } }).error.code).toBe('InvalidJson');
    const badId = await fetch(`${api}/orchestrators/HelloSequence/has%23hash`, { method: 'POST' });
    expect(badId.status).toBe(400);
    expect(((await badId.json()) as { error: { message: string } }).error.message).toContain('"#"');

    await client.startNew('ApprovalOrTimeout', {
      input: { timeoutMs: 60_000 },
      instanceId: 'dup-1',
    });
    const duplicate = await fetch(`${api}/orchestrators/ApprovalOrTimeout/dup-1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(duplicate.status).toBe(409);
  });

  it('restarts an ended instance id with a fresh history', async () => {
    const input = (n: number): object => ({ names: ['r', 's'], numbers: [n] });
    await client.startNew('HelloSequence', { input: input(1), instanceId: 'again-1' });
    expect((await waitForEnd(`${api}/instances/again-1`)).body.output).toMatchObject({ total: 2 });
    await client.startNew('HelloSequence', { input: input(5), instanceId: 'again-1' });
    const { body } = await waitForEnd(`${api}/instances/again-1?showHistory=true`);
    expect(body.output).toMatchObject({ total: 10 });
    expect(body.historyEvents!.filter((e) => e.EventType === 'ExecutionStarted')).toHaveLength(1);
  });

  it('answers 501 for what the local runtime does not support and 404 for unknown routes or hubs', async () => {
    expect((await fetch(`${api}/instances/x/suspend`, { method: 'POST' })).status).toBe(501);
    expect((await fetch(`${api}/entities/counter/one`)).status).toBe(501);
    expect((await fetch(`${api}/nothing-here`)).status).toBe(404);
    const otherHub = await fetch(`${api}/instances/x?taskHub=SomeOtherHub`);
    expect(otherHub.status).toBe(404);
    expect(((await otherHub.json()) as { error: { code: string } }).error.code).toBe(
      'UnknownTaskHub',
    );
  });
});

async function waitForStatus(client: LibraryClient, id: string, status: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if ((await client.getStatus(id)).runtimeStatus === status) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Instance ${id} never reached ${status}.`);
}
