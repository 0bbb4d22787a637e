/**
 * Reviews bound to their employee: a review is written in one transaction with a Merge of its
 * employee (conditional on the employee's ETag) that lists its year, so a review can neither
 * outlive nor precede its employee, and a delete takes exactly the reviews the employee lists —
 * in transactions of at most 100 operations when there are many, reviews first, employee last.
 */
import { odata, type TableClient } from '@azure/data-tables';
import { MAX_REVIEWS_WITH_EMPLOYEE } from '../../../../src/directory/employees/reviewTrims';
import { MAX_TRANSACTION_OPERATIONS } from '../../../../src/storage/tables/entityGroupTransaction';
import { PreconditionFailedError } from '../../../../src/domainErrors';
import { deletesEntity, holdFirstBatch } from '../../../support/batchGate';
import { holdFirstRequest, writesRow } from '../../../support/requestGate';
import { createDirectoryFixture, employeeBody, type DirectoryFixture } from '../fixture';

let fx: DirectoryFixture;
beforeEach(async () => {
  fx = createDirectoryFixture();
  await fx.directory.departments.put('Ops', {});
  await fx.directory.employees.create('Ops', employeeBody(1));
});
afterEach(() => fx.cleanup());

const rating = { managerRating: 3, peerRating: 4 };

async function reviewRowKeys(table: TableClient, employeeId: string): Promise<string[]> {
  const rowKeys: string[] = [];
  for await (const e of table.listEntities({
    queryOptions: { filter: odata`PartitionKey eq 'Ops' and RowKey ge ${`review_${employeeId}_`}` },
  })) {
    if (e.rowKey?.startsWith(`review_${employeeId}_`)) rowKeys.push(e.rowKey);
  }
  return rowKeys;
}

/** Counts the operations of every `$batch` the client sends (changeset parts). */
function countBatchSizes(table: TableClient): number[] {
  const sizes: number[] = [];
  table.pipeline.addPolicy({
    name: `batchSizes-${Math.random().toString(36).slice(2)}`,
    async sendRequest(request, next) {
      if (/\/\$batch(\?|$)/.test(request.url) && typeof request.body === 'string') {
        sizes.push(request.body.split('\r\n').filter((line) => / HTTP\/1\.1$/.test(line)).length);
      }
      return next(request);
    },
  });
  return sizes;
}

async function putYears(employeeId: string, years: readonly number[]): Promise<void> {
  for (const year of years) {
    await fx.directory.reviews.put('Ops', employeeId, year, { ...rating, comments: `${year}` });
  }
}

it('a review PUT that reads the employee before a delete and writes after it stores nothing', async () => {
  // The PUT has read the employee; its write is held; the employee is deleted meanwhile. The
  // write must not land: the review would be an orphan that the next employee 000001 inherits.
  const gate = holdFirstRequest(fx.table, writesRow('review_000001_2024'));
  const putting = fx.directory.reviews.put('Ops', '000001', 2024, rating);
  await gate.reached;
  await fx.another().employees.delete('Ops', '000001');
  gate.release();

  await expect(putting).rejects.toMatchObject({ code: 'EmployeeNotFound' });
  expect(await reviewRowKeys(fx.table, '000001')).toEqual([]);
  await fx.directory.employees.create('Ops', employeeBody(1, { firstName: 'Someone else' }));
  expect((await fx.directory.reviews.list('Ops', '000001')).items).toEqual([]);
});

it("a review written between a delete's read and its transaction is deleted with the employee", async () => {
  await putYears('000001', [2020]);
  const gate = holdFirstBatch(fx.table, deletesEntity('Ops', 'empid_000001'));
  const deleting = fx.directory.employees.delete('Ops', '000001');
  await gate.reached;
  await fx.another().reviews.put('Ops', '000001', 2024, rating);
  gate.release();

  expect((await deleting).deleted).toBe(true);
  expect(await reviewRowKeys(fx.table, '000001')).toEqual([]);
});

it('a DELETE with If-Match from before a review write still deletes (the data did not change)', async () => {
  const { etag } = await fx.directory.employees.get('Ops', '000001');
  await putYears('000001', [2021, 2022]);
  expect((await fx.directory.employees.get('Ops', '000001')).etag).not.toBe(etag);
  // PATCH with the pre-review ETag works too, and answers the new ETag.
  const patched = await fx.directory.employees.patch(
    'Ops',
    '000001',
    { firstName: 'Jo' },
    { ifMatch: etag },
  );
  await expect(
    fx.directory.employees.delete('Ops', '000001', { ifMatch: etag }),
  ).rejects.toBeInstanceOf(PreconditionFailedError);
  await putYears('000001', [2023]);
  expect(
    (await fx.directory.employees.delete('Ops', '000001', { ifMatch: patched.etag })).deleted,
  ).toBe(true);
  expect(await reviewRowKeys(fx.table, '000001')).toEqual([]);
});

it('re-created employees never have reviews', async () => {
  for (let round = 0; round < 3; round++) {
    await putYears('000001', [2020, 2021, 2022 + round]);
    await fx.directory.employees.delete('Ops', '000001');
    await fx.directory.employees.create('Ops', employeeBody(1));
    expect((await fx.directory.reviews.list('Ops', '000001')).items).toEqual([]);
    expect(await reviewRowKeys(fx.table, '000001')).toEqual([]);
  }
});

it('deletes 150 reviews in transactions of at most 100, reviews first; a crash between leaves no orphan', async () => {
  const years = Array.from({ length: 150 }, (_, i) => 1950 + i);
  await putYears('000001', years);
  await fx.directory.employees.create('Ops', employeeBody(2));
  await putYears('000002', [2024]);

  // A crash after the first chunk: the second transaction never reaches storage.
  const crashing = fx.another();
  let crashTest = true;
  let batches = 0;
  fx.table.pipeline.addPolicy({
    name: 'crashAfterFirstChunk',
    async sendRequest(request, next) {
      if (/\/\$batch(\?|$)/.test(request.url) && ++batches === 2 && crashTest) {
        throw new Error('crash after the first chunk');
      }
      return next(request);
    },
  });
  await expect(crashing.employees.delete('Ops', '000001')).rejects.toThrow('crash');
  crashTest = false;
  // Fewer reviews, each listed by the employee; nothing else touched.
  // The first transaction took as many reviews as the budget leaves beside the employee's merge.
  const trimmed = MAX_TRANSACTION_OPERATIONS - 1;
  const left = await reviewRowKeys(fx.table, '000001');
  expect(left).toHaveLength(150 - trimmed);
  expect((await fx.directory.reviews.list('Ops', '000001')).items.map((r) => r.year)).toEqual(
    years.slice(trimmed),
  );
  expect((await fx.directory.employees.get('Ops', '000001')).value.firstName).toBe('First000001');

  const sizes = countBatchSizes(fx.table);
  await putYears('000001', years.slice(0, 60)); // back to 111 reviews
  sizes.length = 0;
  expect((await fx.directory.employees.delete('Ops', '000001')).deleted).toBe(true);
  expect(sizes.length).toBe(2);
  expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
  expect(await reviewRowKeys(fx.table, '000001')).toEqual([]);
  // Another employee's reviews are not touched.
  expect(await reviewRowKeys(fx.table, '000002')).toEqual(['review_000002_2024']);
  await fx.directory.employees.create('Ops', employeeBody(1));
  expect((await fx.directory.reviews.list('Ops', '000001')).items).toEqual([]);
});

it('a PATCH with If-Match survives a review written between its read and its transaction', async () => {
  const { etag } = await fx.directory.employees.get('Ops', '000001');
  const gate = holdFirstBatch(fx.table, (body) => body.includes('"FirstName":"Joanna"'));
  const patching = fx.directory.employees.patch(
    'Ops',
    '000001',
    { firstName: 'Joanna' },
    { ifMatch: etag },
  );
  await gate.reached;
  await fx.another().reviews.put('Ops', '000001', 2024, rating);
  gate.release();

  const patched = await patching;
  expect(patched.value.firstName).toBe('Joanna');
  expect((await fx.directory.employees.get('Ops', '000001')).etag).toBe(patched.etag);
  expect((await fx.directory.reviews.list('Ops', '000001')).items.map((r) => r.year)).toEqual([
    2024,
  ]);
  // The review list survived the PATCH's Replace: a delete still takes the review.
  await fx.directory.employees.delete('Ops', '000001');
  expect(await reviewRowKeys(fx.table, '000001')).toEqual([]);
});

it('deletes a manager with as many reviews as fit, and the index outbox row, in one transaction of 100', async () => {
  const outboxed = createDirectoryFixture({ outbox: true });
  try {
    const { directory, table } = outboxed;
    await directory.departments.put('Ops', {});
    await directory.employees.create('Ops', employeeBody(1));
    await directory.departments.setManager('Ops', '000001');
    const years = Array.from({ length: MAX_REVIEWS_WITH_EMPLOYEE }, (_, i) => 1950 + i);
    for (const year of years) await directory.reviews.put('Ops', '000001', year, rating);
    const sizes = countBatchSizes(table);
    expect((await directory.employees.delete('Ops', '000001')).deleted).toBe(true);
    // Employee, email copy, count shard, department (manager copy), last-name index entity,
    // outbox row and every review, in one transaction: the budget (100 less the relocation
    // fence's 2) less the one operation an archive's removal adds (its receipt).
    expect(sizes).toEqual([MAX_TRANSACTION_OPERATIONS - 1]);
    const rowKeys: string[] = [];
    for await (const e of table.listEntities({
      queryOptions: { filter: odata`PartitionKey eq 'Ops'` },
    })) {
      rowKeys.push(String(e.rowKey));
    }
    expect(rowKeys.filter((k) => k.startsWith('review_') || k.startsWith('empid_'))).toEqual([]);
    // The create's and the delete's (a manager change or a review changes no index: no row).
    expect(rowKeys.filter((k) => k.startsWith('outbox_000001_'))).toHaveLength(2);
  } finally {
    await outboxed.cleanup();
  }
});
