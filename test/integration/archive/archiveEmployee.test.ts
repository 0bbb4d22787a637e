/**
 * Archiving as an eventually consistent transaction: a crash after any step, followed by a
 * redelivery, ends with exactly one archived copy and nothing left in the directory or indexes.
 */
import {
  archiveEmployee,
  getArchivedEmployee,
  type ArchiveStep,
} from '../../../src/archive/archiveEmployee';
import type { EmployeeChange } from '../../../src/directory/changes';
import { createDirectory } from '../../../src/directory/directory';
import { incarnationOf } from '../../../src/directory/entities';
import { queueChangeSink } from '../../../src/indexing/queue/queueChangeSink';
import { MAX_TRANSACTION_OPERATIONS } from '../../../src/storage/tables/entityGroupTransaction';
import { parseArchiveRowKey } from '../../../src/storage/keys/tables/archive';
import { deletesEntity, holdFirstBatch } from '../../support/batchGate';
import { testClients } from '../../support/storage';
import { createIndexingFixture, type IndexingFixture } from '../indexing/fixture';

let fx: IndexingFixture;
beforeEach(async () => {
  fx = createIndexingFixture();
  await fx.directory.departments.put('Sales', {});
  await fx.directory.employees.create('Sales', {
    employeeId: '000223',
    firstName: 'Jo',
    lastName: 'Jones',
    email: 'jo@contoso.com',
  });
  await fx.directory.reviews.put('Sales', '000223', 2024, {
    managerRating: 4,
    peerRating: 5,
    comments: 'good',
  });
  await fx.drain();
});
afterEach(() => fx.cleanup());

const deps = () => ({
  employees: fx.stores.employees,
  archive: fx.clients.table(fx.names.archive),
  directory: fx.directory.employees,
});

/** The one archive record of a `Employees` row key of Sales (whatever its incarnation). */
async function archivedEntity(rowKey: string): Promise<Record<string, unknown>> {
  const found = [];
  for await (const e of fx.clients.table(fx.names.archive).listEntities()) {
    if (parseArchiveRowKey(e.rowKey ?? '').rowKey === rowKey) found.push(e);
  }
  expect(found).toHaveLength(1);
  return found[0]!;
}

async function expectArchivedOnce(): Promise<void> {
  const archived = [];
  for await (const e of fx.clients.table(fx.names.archive).listEntities()) {
    archived.push(parseArchiveRowKey(e.rowKey ?? '').rowKey);
  }
  expect(archived.sort()).toEqual(['empid_000223', 'review_000223_2024']);
  await expect(fx.directory.employees.get('Sales', '000223')).rejects.toThrow(/not/i);
  const rowKeys = async (): Promise<(string | undefined)[]> => {
    const all = [];
    for await (const e of fx.stores.employees.listEntities()) all.push(e.rowKey);
    return all.filter((rowKey) => rowKey?.includes('000223'));
  };
  // The receipt of the removal stays: the evidence a later replay settles on.
  const isReceipt = (rowKey: string | undefined): boolean =>
    rowKey?.startsWith('archived_000223.') === true;
  expect((await rowKeys()).filter(isReceipt)).toHaveLength(1);
  const left = async () => (await rowKeys()).filter((rowKey) => !isReceipt(rowKey));
  // Only the index outbox row of the removal, until the index worker drains it.
  expect((await left()).every((rowKey) => rowKey?.startsWith('outbox_000223_'))).toBe(true);
  expect((await fx.directory.departments.get('Sales')).value.employeeCount).toBe(0);
  await fx.drain();
  expect(await left()).toEqual([]);
  expect(await fx.drift()).toEqual([]);
  expect(await fx.stores.lastNames.members('jones')).toEqual([]);
}

it.each<ArchiveStep | 'beforeAck'>(['read', 'archived', 'removed', 'beforeAck'])(
  'a crash after step "%s" and a redelivery leave one archived copy and nothing else',
  async (crashAfter) => {
    const crash = (step: ArchiveStep) => {
      if (step === crashAfter) throw new Error(`crash after ${step}`);
    };
    if (crashAfter === 'beforeAck') {
      // The whole sequence ran but the message was not deleted: it is delivered again.
      expect((await archiveEmployee(deps(), 'Sales', '000223')).outcome).toBe('archived');
    } else {
      await expect(
        archiveEmployee(deps(), 'Sales', '000223', { afterStep: crash }),
      ).rejects.toThrow('crash');
    }
    const replay = await archiveEmployee(deps(), 'Sales', '000223');
    expect(replay.outcome).toBe(
      crashAfter === 'removed' || crashAfter === 'beforeAck' ? 'alreadyArchived' : 'archived',
    );
    expect((await archiveEmployee(deps(), 'Sales', '000223')).outcome).toBe('alreadyArchived');
    await expectArchivedOnce();
  },
);

it('archives the newer version when the employee changes between read and delete', async () => {
  let patched = false;
  const result = await archiveEmployee(deps(), 'Sales', '000223', {
    afterStep: async (step) => {
      if (step === 'archived' && !patched) {
        patched = true;
        await fx.directory.employees.patch('Sales', '000223', { firstName: 'Joanna' });
      }
    },
  });
  expect(result).toEqual(expect.objectContaining({ outcome: 'archived' }));
  expect((await archivedEntity('empid_000223')).FirstName).toBe('Joanna');
});

it("archives the PATCH that lands between the delete's read and its transaction", async () => {
  // The delete has checked the version and planned its transaction; the PATCH commits before the
  // transaction reaches storage. The delete's ETag then no longer matches: nothing is removed and
  // the sequence archives the patched version.
  const gate = holdFirstBatch(fx.stores.employees, deletesEntity('Sales', 'empid_000223'));
  const archiving = archiveEmployee(deps(), 'Sales', '000223');
  await gate.reached;
  await fx.directory.employees.patch('Sales', '000223', { firstName: 'Joanna' });
  gate.release();

  expect(await archiving).toEqual(expect.objectContaining({ outcome: 'archived' }));
  expect((await archivedEntity('empid_000223')).FirstName).toBe('Joanna');
  await expectArchivedOnce();
});

it("archives a review rewritten between the delete's read and its transaction", async () => {
  const gate = holdFirstBatch(fx.stores.employees, deletesEntity('Sales', 'empid_000223'));
  const archiving = archiveEmployee(deps(), 'Sales', '000223');
  await gate.reached;
  await fx.directory.reviews.put('Sales', '000223', 2024, {
    managerRating: 9,
    peerRating: 9,
    comments: 'revised',
  });
  gate.release();

  expect(await archiving).toEqual(expect.objectContaining({ outcome: 'archived' }));
  expect((await archivedEntity('review_000223_2024')).Comments).toBe('revised');
  await expectArchivedOnce();
});

it('reports notFound for an employee in neither table', async () => {
  expect((await archiveEmployee(deps(), 'Sales', '000999')).outcome).toBe('notFound');
});

it('nudges again on a replay after a crash between the delete and its nudge', async () => {
  // As the queue trigger wires it: the removal's outbox row is in the delete's own transaction;
  // only the nudge that would make the worker drain it is lost.
  const changes = queueChangeSink(fx.clients.queue(fx.names.queue));
  const lost: EmployeeChange[] = [];
  const crashingDirectory = createDirectory({
    employees: fx.stores.employees,
    changes: {
      outbox: true,
      publish: async (batch) => {
        lost.push(...batch);
        throw new Error('crash before the nudge');
      },
    },
  });
  await expect(
    archiveEmployee(
      { ...deps(), directory: crashingDirectory.employees, changes },
      'Sales',
      '000223',
    ),
  ).rejects.toThrow('crash');
  expect(lost).toEqual([expect.objectContaining({ reason: 'archived' })]);
  expect(await fx.drain()).toBe(0); // no nudge reached the queue: the outbox row waits
  expect(await fx.drift()).not.toEqual([]);

  const replay = await archiveEmployee({ ...deps(), changes }, 'Sales', '000223');
  expect(replay.outcome).toBe('alreadyArchived');
  await changes.settled(); // the replay's nudge, which the write does not wait for
  await expectArchivedOnce();
});

it('archives 150 reviews: deleted in transactions of at most 100 after the copy; a crash between chunks loses none', async () => {
  // 2024 plus 149 more: too many for the employee's own transaction, so the directory deletes
  // them first in chunks (each conditional on the employee, trimming its review list), then the
  // employee. A crash after the first chunk leaves an employee with fewer reviews, all archived.
  const years = Array.from({ length: 150 }, (_, i) => 1950 + i).filter((year) => year !== 2024);
  for (const year of years) {
    await fx.directory.reviews.put('Sales', '000223', year, { managerRating: 3, peerRating: 3 });
  }
  const crashingClient = fx.clients.table(fx.names.employees);
  let batches = 0;
  const sizes: number[] = [];
  crashingClient.pipeline.addPolicy({
    name: 'crashAfterFirstChunk',
    async sendRequest(request, next) {
      if (/\/\$batch(\?|$)/.test(request.url) && typeof request.body === 'string') {
        sizes.push(request.body.split('\r\n').filter((line) => / HTTP\/1\.1$/.test(line)).length);
        if (++batches === 2) throw new Error('crash after the first chunk');
      }
      return next(request);
    },
  });
  const crashingDirectory = createDirectory({ employees: crashingClient });
  await expect(
    archiveEmployee(
      { ...deps(), employees: crashingClient, directory: crashingDirectory.employees },
      'Sales',
      '000223',
    ),
  ).rejects.toThrow('crash');
  // The trim (Merge + the budget's other deletes: 100 less the relocation fence's 2), then the
  // employee's own (4 operations, the archive's receipt and the reviews left).
  const trimmed = MAX_TRANSACTION_OPERATIONS - 1;
  expect(sizes).toEqual([MAX_TRANSACTION_OPERATIONS, 4 + 1 + (150 - trimmed)]);
  const reviewsLeft = async (): Promise<number> => {
    let count = 0;
    for await (const e of fx.stores.employees.listEntities()) {
      if (e.rowKey?.startsWith('review_000223_')) count++;
    }
    return count;
  };
  expect(await reviewsLeft()).toBe(150 - trimmed);
  expect((await fx.directory.reviews.list('Sales', '000223')).items).toHaveLength(150 - trimmed);
  const archivedReviews = async (): Promise<number> => {
    let count = 0;
    for await (const e of fx.clients.table(fx.names.archive).listEntities()) {
      if (e.rowKey?.startsWith('review_000223_')) count++;
    }
    return count;
  };
  expect(await archivedReviews()).toBe(150);

  expect((await archiveEmployee(deps(), 'Sales', '000223')).outcome).toBe('archived');
  expect(await reviewsLeft()).toBe(0);
  expect(await archivedReviews()).toBe(150);
  await fx.drain();
  expect(await fx.drift()).toEqual([]);
  await fx.directory.employees.create('Sales', {
    employeeId: '000223',
    firstName: 'New',
    lastName: 'Person',
    email: 'new@contoso.com',
  });
  expect((await fx.directory.reviews.list('Sales', '000223')).items).toEqual([]);
});

describe('the archive holds the last acknowledged version, or the request is superseded', () => {
  /** Every archive record of 000223 (employee and reviews, any incarnation). */
  async function archiveRecords(): Promise<string[]> {
    const rowKeys: string[] = [];
    for await (const e of fx.clients.table(fx.names.archive).listEntities()) {
      if (e.rowKey?.includes('000223')) rowKeys.push(parseArchiveRowKey(e.rowKey).rowKey);
    }
    return rowKeys.sort();
  }

  /**
   * The archive's directory over its own client, on which `afterRefusedDelete` runs once, right
   * after storage answered the sequence's first delete transaction of 000223 with 412.
   */
  function directoryWithHook(afterRefusedDelete: () => Promise<void>) {
    const client = testClients().table(fx.names.employees); // its own pipeline
    let done = false;
    client.pipeline.addPolicy({
      name: 'afterRefusedDelete',
      async sendRequest(request, next) {
        const response = await next(request);
        const body = typeof request.body === 'string' ? request.body : '';
        if (!done && /\/\$batch(\?|$)/.test(request.url) && isDelete(body)) {
          const refused = /HTTP\/1\.1 412/.test(response.bodyAsText ?? '');
          if (refused) {
            done = true;
            await afterRefusedDelete();
          }
        }
        return response;
      },
    });
    return {
      ...deps(),
      employees: client,
      directory: createDirectory({ employees: client }).employees,
    };
  }
  const isDelete = deletesEntity('Sales', 'empid_000223');

  it('V1 copied, a PATCH makes its delete 412, the employee deleted before the retry round: superseded', async () => {
    // The path: the delete answers 412 (the directory's re-read finds V2, not the version
    // copied); the client's DELETE lands before the next round reads the employee again — the
    // third point read of it (the round's, the delete's re-read, the next round's).
    const employees = testClients().table(fx.names.employees); // its own pipeline
    let reads = 0;
    employees.pipeline.addPolicy({
      name: 'deleteBeforeTheRetryRound',
      async sendRequest(request, next) {
        const url = decodeURIComponent(request.url);
        if (
          request.method === 'GET' &&
          url.includes("(PartitionKey='Sales',RowKey='empid_000223')")
        ) {
          if (++reads === 3) await fx.directory.employees.delete('Sales', '000223');
        }
        return next(request);
      },
    });
    const dependencies = {
      ...deps(),
      employees,
      directory: createDirectory({ employees }).employees,
    };
    // As the queue message names it.
    const incarnation = incarnationOf(await fx.stores.employees.getEntity('Sales', 'empid_000223'));
    let patched = false;
    const result = await archiveEmployee(dependencies, 'Sales', '000223', {
      incarnation,
      afterStep: async (step) => {
        if (step === 'archived' && !patched) {
          patched = true;
          await fx.directory.employees.patch('Sales', '000223', { firstName: 'V2' });
        }
      },
    });

    expect(reads).toBeGreaterThanOrEqual(3);
    expect(result).toMatchObject({ outcome: 'superseded' });
    // V1 is not the employee's last version (V2 was answered 200, then deleted): not archived.
    expect(await archiveRecords()).toEqual([]);
    await expect(getArchivedEmployee(deps().archive, 'Sales', '000223')).rejects.toMatchObject({
      code: 'ArchivedEmployeeNotFound',
    });
    // A redelivery of the message says the same.
    expect(await archiveEmployee(deps(), 'Sales', '000223', { incarnation })).toEqual(result);
  });

  it('V1 copied, its delete transaction answered 412, the employee deleted at once: superseded', async () => {
    let patched = false;
    const dependencies = directoryWithHook(async () => {
      // Right after the refused transaction, before the directory's delete reads again.
      await fx.directory.employees.delete('Sales', '000223');
    });
    const result = await archiveEmployee(dependencies, 'Sales', '000223', {
      afterStep: async (step) => {
        if (step === 'archived' && !patched) {
          patched = true;
          await fx.directory.employees.patch('Sales', '000223', { firstName: 'V2' });
        }
      },
    });

    expect(result).toMatchObject({ outcome: 'superseded' });
    expect(await archiveRecords()).toEqual([]);
  });

  it('the same with a crash after the 412: the replay finds no receipt and says superseded', async () => {
    let patched = false;
    const dependencies = directoryWithHook(async () => {
      throw new Error('crash after the refused delete');
    });
    await expect(
      archiveEmployee(dependencies, 'Sales', '000223', {
        afterStep: async (step) => {
          if (step === 'archived' && !patched) {
            patched = true;
            await fx.directory.employees.patch('Sales', '000223', { firstName: 'V2' });
          }
        },
      }),
    ).rejects.toThrow('crash');
    await fx.directory.employees.delete('Sales', '000223');

    expect((await archiveEmployee(deps(), 'Sales', '000223')).outcome).toBe('superseded');
    expect(await archiveRecords()).toEqual([]);
  });

  it('a PATCH and a DELETE between the copy and its delete transaction: superseded', async () => {
    // The sequence's delete finds the employee gone (404): deleted by someone else, after a version
    // the archive does not hold.
    const gate = holdFirstBatch(fx.stores.employees, isDelete);
    const archiving = archiveEmployee(deps(), 'Sales', '000223');
    await gate.reached;
    await fx.directory.employees.patch('Sales', '000223', { firstName: 'V2' });
    await fx.directory.employees.delete('Sales', '000223');
    gate.release();

    expect(await archiving).toMatchObject({ outcome: 'superseded' });
    expect(await archiveRecords()).toEqual([]);
  });

  it('a slower run of the same request never replaces the newer version another run archived', async () => {
    // Run A reads V1 and pauses; a PATCH makes V2, which run B archives to the end; A's copy of
    // V1 must not replace B's record of V2.
    let pause!: () => void;
    const paused = new Promise<void>((resolve) => (pause = resolve));
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    let first = true;
    const runA = archiveEmployee(deps(), 'Sales', '000223', {
      afterStep: async (step) => {
        if (step === 'read' && first) {
          first = false;
          pause();
          await resumed;
        }
      },
    });
    await paused;
    await fx.directory.employees.patch('Sales', '000223', { firstName: 'V2' });
    expect((await archiveEmployee(deps(), 'Sales', '000223')).outcome).toBe('archived');
    resume();

    expect((await runA).outcome).toBe('alreadyArchived');
    expect((await archivedEntity('empid_000223')).FirstName).toBe('V2');
    await expectArchivedOnce();
  });
});
