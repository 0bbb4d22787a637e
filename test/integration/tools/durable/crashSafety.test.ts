/**
 * Crash safety of the local durable runtime: history lives in storage, so an orchestration
 * survives its runtime. A fresh runtime on the same task hub resumes where the last one stopped;
 * after a hard kill (SIGKILL) mid-activity, the activities that had completed are not run again,
 * and the one that was running is (at-least-once, as in Azure).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  callCount,
  fixtureControl,
  resetFixtureControl,
  type ActivityCall,
} from '../../../fixtures/durableapp/control';
import { loadFixtureAppInJest } from '../../../fixtures/durableapp/harness/loadInJest';
import { testClients } from '../../../support/storage';
import { instancesTableName } from '../../../../tools/durable/store/keys';
import { startTestRuntime, uniqueTaskHub, waitForEnd } from './support/testRuntime';
import { WAIT_MS } from '../../../support/waits';

const shim = loadFixtureAppInJest();
const ROOT = path.resolve(__dirname, '../../../..');

function statusUrl(origin: string, hub: string, id: string): string {
  return `${origin}/runtime/webhooks/durabletask/instances/${id}?taskHub=${hub}`;
}

describe('local durable runtime: crash safety', () => {
  beforeEach(() => resetFixtureControl());

  it('a fresh runtime on the same storage finishes an orchestration the stopped one began', async () => {
    const taskHub = uniqueTaskHub();
    const first = await startTestRuntime(shim, { taskHub });
    const firstGreetDone = new Promise<void>((resolve) => {
      fixtureControl.onCall = (call) => {
        if (call.name === 'Greet') resolve();
      };
    });
    const started = await first.startViaStarter(
      'HelloSequence',
      { names: ['Ann', 'Bo'], numbers: [1, 2, 3] },
      'handover-1',
    );
    expect(started.status).toBe(202);
    await firstGreetDone;
    await first.stop();
    // Stopped mid-way: the stored instance is still running, Bo not yet greeted.
    const stored = await testClients()
      .table(instancesTableName(taskHub))
      .getEntity('handover-1', '');
    expect(stored.RuntimeStatus).toBe('Running');
    expect(callCount('Greet', 'Bo')).toBe(0);

    const second = await startTestRuntime(shim, { taskHub });
    try {
      const { body } = await waitForEnd(statusUrl(second.origin, taskHub, 'handover-1'));
      expect(body).toMatchObject({
        runtimeStatus: 'Completed',
        output: { greetings: ['Hello, Ann!', 'Hello, Bo!'], total: 12 },
      });
      // Each activity ran exactly once across both runtimes.
      expect(callCount('Greet', 'Ann')).toBe(1);
      expect(callCount('Greet', 'Bo')).toBe(1);
      for (const n of [1, 2, 3]) expect(callCount('Double', n)).toBe(1);
    } finally {
      await second.stop();
    }
  });

  it('after SIGKILL mid-activity, a restarted runtime re-runs only the interrupted activity', async () => {
    const taskHub = uniqueTaskHub();
    const callLog = path.join(os.tmpdir(), `durable-calls-${taskHub}.jsonl`);
    const child = spawnRuntime({
      DURABLE_TASK_HUB: taskHub,
      DURABLE_FIXTURE_CALL_LOG: callLog,
      DURABLE_FIXTURE_HANG_ON_NAME: 'Bo',
      DURABLE_LEASE_SECONDS: '2',
    });
    try {
      const origin = await waitForReady(child);
      const start = await fetch(
        `${origin}/runtime/webhooks/durabletask/orchestrators/HelloSequence/crash-1`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ names: ['Ann', 'Bo'], numbers: [4, 5] }),
        },
      );
      expect(start.status).toBe(202);
      // Ann's greeting completes; Bo's hangs in the child until it is killed.
      await waitFor(() =>
        readCalls(callLog).some((call) => call.name === 'Greet' && call.input === 'Bo'),
      );
    } finally {
      child.kill('SIGKILL');
      // A child that already ended (it could not start) sends no further 'exit'.
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    const childCalls = readCalls(callLog);
    expect(childCalls.map((call) => `${call.name}:${String(call.input)}`)).toEqual([
      'Greet:Ann',
      'Greet:Bo',
    ]);

    const restarted = await startTestRuntime(shim, { taskHub });
    try {
      const { body } = await waitForEnd(statusUrl(restarted.origin, taskHub, 'crash-1'));
      expect(body).toMatchObject({
        runtimeStatus: 'Completed',
        output: { greetings: ['Hello, Ann!', 'Hello, Bo!'], total: 18 },
      });
      expect(callCount('Greet', 'Ann')).toBe(0); // completed before the crash: not re-run
      // Interrupted: re-run. Twice when the kill landed between sending Bo's work item and
      // marking its episode dispatched: the episode is dispatched again, and as in Azure a queued
      // work item runs even once its instance has completed (at-least-once).
      expect(callCount('Greet', 'Bo')).toBeGreaterThanOrEqual(1);
      expect(callCount('Greet', 'Bo')).toBeLessThanOrEqual(2);
      expect(callCount('Double', 4)).toBe(1);
      expect(callCount('Double', 5)).toBe(1);
    } finally {
      await restarted.stop();
      fs.rmSync(callLog, { force: true });
    }
  });
});

function spawnRuntime(env: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      path.join(ROOT, 'test/fixtures/durableapp/harness/runtimeProcess.ts'),
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

function waitForReady(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`The runtime process did not start:\n${output}`)),
      30_000,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /READY (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The runtime process exited (${code}):\n${output}`));
    });
  });
}

function readCalls(file: string): ActivityCall[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ActivityCall);
}

async function waitFor(condition: () => boolean, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for the condition.');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
