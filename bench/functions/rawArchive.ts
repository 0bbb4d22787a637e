/**
 * The archive bench's fair baseline (bench/cases/archive.ts): a queue trigger on the archive
 * queue that runs the raw three steps per message — read the employee, upsert it into the archive
 * table, delete employee + email copy in one transaction — with none of the pattern's guards. It
 * runs in the same built host as `archiveEmployee` (functions/archive.ts), with the same
 * settings, clients and message trace, driven by the same messages, so the comparison isolates
 * the pattern's own cost. Bench only: the app loads `dist/functions/*.js`, never this file.
 */
// First, as in every entry point: telemetry starts before what it instruments is loaded.
import '../../functions/shared/startup';
import { app } from '@azure/functions';
import { parseArchiveRequest } from '../../src/archive/archiveRequests';
import { settingOrDefault } from '../../src/config';
import {
  departmentPartitionKey,
  emailRowKey,
  employeeRowKey,
} from '../../src/storage/keys/tables/employees';
import { withServices } from '../../functions/shared/services';
import { inMessageTrace } from '../../functions/shared/queuePayload';

/**
 * Read, upsert into the archive, delete (employee + email copy): three requests per message.
 *
 * @throws for a malformed message or a failed step (the host retries, then poisons).
 */
export const rawArchiveWorker = withServices(
  (s) => ({ queueName: s.config().queues.archive, tables: s.archive() }),
  async ({ queueName, tables }, queueEntry: unknown): Promise<void> => {
    await inMessageTrace(queueName, queueEntry, async (payload) => {
      const message = parseArchiveRequest(payload);
      const partitionKey = departmentPartitionKey(message.department);
      const rowKey = employeeRowKey(message.employeeId);
      const current = await tables.employees.getEntity<Record<string, unknown>>(
        partitionKey,
        rowKey,
      );
      const { etag: _etag, timestamp: _timestamp, ...properties } = current;
      await tables.archive.upsertEntity(
        { ...properties, partitionKey, rowKey, ArchivedAt: new Date() },
        'Replace',
      );
      await tables.employees.submitTransaction([
        ['delete', { partitionKey, rowKey }],
        ['delete', { partitionKey, rowKey: emailRowKey(String(current.Email)) }],
      ]);
    });
  },
);

app.storageQueue('rawArchiveEmployee', {
  queueName: settingOrDefault((config) => config.queues.archive),
  connection: 'AzureWebJobsStorage',
  handler: rawArchiveWorker,
});
