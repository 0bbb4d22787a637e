/**
 * The orderings the drain's safety argument rests on (docs/queues.md, "Why a drain never loses an
 * update"), each pinned by a scenario that goes wrong without it:
 *
 * - a round reads the targets (fences, entries, member lists) BEFORE the sources
 *   (src/indexing/drain/outboxDrainSnapshot.ts `takeSnapshot`): a drainer that read its sources, then
 *   paused while another drained a newer change, must not write its older sources under fences
 *   it read after that change;
 * - every member list a round touches is written, changed or not: the write is the list's fence.
 */
import type { TableClient } from '@azure/data-tables';
import { drainOutbox } from '../../../../src/indexing/drain/outboxDrain';
import {
  createIndexingFixture,
  employeeBody as body,
  pauseAfter,
  type IndexingFixture,
} from '../fixture';

/**
 * Holds the answer of the next request on `table` after `arm()`, once storage has answered it,
 * until `release()`: the caller has read, and has not yet gone on.
 */
function holdNextAnswer(table: TableClient): {
  arm(): void;
  reached: Promise<void>;
  release(): void;
} {
  let armed = false;
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  table.pipeline.addPolicy({
    name: `holdNextAnswer-${Math.random().toString(36).slice(2)}`,
    async sendRequest(request, next) {
      const response = await next(request);
      if (armed) {
        armed = false;
        reached();
        await released;
      }
      return response;
    },
  });
  return { arm: () => (armed = true), reached: reachedPromise, release: () => release() };
}

describe.each(['entity', 'blob'] as const)('drain orderings with last-name mode %s', (mode) => {
  let fx: IndexingFixture;
  beforeEach(async () => {
    fx = createIndexingFixture({ mode });
    await fx.directory.departments.put('Sales', {});
  });
  afterEach(() => fx.cleanup());

  it('reads the fences before the sources: a drainer paused after reading its sources cannot write them over a newer drain', async () => {
    await fx.directory.employees.create('Sales', body(1));
    await fx.drain();
    await fx.directory.employees.patch('Sales', '000001', { firstName: 'Second' });

    // Drainer A has read its outbox rows; its next read of the department's partition is its
    // sources (the targets come from the index table and the member lists).
    const afterRows = pauseAfter('read');
    const gate = holdNextAnswer(fx.stores.employees);
    const first = drainOutbox(fx.stores, 'Sales', { afterStep: afterRows.afterStep });
    await afterRows.reached;
    gate.arm();
    afterRows.release();
    await gate.reached; // A's sources say "Second"

    // Meanwhile a newer change is drained to the end by drainer B.
    await fx.directory.employees.patch('Sales', '000001', {
      firstName: 'Third',
      lastName: 'Taylor',
      email: 'third@contoso.com',
    });
    await drainOutbox(fx.stores, 'Sales');
    gate.release();
    await first;

    // A's writes were conditional on fences and lists read before B wrote: they lost, and its
    // next round wrote from current sources. (Sources read first, A would have read the fences
    // B left and written "Second" over them.)
    expect(await fx.drift()).toEqual([]);
    const entry = await fx.stores.index.getEntity<{ FirstName: string }>('empid_Sales', '000001');
    expect(entry.FirstName).toBe('Third');
  });

  it('writes every member list of the round, changed or not', async () => {
    await fx.directory.employees.create('Sales', body(1));
    await fx.drain();
    const before = await fx.stores.lastNames.snapshot('jones');
    expect(before.members).toHaveLength(1);

    const taylorBefore = await fx.stores.lastNames.snapshot('taylor');
    // Changes that name "Jones" and "Taylor" but leave both member lists as they were.
    await fx.directory.employees.patch('Sales', '000001', { lastName: 'Taylor' });
    await fx.directory.employees.patch('Sales', '000001', { lastName: 'Jones' });
    expect(await drainOutbox(fx.stores, 'Sales')).toMatchObject({ rows: 2 });

    const after = await fx.stores.lastNames.snapshot('jones');
    const taylorAfter = await fx.stores.lastNames.snapshot('taylor');
    expect(after.members).toEqual(before.members);
    expect(taylorAfter.members).toEqual([]);
    // Written all the same: a drainer holding an older read of either list now loses its write.
    expect(after.version).not.toEqual(before.version);
    expect(taylorAfter.version).not.toEqual(taylorBefore.version);
    expect(await fx.stores.lastNames.change(before, [], [])).toBeUndefined();
    expect(await fx.stores.lastNames.change(taylorBefore, [], [])).toBeUndefined();
  });
});
