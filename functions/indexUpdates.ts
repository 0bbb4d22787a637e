/**
 * Queue trigger on `index-updates`: drains the index outbox of each department a nudge names
 * (src/indexing/drain/outboxDrain.ts) — or, for a v1 change message an earlier deploy left on the
 * queue, reconciles each employee it names (src/indexing/employeeIndex/indexMaintenance.ts) — so
 * the inter-partition index (`EmployeeIndex`) and the organisation-wide last-name index match the
 * primary entities, and removes the photos of employees that are gone.
 */
// First: telemetry starts before anything it instruments is loaded (functions/shared/startup.ts).
import './shared/startup';
import { app, type InvocationContext } from '@azure/functions';
import { settingOrDefault } from '../src/config';
import { handleIndexUpdateMessage } from '../src/indexing';
import { withServices } from './shared/services';
import { dequeueCount, inMessageTrace } from './shared/queuePayload';

/**
 * Handles one message.
 *
 * @throws for a malformed message or a storage fault (the host retries, then poisons).
 */
export const indexUpdatesWorker = withServices(
  (s) => ({ queueName: s.config().queues.indexUpdates, drains: s.indexDrains() }),
  async ({ queueName, drains }, queueEntry: unknown, context: InvocationContext): Promise<void> => {
    const outcome = await inMessageTrace(queueName, queueEntry, (payload) =>
      handleIndexUpdateMessage(drains, payload, { redelivered: dequeueCount(context) > 1 }),
    );
    // A department frozen by a relocation was nudged again for after the wait (not a failure).
    const waiting = outcome.waiting
      ? `; relocating, asked again: ${outcome.waiting.join(', ')}`
      : '';
    context.log(
      `Indexed ${outcome.employees} employees (${outcome.gone} gone)${waiting}, delivery ${dequeueCount(context)}.`,
    );
  },
);

app.storageQueue('indexUpdates', {
  queueName: settingOrDefault((config) => config.queues.indexUpdates),
  connection: 'AzureWebJobsStorage',
  handler: indexUpdatesWorker,
});
