/**
 * A drain round on an account that answers `ServerBusy` past the SDK's retries
 * (src/indexing/drain/outboxDrain.ts, `patiently`): the refused step is tried again after a
 * back-off, within the round, so the reads before it are not paid again — no second outbox read,
 * no second snapshot — and a refusal that outlasts the step's tries still fails the round with a
 * `ThrottledError`, its rows left in the outbox. The refusals are thrown on the client's own
 * pipeline, outside the SDK's retry policy, as Azure's would be once its retries are spent.
 */
import type { TableClient } from '@azure/data-tables';
import { RestError, type PipelineRequest } from '@azure/core-rest-pipeline';
import { ThrottledError } from '../../../../src/domainErrors';
import { drainOutbox } from '../../../../src/indexing/drain/outboxDrain';
import { outboxRowKeyRange } from '../../../../src/storage/keys/tables/outbox';
import { createIndexingFixture, employeeBody as body, type IndexingFixture } from '../fixture';

let fx: IndexingFixture;
beforeEach(async () => {
  fx = createIndexingFixture();
  await fx.directory.departments.put('Sales', {});
  for (const n of [1, 2, 3]) await fx.directory.employees.create('Sales', body(n));
});
afterEach(() => fx.cleanup());

const isBatch = (request: PipelineRequest) => /\/\$batch(\?|$)/.test(request.url);
const isOutboxRead = (request: PipelineRequest) =>
  request.method === 'GET' &&
  decodeURIComponent(request.url).includes(`RowKey ge '${outboxRowKeyRange().ge}'`);

/**
 * Counts `table`'s requests that `counted` matches, and refuses the first `refusals` that
 * `refused` matches with 503 `ServerBusy`.
 */
function busy(
  table: TableClient,
  refused: (request: PipelineRequest) => boolean,
  refusals: number,
  counted: (request: PipelineRequest) => boolean = () => false,
) {
  const seen = { refused: 0, counted: 0, stop: () => void (refusals = 0) };
  table.pipeline.addPolicy({
    name: `busy-${Math.random().toString(36).slice(2)}`,
    async sendRequest(request, next) {
      if (counted(request)) seen.counted++;
      if (refused(request) && seen.refused < refusals) {
        seen.refused++;
        const error = new RestError('The server is busy.', { statusCode: 503, request });
        error.code = 'ServerBusy';
        throw error;
      }
      return next(request);
    },
  });
  return seen;
}

const noWait = { sleep: async () => undefined };

it('tries a refused outbox delete again within the round, without reading the outbox again', async () => {
  const seen = busy(fx.stores.employees, isBatch, 2, isOutboxRead);
  const result = await drainOutbox(fx.stores, 'Sales', noWait);
  expect(result).toMatchObject({ rows: 3, employees: 3, rounds: 1, complete: true });
  expect(seen).toMatchObject({ refused: 2, counted: 1 });
  expect(await fx.drift()).toEqual([]);
});

it('tries a refused index write again within the round, without reading the outbox again', async () => {
  const reads = busy(fx.stores.employees, () => false, 0, isOutboxRead);
  const seen = busy(fx.stores.index, isBatch, 1);
  const result = await drainOutbox(fx.stores, 'Sales', noWait);
  expect(result).toMatchObject({ rows: 3, rounds: 1, complete: true });
  expect(seen.refused).toBe(1);
  expect(reads.counted).toBe(1);
  expect(await fx.drift()).toEqual([]);
});

it('fails the round once the refusals outlast the step, leaving its rows in the outbox', async () => {
  const seen = busy(fx.stores.employees, isBatch, Infinity);
  await expect(drainOutbox(fx.stores, 'Sales', noWait)).rejects.toBeInstanceOf(ThrottledError);
  expect(seen.refused).toBeGreaterThan(1);
  seen.stop();
  // The indexes were written; the rows stayed, and the next drain deletes them.
  expect(await drainOutbox(fx.stores, 'Sales', noWait)).toMatchObject({ rows: 3, complete: true });
  expect(await fx.drift()).toEqual([]);
});
