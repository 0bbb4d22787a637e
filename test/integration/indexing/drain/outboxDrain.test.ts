/**
 * The index outbox: every directory write records its index change in its own transaction, and a
 * drain of the department's outbox brings `EmployeeIndex` and the org-wide last-name index to the
 * primary state — after a crash between any two steps of a drain, with rows replayed or
 * duplicated, with a lost nudge (the sweep), and with two drainers of one partition at once, one
 * of them holding a stale read while the other applies a newer change (a pause hook between the
 * steps).
 */
import { odata } from '@azure/data-tables';
import { newDrainCache } from '../../../../src/indexing/drain/drainCache';
import { getEmployeeByEmailEventually } from '../../../../src/indexing/employeeIndex/indexQueries';
import { handleIndexUpdateMessage } from '../../../../src/indexing/queue/indexUpdates';
import { drainOutbox } from '../../../../src/indexing/drain/outboxDrain';
import type { DrainStep } from '../../../../src/indexing/drain/outboxDrainRounds';
import { sweepOutboxes } from '../../../../src/indexing/drain/outboxSweep';
import {
  DEPARTMENT_LIST_PARTITION_KEY,
  departmentListRowKey,
  departmentPartitionKey,
} from '../../../../src/storage/keys/tables/employees';
import {
  emailIndexPartitionKey,
  idIndexPartitionKey,
  INDEX_FENCE_ROW_KEY,
} from '../../../../src/storage/keys/tables/employeeIndex';
import { outboxRowKeyRange } from '../../../../src/storage/keys/tables/outbox';
import {
  createIndexingFixture,
  employeeBody as body,
  pauseAfter,
  type IndexingFixture,
} from '../fixture';

const STEPS: DrainStep[] = ['read', 'snapshot', 'emails', 'ids', 'lastNames', 'deleted'];

describe.each(['entity', 'blob'] as const)('index outbox with last-name mode %s', (mode) => {
  let fx: IndexingFixture;
  beforeEach(async () => {
    fx = createIndexingFixture({ mode });
    await fx.directory.departments.put('Sales', {});
  });
  afterEach(() => fx.cleanup());

  const outboxRows = async (): Promise<string[]> => {
    const range = outboxRowKeyRange();
    const rows: string[] = [];
    for await (const entity of fx.stores.employees.listEntities({
      queryOptions: {
        filter: odata`PartitionKey eq ${departmentPartitionKey('Sales')} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
      },
    })) {
      rows.push(String(entity.rowKey));
    }
    return rows;
  };
  const members = async (lastName: string) =>
    (await fx.stores.lastNames.members(lastName)).map((m) => m.employeeId);
  const byEmail = (email: string) =>
    getEmployeeByEmailEventually(fx.stores.index, 'Sales', email).then(
      (found) => found.value.employeeId,
      () => undefined,
    );

  /** Indexed, then: 1 renamed and moved to another address, 2 deleted, 3 created. */
  const changeThree = async (): Promise<void> => {
    await fx.directory.employees.create('Sales', body(1));
    await fx.directory.employees.create('Sales', body(2));
    await fx.drain();
    await fx.directory.employees.patch('Sales', '000001', {
      lastName: 'Taylor',
      email: 'moved@contoso.com',
    });
    await fx.directory.employees.delete('Sales', '000002');
    await fx.directory.employees.create('Sales', body(3));
  };
  const expectConverged = async (): Promise<void> => {
    expect(await fx.drift()).toEqual([]);
    expect(await outboxRows()).toEqual([]);
    expect(await members('taylor')).toEqual(['000001']);
    expect(await members('jones')).toEqual(['000003']);
    expect(await members('smith')).toEqual([]);
    expect(await byEmail('moved@contoso.com')).toBe('000001');
    expect(await byEmail('u1@contoso.com')).toBeUndefined();
    expect(await byEmail('u2@contoso.com')).toBeUndefined();
    expect(await byEmail('u3@contoso.com')).toBe('000003');
  };

  it('records one outbox row per write, in the write’s own transaction, and drains them all', async () => {
    await changeThree();
    expect(await outboxRows()).toHaveLength(3);
    const result = await drainOutbox(fx.stores, 'Sales');
    expect(result).toMatchObject({ rows: 3, employees: 3, gone: 1, rounds: 1 });
    await expectConverged();
  });

  it.each(STEPS)('converges when a drain crashes after step %s', async (step) => {
    await changeThree();
    await expect(
      drainOutbox(fx.stores, 'Sales', {
        afterStep: (at) => {
          if (at === step) throw new Error('crash');
        },
      }),
    ).rejects.toThrow('crash');
    // Before the rows are deleted, they are all still there for the next drain.
    if (step !== 'deleted') expect(await outboxRows()).toHaveLength(3);
    await drainOutbox(fx.stores, 'Sales');
    await expectConverged();
  });

  it('is harmless to replay: duplicated nudges, a second drain, and an old row written again', async () => {
    await fx.directory.employees.create('Sales', body(1));
    const [oldRow] = await outboxRows();
    const old = await fx.stores.employees.getEntity(departmentPartitionKey('Sales'), oldRow!);
    await fx.drain();
    await fx.directory.employees.patch('Sales', '000001', {
      lastName: 'Taylor',
      email: 'x@c.example',
    });
    await fx.drain();
    // The old row ("created, with u1 and Jones") comes back after the newer change was indexed.
    const { etag: _etag, timestamp: _timestamp, ...copy } = old;
    await fx.stores.employees.upsertEntity(
      { ...copy, partitionKey: departmentPartitionKey('Sales'), rowKey: oldRow! },
      'Replace',
    );
    const nudge = { v: 2, departments: ['Sales'] };
    await handleIndexUpdateMessage(fx.drains, nudge);
    await handleIndexUpdateMessage(fx.drains, nudge);
    expect(await drainOutbox(fx.stores, 'Sales')).toMatchObject({ rows: 0 });
    expect(await fx.drift()).toEqual([]);
    expect(await members('taylor')).toEqual(['000001']);
    expect(await members('jones')).toEqual([]);
    expect(await byEmail('x@c.example')).toBe('000001');
    expect(await byEmail('u1@contoso.com')).toBeUndefined();
  });

  it('drains an outbox whose nudge was lost, through the sweep', async () => {
    await changeThree();
    // The process "died" after its commits, before its nudges: none reaches the worker.
    await fx.clients.queue(fx.names.queue).clearMessages();
    const report = await sweepOutboxes(fx.drains);
    expect(report).toMatchObject({ departments: 1, rows: 3, failed: [] });
    await expectConverged();
  });

  it('sweeps the outbox of a department missing from the listing', async () => {
    await changeThree();
    await fx.clients.queue(fx.names.queue).clearMessages();
    // Its creating PUT failed between the department entity and its listing.
    await fx.stores.employees.deleteEntity(
      DEPARTMENT_LIST_PARTITION_KEY,
      departmentListRowKey('Sales'),
    );
    const report = await sweepOutboxes(fx.drains);
    expect(report).toMatchObject({ departments: 1, rows: 3, failed: [] });
    // Every index caught up, and the listing too: the drain's refresh of the listed count lists
    // the department as its PUT would have (src/directory/departments/listingCount.ts).
    expect(await fx.drift()).toEqual([]);
    expect(await outboxRows()).toEqual([]);
    expect(await members('taylor')).toEqual(['000001']);
  });

  it('writes from the newest state when a drainer holding a stale read resumes after another drained a newer change', async () => {
    await fx.directory.employees.create('Sales', body(1));
    await fx.drain();
    await fx.directory.employees.patch('Sales', '000001', { firstName: 'Second' });
    const stale = pauseAfter('snapshot');
    const first = drainOutbox(fx.stores, 'Sales', { afterStep: stale.afterStep });
    await stale.reached; // it read "Second", u1, Jones
    await fx.directory.employees.patch('Sales', '000001', {
      firstName: 'Third',
      lastName: 'Taylor',
      email: 'third@contoso.com',
    });
    await drainOutbox(fx.stores, 'Sales'); // the newer change, drained to the end
    stale.release();
    await first;
    expect(await fx.drift()).toEqual([]);
    expect(await outboxRows()).toEqual([]);
    expect(await members('taylor')).toEqual(['000001']);
    expect(await members('jones')).toEqual([]);
    expect(await byEmail('u1@contoso.com')).toBeUndefined();
    const entry = await getEmployeeByEmailEventually(fx.stores.index, 'Sales', 'third@contoso.com');
    expect(entry.value.firstName).toBe('Third');
  });

  it('stops a stale drainer from writing after another drainer found nothing to do', async () => {
    // The stale drainer reads employee 2 present; it is then deleted, and another drainer sees
    // nothing to index (no entries, no employee) and deletes both rows. The stale drainer's
    // creates meet no entries to conflict with, but the other drainer wrote the partitions'
    // fences and the member list, so its writes fail and it reads again.
    await fx.directory.employees.create('Sales', body(2));
    const stale = pauseAfter('snapshot');
    const first = drainOutbox(fx.stores, 'Sales', { afterStep: stale.afterStep });
    await stale.reached;
    await fx.directory.employees.delete('Sales', '000002');
    await drainOutbox(fx.stores, 'Sales');
    expect(await outboxRows()).toEqual([]);
    stale.release();
    const result = await first;
    expect(result.rounds).toBeGreaterThan(1);
    expect(await fx.drift()).toEqual([]);
    expect(await members('smith')).toEqual([]);
    expect(await byEmail('u2@contoso.com')).toBeUndefined();
  });

  it.each(['emails', 'ids', 'lastNames'] as const)(
    'leaves nothing stale when that stale drainer crashes right after its %s step',
    async (crashStep) => {
      // As above, but the stale drainer dies after its first writes, and no drain comes after
      // it: whatever it managed to write is all the indexes get. (Before the fences, its creates
      // took effect and only its check of the sources afterwards could undo them.)
      await fx.directory.employees.create('Sales', body(2));
      const stale = pauseAfter('snapshot');
      const first = drainOutbox(fx.stores, 'Sales', {
        afterStep: async (at, round) => {
          await stale.afterStep(at, round);
          if (at === crashStep) throw new Error('crash');
        },
      });
      await stale.reached;
      await fx.directory.employees.delete('Sales', '000002');
      await drainOutbox(fx.stores, 'Sales');
      stale.release();
      await expect(first).rejects.toThrow('crash');
      expect(await outboxRows()).toEqual([]);
      expect(await fx.drift()).toEqual([]);
      expect(await members('smith')).toEqual([]);
      expect(await byEmail('u2@contoso.com')).toBeUndefined();
    },
  );

  it("writes each index partition's fence, even in a round with nothing to change", async () => {
    await fx.directory.employees.create('Sales', body(1));
    const [row] = await outboxRows();
    const {
      etag: _etag,
      timestamp: _timestamp,
      ...replayed
    } = await fx.stores.employees.getEntity(departmentPartitionKey('Sales'), row!);
    await fx.drain();
    const fences = async (): Promise<string[]> =>
      Promise.all(
        [idIndexPartitionKey('Sales'), emailIndexPartitionKey('Sales')].map(
          async (partitionKey) =>
            (await fx.stores.index.getEntity(partitionKey, INDEX_FENCE_ROW_KEY)).etag,
        ),
      );
    const before = await fences();
    // The same row once more: the indexes are current, so the round changes no entry.
    await fx.stores.employees.createEntity({
      ...replayed,
      partitionKey: departmentPartitionKey('Sales'),
      rowKey: row!,
    });
    // Its keys look new, so the first round creates the entries without reading them; the creates
    // fail on the entries there, and the second round reads them and finds them current.
    expect(await drainOutbox(fx.stores, 'Sales')).toMatchObject({ rows: 1, rounds: 2 });
    const after = await fences();
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(await fx.drift()).toEqual([]);
  });

  it('takes a fence from its own last write, and reads it again once another process wrote it', async () => {
    const processA = { ...fx.stores, drainCache: newDrainCache() };
    const processB = { ...fx.stores, drainCache: newDrainCache() };
    let indexReads = 0;
    fx.stores.index.pipeline.addPolicy({
      name: 'countIndexPartitionReads',
      async sendRequest(request, next) {
        const url = decodeURIComponent(request.url);
        if (request.method === 'GET' && /'(empid|email)_Sales'/.test(url)) indexReads++;
        return next(request);
      },
    });
    await fx.directory.employees.create('Sales', body(1));
    await drainOutbox(processA, 'Sales');
    expect(indexReads).toBe(2); // both fences, read once
    // Creates only: process A writes under the fences it got, reading nothing in those partitions.
    await fx.directory.employees.create('Sales', body(3));
    indexReads = 0;
    expect(await drainOutbox(processA, 'Sales')).toMatchObject({ rows: 1, rounds: 1 });
    expect(indexReads).toBe(0);
    // Another process writes the partitions: A's fences are stale, its first round is lost.
    await fx.directory.employees.create('Sales', body(5));
    await drainOutbox(processB, 'Sales');
    await fx.directory.employees.create('Sales', body(7));
    expect(await drainOutbox(processA, 'Sales')).toMatchObject({ rows: 1, rounds: 2 });
    expect(await fx.drift()).toEqual([]);
    expect(await members('jones')).toEqual(['000001', '000003', '000005', '000007']);
  });

  it('drains a long outbox in several rounds, each within its bound of changes', async () => {
    // The bound is the drain's option (500 by default): an import's rows hold ~47 changes each and
    // are taken whole, so rounds of at most 50 changes take one row each, the same as rounds of
    // 500 over an import ten times the size.
    const rows = Array.from({ length: 150 }, (_, i) => body(i + 100, { lastName: `L${i % 9}` }));
    expect((await fx.directory.employees.import('Sales', rows)).created).toBe(150);
    // Its row sorts after the import's: the first rounds are full before it.
    await fx.directory.employees.create('Sales', body(5000));
    const result = await drainOutbox(fx.stores, 'Sales', { maxChangesPerRound: 50 });
    expect(result).toMatchObject({ employees: 151 });
    expect(result.rounds).toBeGreaterThanOrEqual(4);
    expect(await outboxRows()).toEqual([]);
    expect(await members('l3')).toHaveLength(rows.filter((r) => r.lastName === 'L3').length);
    expect(await fx.drift()).toEqual([]);
  });

  it('shares one drain, and one more after it, between six nudges a process handles at once', async () => {
    await changeThree();
    let outboxReads = 0;
    fx.stores.employees.pipeline.addPolicy({
      name: 'countOutboxReads',
      async sendRequest(request, next) {
        if (decodeURIComponent(request.url).includes("RowKey ge 'outbox_'")) outboxReads++;
        return next(request);
      },
    });
    const nudge = { v: 2, departments: ['Sales'] };
    await Promise.all(Array.from({ length: 6 }, () => handleIndexUpdateMessage(fx.drains, nudge)));
    // The first nudge's drain (its check that the outbox holds rows, its round's read), then one
    // drain for the five that came while it ran (its check finds the outbox empty).
    expect(outboxReads).toBe(3);
    await expectConverged();
  });

  it('converges with two drainers of one partition running at once', async () => {
    for (let n = 1; n <= 12; n++) await fx.directory.employees.create('Sales', body(n));
    await fx.drain();
    for (let n = 1; n <= 12; n++) {
      if (n % 3 === 0) await fx.directory.employees.delete('Sales', body(n).employeeId);
      else {
        await fx.directory.employees.patch('Sales', body(n).employeeId, {
          lastName: n % 2 ? 'Smith' : 'Jones',
          email: `v${n}@contoso.com`,
        });
      }
    }
    await Promise.all([drainOutbox(fx.stores, 'Sales'), drainOutbox(fx.stores, 'Sales')]);
    await drainOutbox(fx.stores, 'Sales');
    expect(await outboxRows()).toEqual([]);
    expect(await fx.drift()).toEqual([]);
  });
});
