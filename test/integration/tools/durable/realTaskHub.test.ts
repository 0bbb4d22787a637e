/**
 * The local durable runtime beside a real task hub (issue 48, item 2). The Durable extension's
 * storage provider, DurableTask.AzureStorage, names a hub's resources `<hub>Instances`,
 * `<hub>History`, `<hub>Partitions`, `<hub>-control-NN`, `<hub>-workitems`, `<hub>-leases`, …
 * (Azure/durabletask `AzureStorageOrchestrationService.GetControlQueueName` /
 * `GetWorkItemQueueName`, `AzureStorageOrchestrationServiceSettings.InstanceTableName`), and its
 * messages are `MessageData` JSON with `$type` (plain UTF-8 by default, base64 optionally:
 * `QueueClientMessageEncoding`). The local runtime must never take or delete them: its own names
 * differ, it refuses to start over a real hub's resources, and its pollers leave any message that
 * is not theirs in place.
 */
import { randomUUID } from 'node:crypto';
import type { QueueClient } from '@azure/storage-queue';
import { createDurableRuntime, TaskHubInUseError } from '../../../../tools/durable';
import { azureStorageHubResources } from '../../../../tools/durable/store/keys';
import { DurableStore } from '../../../../tools/durable/store/store';
import { resetFixtureControl } from '../../../fixtures/durableapp/control';
import { invokeDurable } from '../../../fixtures/durableapp/harness/durableApp';
import { loadFixtureAppInJest } from '../../../fixtures/durableapp/harness/loadInJest';
import { testClients } from '../../../support/storage';
import {
  startTestRuntime,
  uniqueTaskHub,
  waitForEnd,
  type TestRuntime,
} from './support/testRuntime';

const shim = loadFixtureAppInJest();
const clients = testClients();

/** A work item as DurableTask.AzureStorage enqueues it (MessageData around a TaskScheduledEvent). */
function realWorkItem(instanceId: string): string {
  const instance = {
    $type: 'DurableTask.Core.OrchestrationInstance, DurableTask.Core',
    InstanceId: instanceId,
    ExecutionId: randomUUID().replace(/-/g, ''),
  };
  return JSON.stringify({
    $type: 'DurableTask.AzureStorage.MessageData, DurableTask.AzureStorage',
    ActivityId: randomUUID(),
    TaskMessage: {
      $type: 'DurableTask.Core.TaskMessage, DurableTask.Core',
      Event: {
        $type: 'DurableTask.Core.History.TaskScheduledEvent, DurableTask.Core',
        EventType: 'TaskScheduled',
        Name: 'copyChunk',
        Version: '',
        Input: '{"department":"Sales","page":3}',
        EventId: 4,
        IsPlayed: false,
        Timestamp: '2026-12-07T09:00:00.0000000Z',
      },
      SequenceNumber: 0,
      OrchestrationInstance: instance,
    },
    CompressedBlobName: null,
    SequenceNumber: 17,
    Episode: 3,
    Sender: instance,
    SerializableTraceContext: null,
  });
}

/** Every visible message's text (read without taking it). */
async function peekTexts(queue: QueueClient): Promise<string[]> {
  const peeked = await queue.peekMessages({ numberOfMessages: 32 });
  return peeked.peekedMessageItems.map((item) => item.messageText);
}

function runtimeOn(taskHub: string, logs: unknown[][] = []) {
  return createDurableRuntime({
    storage: clients,
    taskHub,
    hostBaseUrl: 'http://127.0.0.1:1',
    invoke: (name, value, kind) => invokeDurable(shim, name, value, kind),
    log: (...args) => logs.push(args),
  });
}

/** Runs the fixture's HelloSequence to completion. */
async function runHelloSequence(test: TestRuntime): Promise<void> {
  const started = await test.startViaStarter('HelloSequence', {
    names: ['Ada', 'Grace'],
    numbers: [1, 2],
  });
  const { statusQueryGetUri } = JSON.parse(started.body) as Record<string, string>;
  const { body } = await waitForEnd(statusQueryGetUri!);
  expect(body.runtimeStatus).toBe('Completed');
}

beforeEach(() => resetFixtureControl());

describe('local durable runtime beside a real task hub of the same name', () => {
  it('refuses to start, and the real hub’s waiting work item and control message survive', async () => {
    const taskHub = uniqueTaskHub();
    const real = azureStorageHubResources(taskHub);
    const workItems = clients.queue(`${taskHub.toLowerCase()}-workitems`);
    const control = clients.queue(`${taskHub.toLowerCase()}-control-00`);
    await Promise.all([
      workItems.create(),
      control.create(),
      clients.container(`${taskHub.toLowerCase()}-leases`).create(),
      clients.table(`${taskHub}Instances`).createTable(),
    ]);
    const workItem = realWorkItem('order-42');
    const base64WorkItem = Buffer.from(realWorkItem('order-43')).toString('base64');
    await workItems.sendMessage(workItem);
    await workItems.sendMessage(base64WorkItem);
    const controlMessage = realWorkItem('order-44');
    await control.sendMessage(controlMessage);

    // A local run on that hub name: start the runtime and, if it starts, run an orchestration.
    let refusal: unknown;
    try {
      const test = await startTestRuntime(shim, { taskHub });
      try {
        await runHelloSequence(test);
      } finally {
        await test.stop();
      }
    } catch (error) {
      refusal = error;
    }

    // First what matters: the real hub's messages are all still there, unchanged.
    expect((await peekTexts(workItems)).sort()).toEqual([workItem, base64WorkItem].sort());
    expect(await peekTexts(control)).toEqual([controlMessage]);
    expect(refusal).toBeInstanceOf(TaskHubInUseError);
    expect((refusal as TaskHubInUseError).found).toEqual(
      expect.arrayContaining([
        `${taskHub}Instances`,
        `${taskHub.toLowerCase()}-workitems`,
        `${taskHub.toLowerCase()}-control-00`,
        `${taskHub.toLowerCase()}-leases`,
      ]),
    );
    expect((refusal as Error).message).toMatch(/refuses to start.*created and deleted nothing/);
    // Nothing of its own was created either.
    const local = new DurableStore(clients, taskHub);
    expect(await local.workItems.exists()).toBe(false);
    expect(await local.control.exists()).toBe(false);
    expect(real.queues).not.toContain(local.workItems.name);
  });

  it.each([
    [
      'the -control-00 queue',
      (hub: string) => clients.queue(`${hub.toLowerCase()}-control-00`).create(),
    ],
    [
      'the -workitems queue',
      (hub: string) => clients.queue(`${hub.toLowerCase()}-workitems`).create(),
    ],
    [
      'the -leases container',
      (hub: string) => clients.container(`${hub.toLowerCase()}-leases`).create(),
    ],
    ['the Instances table', (hub: string) => clients.table(`${hub}Instances`).createTable()],
    ['the History table', (hub: string) => clients.table(`${hub}History`).createTable()],
  ])('refuses to start when only %s exists', async (_what, createArtefact) => {
    const taskHub = uniqueTaskHub();
    await createArtefact(taskHub);
    const runtime = runtimeOn(taskHub);
    await expect(runtime.start()).rejects.toBeInstanceOf(TaskHubInUseError);
    await runtime.stop();
  });
});

describe('local durable runtime: messages that are not its own', () => {
  it('leaves them in its queues (logged), runs orchestrations meanwhile, and uses none of a real hub’s names', async () => {
    const test = await startTestRuntime(shim, { tuning: { unreadableHideSeconds: 1 } });
    const store = new DurableStore(clients, test.taskHub);
    const plain = realWorkItem('order-42');
    const base64 = Buffer.from(realWorkItem('order-43')).toString('base64');
    const notOurShape = Buffer.from(JSON.stringify({ kind: 'wake' })).toString('base64');
    try {
      await store.workItems.sendMessage(plain);
      await store.workItems.sendMessage(base64);
      await store.control.sendMessage(notOurShape);

      await runHelloSequence(test);
    } finally {
      await test.stop();
    }

    const foreign = test.logs
      .map((args) => String(args[0]))
      .filter((line) => line.includes("is not one of this runtime's"));
    expect(foreign.length).toBeGreaterThanOrEqual(3);
    expect(foreign.join('\n')).toContain(store.workItems.name);
    // Hidden for a second, then back, unchanged.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await peekTexts(store.workItems)).sort()).toEqual([plain, base64].sort());
    expect(await peekTexts(store.control)).toEqual([notOurShape]);

    const real = azureStorageHubResources(test.taskHub);
    for (const queue of real.queues) expect(await clients.queue(queue).exists()).toBe(false);
    for (const container of real.containers) {
      expect(await clients.container(container).exists()).toBe(false);
    }
    for (const table of real.tables) {
      await expect(
        clients.table(table).listEntities().byPage({ maxPageSize: 1 }).next(),
      ).rejects.toMatchObject({ statusCode: 404 });
    }
  });
});
