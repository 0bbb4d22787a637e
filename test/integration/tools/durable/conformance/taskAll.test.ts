/**
 * Conformance: Task.all and the end of an instance, as in Azure.
 * - The extension's OutOfProcOrchestrationShim (Azure/azure-functions-durable-extension,
 *   src/WebJobs.Extensions.DurableTask/Listener/OutOfProcOrchestrationShim.cs,
 *   `ScheduleDurableTaskEvents` / `ProcessAsyncActionsV2`) awaits every yielded action — Task.all
 *   as Task.WhenAll — before it looks at the orchestrator's error or output: an instance stays
 *   Running until the siblings of a failed Task.all have finished.
 * - DurableTask.AzureStorage runs a work item whatever became of its instance
 *   (Azure/durabletask, src/DurableTask.AzureStorage/AzureStorageOrchestrationService.cs,
 *   `LockNextTaskActivityWorkItem` reads no instance state).
 */
import {
  callCount,
  releaseGate,
  resetFixtureControl,
} from '../../../../fixtures/durableapp/control';
import { loadFixtureAppInJest } from '../../../../fixtures/durableapp/harness/loadInJest';
import { startTestRuntime, waitForEnd, type TestRuntime } from '../support/testRuntime';
import { eventTypes, start, statusWithHistory, waitUntil } from './support';

const shim = loadFixtureAppInJest();

describe('conformance: Task.all and ended instances', () => {
  let test: TestRuntime;

  beforeAll(async () => {
    // One activity at a time, so a work item can be held in the queue behind a gated one.
    test = await startTestRuntime(shim, { tuning: { activityConcurrency: 1 } });
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(() => resetFixtureControl());

  async function failureSeenWhileSiblingRuns(statusUrl: string): Promise<void> {
    await waitUntil('the failure is in the history', async () =>
      eventTypes(await statusWithHistory(statusUrl)).includes('TaskFailed'),
    );
    const status = await statusWithHistory(statusUrl);
    // The episode that took the failure did not end the instance: the sibling still runs.
    expect(eventTypes(status)).not.toContain('ExecutionCompleted');
    expect(status.runtimeStatus).toBe('Running');
  }

  it('keeps an instance Running until every task of a failed Task.all has finished, then fails it', async () => {
    const statusUrl = await start(test, 'AllWithFailure', 'all-1', 'all-1');
    await failureSeenWhileSiblingRuns(statusUrl);
    releaseGate('all-1');
    const { body } = await waitForEnd(statusUrl);
    expect(body.runtimeStatus).toBe('Failed');
    expect(JSON.stringify(body.output)).toContain('all-all-1');
    expect(callCount('Gated', 'all-1')).toBe(1);
  });

  it('completes an orchestrator that caught the failure only once the sibling has finished', async () => {
    const statusUrl = await start(test, 'AllWithFailureCaught', 'caught-1', 'caught-1');
    await failureSeenWhileSiblingRuns(statusUrl);
    releaseGate('caught-1');
    const { body } = await waitForEnd(statusUrl);
    expect(body).toMatchObject({ runtimeStatus: 'Completed', output: 'caught' });
  });

  it('runs a work item queued before its instance was terminated', async () => {
    const holder = await start(test, 'GatedOnce', 'holder-1', 'holder-1');
    await waitUntil('the gated activity runs', () => callCount('Gated', 'holder-1') === 1);
    const queuedUrl = await start(test, 'GreetOnce', 'queued-1', 'queued-1');
    await waitUntil('the greeting is scheduled', async () =>
      eventTypes(await statusWithHistory(queuedUrl)).includes('TaskScheduled'),
    );
    const terminate = await fetch(
      queuedUrl.replace('/instances/queued-1?', '/instances/queued-1/terminate?') + '&reason=stop',
      { method: 'POST' },
    );
    expect(terminate.status).toBe(202);
    expect((await waitForEnd(queuedUrl)).body.runtimeStatus).toBe('Terminated');
    expect(callCount('Greet', 'queued-1')).toBe(0);

    releaseGate('holder-1');
    await waitForEnd(holder);
    await waitUntil('the queued greeting runs', () => callCount('Greet', 'queued-1') === 1);
    // Its result lands nowhere: the instance stays terminated.
    expect((await statusWithHistory(queuedUrl)).runtimeStatus).toBe('Terminated');
  });
});
