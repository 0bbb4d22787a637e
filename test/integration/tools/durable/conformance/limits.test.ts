/**
 * Conformance: the limits and checks the Durable extension applies in Azure.
 * - Custom status: at most 16 KB of UTF-16 JSON, else the orchestration fails
 *   (azure-functions-durable-extension, ContextImplementations/DurableOrchestrationContext.cs
 *   `SetCustomStatus`, MessagePayloadDataConverter.cs `Serialize(value, maxSizeInKB)`).
 * - A call to an unknown activity fails the orchestration at once, nothing scheduled or retried
 *   (DurableTaskExtension.cs `ThrowIfFunctionDoesNotExist`, called from
 *   DurableOrchestrationContext.cs `CallDurableTaskFunctionAsync`).
 * - A retry timeout hangs the orchestration in Azure (Azure/azure-functions-durable-js#629):
 *   refused loudly here.
 * - Payloads over 45 KB go to blobs in Azure (Azure/durabletask, DurableTask.AzureStorage
 *   MessageManager.cs, AzureTableTrackingStore.cs `CompressLargeMessageAsync`): they work here.
 * - A replay that asks for fewer tasks than the history holds fails the orchestration
 *   (Azure/durabletask, DurableTask.Core/TaskOrchestrationContext.cs
 *   `HandleTaskScheduledEvent`, TaskOrchestrationExecutor.cs).
 */
import {
  callCount,
  fixtureControl,
  releaseGate,
  resetFixtureControl,
} from '../../../../fixtures/durableapp/control';
import { loadFixtureAppInJest } from '../../../../fixtures/durableapp/harness/loadInJest';
import { startTestRuntime, waitForEnd, type TestRuntime } from '../support/testRuntime';
import { eventTypes, start, statusWithHistory, STEP_MS, waitUntil } from './support';

const shim = loadFixtureAppInJest();

describe('conformance: limits of the Durable extension', () => {
  let test: TestRuntime;

  beforeAll(async () => {
    test = await startTestRuntime(shim);
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(() => resetFixtureControl());

  it('fails an orchestration whose custom status is over 16 KB of UTF-16 JSON, and takes one under', async () => {
    // 8702 characters of JSON = 17,404 bytes = 16 KB (rounded down): accepted.
    const under = await start(test, 'LongCustomStatus', 'status-ok', 8700);
    expect((await waitForEnd(under, STEP_MS)).body.runtimeStatus).toBe('Completed');
    // 8704 characters = 17,408 bytes = 17 KB: refused.
    const over = await start(test, 'LongCustomStatus', 'status-over', 8702);
    const { body } = await waitForEnd(over, STEP_MS);
    expect(body.runtimeStatus).toBe('Failed');
    expect(String(body.output)).toContain(
      'The UTF-16 size of the JSON-serialized payload must not exceed 16 KB. The current payload size is 17 KB.',
    );
    expect(callCount('Greet', 'status')).toBe(1);
  });

  it('fails an orchestration that calls an unknown activity at once, without scheduling or retrying it', async () => {
    const statusUrl = await start(test, 'CallsUnknownActivity', 'unknown-1', null);
    await waitForEnd(statusUrl, STEP_MS);
    const status = await statusWithHistory(statusUrl);
    expect(status.runtimeStatus).toBe('Failed');
    expect(String(status.output)).toContain(
      "The function 'NoSuchActivity' doesn't exist, is disabled, or is not an activity function.",
    );
    expect(eventTypes(status)).not.toContain('TaskScheduled');
  });

  it('refuses a retry timeout loudly instead of running (Azure hangs the orchestration)', async () => {
    const statusUrl = await start(test, 'RetryWithTimeout', 'retry-timeout-1', null);
    const { body } = await waitForEnd(statusUrl, STEP_MS);
    expect(body.runtimeStatus).toBe('Failed');
    expect(String(body.output)).toContain('azure-functions-durable-js#629');
    expect(callCount('Double')).toBe(0);
  });

  it('carries an activity result and an orchestration output far over the table limits', async () => {
    const length = 600_000;
    const counted = await start(test, 'LargeResult', 'large-1', { length, echo: false });
    expect((await waitForEnd(counted, STEP_MS)).body).toMatchObject({
      runtimeStatus: 'Completed',
      output: length,
    });
    const echoed = await start(test, 'LargeResult', 'large-2', { length, echo: true });
    const { body } = await waitForEnd(echoed, STEP_MS);
    expect(body.runtimeStatus).toBe('Completed');
    expect(body.output).toBe('x'.repeat(length));
  });

  it('fails an orchestration whose replay asks for fewer tasks than its history holds', async () => {
    const statusUrl = await start(test, 'ChangesCode', 'changes-1', 'changes-1');
    await waitUntil('the gated activity runs', () => callCount('Gated', 'changes-1') === 1);
    fixtureControl.codeVersion = 2; // "deployed" while the instance waits
    releaseGate('changes-1');
    const { body } = await waitForEnd(statusUrl, STEP_MS);
    expect(body.runtimeStatus).toBe('Failed');
    expect(String(body.output)).toContain(
      "A previous execution of this orchestration scheduled an activity task with sequence ID 0 and name 'Gated' (version ''), but the current replay execution hasn't (yet?) scheduled this task.",
    );
  });
});
