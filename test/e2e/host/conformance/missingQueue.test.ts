/**
 * A trigger's missing queue is not created: Azure's listener treats QueueNotFound as an empty
 * poll and backs off (azure-webjobs-sdk QueueListener.ExecuteAsync, IsNotFoundQueueNotFound →
 * CreateBackoffResult). Messages are taken once someone creates the queue.
 */
import { startHostApp, type HostApp } from '../hostApp';
import { testClients } from '../../../support/storage';

let app: HostApp;

beforeAll(async () => {
  app = await startHostApp();
});
afterAll(async () => {
  await app?.host.stop();
});

it('the listener leaves a missing queue missing, and serves it once it exists', async () => {
  await app.host.waitForOutput(new RegExp(`Queue '${app.queues.echo}' does not exist`));
  // Several polls later (maxPollingInterval 0.5 s) it is still missing.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const queue = testClients().queue(app.queues.echo);
  expect(await queue.exists()).toBe(false);

  await queue.create();
  await queue.sendMessage(Buffer.from('"after create"').toString('base64'));
  await app.waitForRecords((r) => r.some((x) => x.fn === 'echoQueue'));
});
