/**
 * Durable Functions end to end on the local host: the fixture app (df.app.orchestration,
 * df.app.activity, HTTP functions with df.input.durableClient) runs in the host process. The
 * fixture's starter answers as an Azure sample does (`createCheckStatusResponse`: the management
 * URLs of the host's own `/runtime/webhooks/durabletask` API, which the host keeps serving), and
 * its status route reads `DurableClient.getStatus` through the client input, as the project's
 * `GET /orchestrations/{id}` does: it reaches Completed or Failed with the reason, and answers
 * 404 for an unknown instance. Killing the host mid-orchestration and starting a new one on the
 * same task hub resumes it without re-running the activities that had completed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ActivityCall } from '../../fixtures/durableapp/control';
import { PROJECT_ROOT, startHost, type RunningHost } from '../../support/host';
import { testClients } from '../../support/storage';
import { WAIT_MS } from '../../support/waits';

const APP_ROOT = path.join(PROJECT_ROOT, 'test/fixtures/durableapp');
const HUB_SETTING = 'AzureFunctionsJobHost__extensions__durableTask__hubName';
const LEASE_SETTING =
  'AzureFunctionsJobHost__extensions__durableTask__storageProvider__workItemQueueVisibilityTimeout';

function hostFor(taskHub: string, env: Record<string, string> = {}): Promise<RunningHost> {
  return startHost({
    appRoot: APP_ROOT,
    functionsGlob: 'app.ts',
    env: { [HUB_SETTING]: taskHub, [LEASE_SETTING]: '00:00:02', ...env },
  });
}

/** Polls the fixture's status route (`DurableClient.getStatus`) until the instance has ended. */
async function pollUntilEnded(
  host: RunningHost,
  instanceId: string,
  timeoutMs = WAIT_MS,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(statusRoute(host, instanceId));
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) {
      throw new Error(`The status route answered ${response.status}: ${JSON.stringify(body)}`);
    }
    if (['Completed', 'Failed', 'Terminated'].includes(String(body.runtimeStatus))) return body;
    if (Date.now() > deadline)
      throw new Error(`Still ${String(body.runtimeStatus)} after ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function statusRoute(host: RunningHost, instanceId: string): string {
  return `${host.baseUrl}/durable/instances/${encodeURIComponent(instanceId)}`;
}

function readCalls(file: string): ActivityCall[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ActivityCall);
}

describe('durable functions on the local host', () => {
  it('starts an orchestration over HTTP and reports Completed through DurableClient.getStatus', async () => {
    const host = await hostFor(`E2e${randomBytes(5).toString('hex')}`);
    try {
      const response = await fetch(`${host.baseUrl}/durable/HelloSequence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ names: ['Ada', 'Linus'], numbers: [1, 2, 3] }),
      });
      expect(response.status).toBe(202);
      const payload = (await response.json()) as Record<string, string>;
      expect(response.headers.get('location')).toBe(payload.statusQueryGetUri);
      expect(
        payload.statusQueryGetUri!.startsWith(
          `${host.origin}/runtime/webhooks/durabletask/instances/${payload.id}?`,
        ),
      ).toBe(true);

      // The host still serves its own durable API at the URLs the sample's starter hands out.
      const direct = await fetch(payload.statusQueryGetUri!);
      expect([200, 202]).toContain(direct.status);

      const status = await pollUntilEnded(host, payload.id!);
      expect(status).toMatchObject({
        name: 'HelloSequence',
        instanceId: payload.id,
        runtimeStatus: 'Completed',
        output: { greetings: ['Hello, Ada!', 'Hello, Linus!'], total: 12 },
      });
    } finally {
      await host.stop();
    }
  });

  it('fails an orchestration whose activity keeps failing, with the reason in the status', async () => {
    const host = await hostFor(`E2e${randomBytes(5).toString('hex')}`);
    try {
      const response = await fetch(`${host.baseUrl}/durable/DoomedWithRetry`, {
        method: 'POST',
        body: JSON.stringify('no such department'),
      });
      const payload = (await response.json()) as Record<string, string>;
      const status = await pollUntilEnded(host, payload.id!);
      // Azure's shape: the activity's Reason, then its Details (a serialised .NET exception).
      expect(status).toMatchObject({
        runtimeStatus: 'Failed',
        output: expect.stringMatching(
          /^Orchestrator function 'DoomedWithRetry' failed: Activity function 'AlwaysFails' failed: {2}no such department \n \{"\$type":/,
        ),
      });

      const unknown = await fetch(statusRoute(host, 'no-such-instance'));
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({
        error: { message: expect.stringContaining('HTTP 404') },
      });
    } finally {
      await host.stop();
    }
  });

  it('resumes after the host is killed mid-activity, re-running only the interrupted activity', async () => {
    const taskHub = `E2e${randomBytes(5).toString('hex')}`;
    const callLog = path.join(os.tmpdir(), `durable-e2e-${taskHub}.jsonl`);
    const first = await hostFor(taskHub, {
      DURABLE_FIXTURE_CALL_LOG: callLog,
      DURABLE_FIXTURE_HANG_ON_NAME: 'Bo',
    });
    try {
      const response = await fetch(`${first.baseUrl}/durable/HelloSequence?instanceId=e2e-crash`, {
        method: 'POST',
        body: JSON.stringify({ names: ['Ann', 'Bo'], numbers: [10, 20] }),
      });
      expect(response.status).toBe(202);
      expect(await response.json()).toMatchObject({ id: 'e2e-crash' });
      const deadline = Date.now() + WAIT_MS;
      while (!readCalls(callLog).some((call) => call.input === 'Bo')) {
        if (Date.now() > deadline) throw new Error(`Bo was never greeted:\n${first.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      first.kill();
      await first.exited();
    }

    const second = await hostFor(taskHub, { DURABLE_FIXTURE_CALL_LOG: callLog });
    try {
      const status = await pollUntilEnded(second, 'e2e-crash');
      expect(status).toMatchObject({
        runtimeStatus: 'Completed',
        output: { greetings: ['Hello, Ann!', 'Hello, Bo!'], total: 60 },
      });
      const calls = readCalls(callLog).map((call) => `${call.name}:${String(call.input)}`);
      expect(calls.filter((c) => c === 'Greet:Ann')).toHaveLength(1);
      expect(calls.filter((c) => c === 'Greet:Bo')).toHaveLength(2);
      expect(calls.filter((c) => c.startsWith('Double:')).sort()).toEqual([
        'Double:10',
        'Double:20',
      ]);
    } finally {
      await second.stop();
      fs.rmSync(callLog, { force: true });
    }
  });
  it('refuses to start beside a real Durable task hub of the same name, and leaves its messages', async () => {
    const taskHub = `E2e${randomBytes(5).toString('hex')}`;
    // What DurableTask.AzureStorage creates for a hub: a control queue per partition, ….
    const control = testClients().queue(`${taskHub.toLowerCase()}-control-00`);
    await control.create();
    await control.sendMessage(
      '{"$type":"DurableTask.AzureStorage.MessageData, DurableTask.AzureStorage"}',
    );

    await expect(hostFor(taskHub)).rejects.toThrow(
      new RegExp(`Host startup failed: Task hub "${taskHub}" exists in this storage account`),
    );
    const left = await control.peekMessages();
    expect(left.peekedMessageItems.map((m) => m.messageText)).toEqual([
      '{"$type":"DurableTask.AzureStorage.MessageData, DurableTask.AzureStorage"}',
    ]);
  });
});
