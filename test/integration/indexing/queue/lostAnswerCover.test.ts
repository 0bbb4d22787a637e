/**
 * Nothing stranded when a create's answer is lost (issue #45, "Nothing stranded"): storage applies
 * the create's transaction but every try's answer is lost (a saturated emulator past the SDK's try
 * timeouts), so the create fails with a storage fault after its commit. Its outbox row is there
 * all the same, and before the fix nothing was sent for it: no cover, no marker — the row waited
 * for the sweep (now the hourly walk). The create must still publish its change's cover.
 */
import { odata, RestError } from '@azure/data-tables';
import { createDirectory } from '../../../../src/directory/directory';
import { queueChangeSink } from '../../../../src/indexing/queue/queueChangeSink';
import { outboxRowKeyRange } from '../../../../src/storage/keys/tables/outbox';
import { createIndexingFixture, employeeBody as body, type IndexingFixture } from '../fixture';

let fx: IndexingFixture;
beforeEach(() => {
  fx = createIndexingFixture();
});
afterEach(() => fx.cleanup());

it('sends the cover of a create whose transaction committed but whose every answer was lost', async () => {
  await fx.directory.departments.put('Sales', {});
  const queue = fx.clients.queue(fx.names.queue);
  const sink = queueChangeSink(queue, { nudgeDelaySeconds: 1 });
  const employees = fx.clients.table(fx.names.employees);
  // Inside the retry loop: each try of a transaction reaches storage, then its answer is lost.
  employees.pipeline.addPolicy(
    {
      name: 'loseBatchAnswers',
      async sendRequest(request, next) {
        const response = await next(request);
        if (request.method === 'POST' && request.url.includes('$batch')) {
          throw new RestError('socket hang up', { code: 'ECONNRESET', request });
        }
        return response;
      },
    },
    { afterPhase: 'Retry' },
  );
  const directory = createDirectory({ employees, changes: sink });

  await expect(directory.employees.create('Sales', body(1))).rejects.toBeDefined();
  await sink.settled();

  const range = outboxRowKeyRange();
  const rows = [];
  for await (const row of fx.stores.employees.listEntities({
    queryOptions: {
      filter: odata`PartitionKey eq ${'Sales'} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
    },
  })) {
    rows.push(row.rowKey);
  }
  // Committed, with its outbox row...
  expect(rows).toHaveLength(1);
  // ...and covered: a message that surfaces after the commit names the department.
  await queue.createIfNotExists();
  const peeked = await queue.getProperties();
  expect(peeked.approximateMessagesCount).toBe(1);
});
