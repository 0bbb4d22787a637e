/**
 * Queue trigger on `index-updates`: reconciles the inter-partition index (`EmployeeIndex`) and the
 * organisation-wide last-name index with the current primary entities of each employee the message
 * names (src/indexing/indexMaintenance.ts), and removes the photos of employees that are gone.
 */
import { app, type InvocationContext } from '@azure/functions';
import { settingOrDefault } from '../src/config';
import { handleIndexUpdateMessage } from '../src/indexing/indexUpdates';
import { removePhotosOfGoneEmployee } from '../src/photos/photos';
import { services } from './shared/services';
import { dequeueCount, queuePayload } from './shared/queuePayload';

/**
 * Handles one message.
 *
 * @throws for a malformed message or a storage fault (the host retries, then poisons).
 */
export async function indexUpdatesWorker(
  queueEntry: unknown,
  context: InvocationContext,
): Promise<void> {
  const outcome = await handleIndexUpdateMessage(
    services().indexStores(),
    queuePayload(queueEntry),
    async (department, employeeId) => {
      await removePhotosOfGoneEmployee(services().photos(), department, employeeId);
    },
  );
  context.log(
    `Reconciled ${outcome.employees} employees (${outcome.gone} gone), delivery ${dequeueCount(context)}.`,
  );
}

app.storageQueue('indexUpdates', {
  queueName: settingOrDefault((config) => config.queues.indexUpdates),
  connection: 'AzureWebJobsStorage',
  handler: indexUpdatesWorker,
});
