/**
 * Counted once: an increment whose answer is lost after storage applied it, while another writer
 * increments before the retry re-reads, is still counted once.
 *
 * Deterministic: a policy on the first writer's TableClient pipeline lets the first `$batch` reach
 * Azurite, waits until it has committed, runs the other writer's whole increment, and only then
 * throws a connection reset in place of the answer. Where the policy sits decides who retries:
 * inside the SDK's retry loop (`perRetry`) the SDK resends the same changeset (412 or 409, since
 * the ETags moved); outside it (`perCall`) the reset reaches `MessageStats`, which starts a new
 * round.
 *
 * And the bounds: an increment that keeps losing stops retrying once its marker could be forgotten
 * (the retry window), rather than risk counting twice; a marker is never forgotten for newer ones
 * within that window; and a day's markers are pruned by the next day's first increment.
 */
import { RestError, type TableClient } from '@azure/data-tables';
import { ThrottledError } from '../../../src/domainErrors';
import { MessageStats } from '../../../src/stats/messageStats';
import {
  MAX_REMEMBERED_INCREMENTS,
  INCREMENT_MEMORY_MS,
  INCREMENT_RETRY_WINDOW_MS,
  rememberIncrement,
} from '../../../src/stats/incrementMarkers';
import { employeePartitionKey } from '../../../src/storage/keys/tables/employeePartitions';
import { hourlyStatsRowKey } from '../../../src/storage/keys/tables/messageStats';
import { testClients, uniqueTableName } from '../../support/storage';

const clients = testClients();

/**
 * Makes `table` lose the answer of its first `$batch` that committed, after running `between`.
 * Returns how many answers it dropped and how many `$batch` tries it saw.
 */
function loseFirstCommittedAnswer(
  table: TableClient,
  position: 'perCall' | 'perRetry',
  between: () => Promise<void>,
): () => { dropped: number; batches: number } {
  let dropped = 0;
  let batches = 0;
  table.pipeline.addPolicy(
    {
      name: `loseFirstCommittedAnswer-${position}`,
      async sendRequest(request, next) {
        const isBatch = request.method === 'POST' && request.url.includes('$batch');
        if (isBatch) batches++;
        const response = await next(request);
        // A batch answers 202 even when its changeset failed: the part statuses are in the body.
        const committed =
          response.status === 202 && !/HTTP\/1\.1 [45]\d\d/.test(response.bodyAsText ?? '');
        if (dropped > 0 || !isBatch || !committed) return response;
        dropped++;
        await between();
        throw new RestError('socket hang up (answer dropped by the test)', {
          code: 'ECONNRESET',
          request,
        });
      },
    },
    // `afterPhase: 'Retry'` runs once per try, inside the SDK's retry loop; no phase runs before it.
    position === 'perRetry' ? { afterPhase: 'Retry' } : {},
  );
  return () => ({ dropped, batches });
}

describe('a retried message-count increment', () => {
  const tableName = uniqueTableName('Once');
  afterAll(() => clients.tableService().deleteTable(tableName));

  const cases = [
    { position: 'perRetry', firstWrite: 'merge' },
    { position: 'perCall', firstWrite: 'merge' },
    { position: 'perRetry', firstWrite: 'create' },
    { position: 'perCall', firstWrite: 'create' },
  ] as const;

  it.each(cases)(
    'is counted once when its answer is lost ($position) and another writer interleaves (first write: $firstWrite)',
    async ({ position, firstWrite }) => {
      const employeeId = `00${cases.findIndex((c) => c.position === position && c.firstWrite === firstWrite)}100`;
      const at = new Date('2026-03-04T05:06:07Z');
      const other = new MessageStats(clients.table(tableName));
      if (firstWrite === 'merge') await other.record('Sales', employeeId, { at, count: 10 });

      const lossy = testClients().table(tableName); // its own pipeline, not the shared client's
      const seen = loseFirstCommittedAnswer(lossy, position, async () => {
        await other.record('Sales', employeeId, { at, count: 100 });
      });
      await new MessageStats(lossy).record('Sales', employeeId, { at });

      // perRetry: the SDK resent the changeset (refused, its ETags moved), then the next round
      // found the marker; perCall: the next round found the marker without sending anything.
      expect(seen()).toEqual({ dropped: 1, batches: position === 'perRetry' ? 2 : 1 });
      const expected = (firstWrite === 'merge' ? 10 : 0) + 100 + 1;
      expect((await other.hourly('Sales', employeeId, at))[5]).toBe(expected);
      expect((await other.daily('Sales', employeeId, 2026))[62]).toBe(expected); // 4 March
    },
  );

  it('stops retrying once its marker could be forgotten, without counting', async () => {
    const at = new Date('2026-03-04T05:06:07Z');
    const other = new MessageStats(clients.table(tableName));
    await other.record('Sales', '009100', { at, count: 10 });

    // Another writer wins the first round; by the next one the retry window has passed.
    const losing = testClients().table(tableName);
    let raced = false;
    losing.pipeline.addPolicy({
      name: 'otherWriterFirst',
      async sendRequest(request, next) {
        if (!raced && request.method === 'POST' && request.url.includes('$batch')) {
          raced = true;
          await other.record('Sales', '009100', { at, count: 100 });
        }
        return next(request);
      },
    });
    let now = Date.parse('2026-03-04T06:00:00Z');
    const clock = (): Date => {
      const current = new Date(now);
      now += INCREMENT_RETRY_WINDOW_MS + 1;
      return current;
    };

    await expect(new MessageStats(losing, clock).record('Sales', '009100', { at })).rejects.toThrow(
      ThrottledError,
    );
    expect(raced).toBe(true);
    expect((await other.hourly('Sales', '009100', at))[5]).toBe(110);
  });

  it('is counted once when its late retry comes after a thousand newer increments', async () => {
    const at = new Date('2026-03-04T05:06:07Z');
    const employeeId = '009200';
    const other = new MessageStats(clients.table(tableName));
    const lossy = testClients().table(tableName);
    const seen = loseFirstCommittedAnswer(lossy, 'perCall', async () => {
      await other.record('Sales', employeeId, { at, count: 100 });
      // Then as many newer increments as the markers can hold, and one more, each adding its id
      // the way `record` does (a writer refused at the bound adds nothing).
      const key = {
        partitionKey: employeePartitionKey('Sales', employeeId),
        rowKey: hourlyStatsRowKey(at),
      };
      let list = (await lossy.getEntity<{ RecentOperations: string }>(key.partitionKey, key.rowKey))
        .RecentOperations;
      for (let n = 0; n <= MAX_REMEMBERED_INCREMENTS; n++) {
        list =
          rememberIncrement(list, (0xa0000 + n).toString(16).padStart(16, '0'), new Date()) ?? list;
      }
      await lossy.updateEntity({ ...key, RecentOperations: list }, 'Merge');
    });
    await new MessageStats(lossy).record('Sales', employeeId, { at });

    expect(seen().dropped).toBe(1);
    expect((await other.hourly('Sales', employeeId, at))[5]).toBe(101);
  });

  it("prunes a day's markers with the next day's first increment", async () => {
    const employeeId = '009300';
    const day = new Date('2026-03-04T23:59:00Z');
    let now = Date.parse('2026-03-04T23:59:00Z');
    const stats = new MessageStats(clients.table(tableName), () => new Date(now));
    await stats.record('Sales', employeeId, { at: day });
    const key = [employeePartitionKey('Sales', employeeId), hourlyStatsRowKey(day)] as const;
    const markers = async (): Promise<unknown> =>
      (await clients.table(tableName).getEntity(...key)).RecentOperations;
    expect(await markers()).toMatch(/^[0-9a-f]{16}\.[0-9a-z]+$/);

    now += INCREMENT_MEMORY_MS + 60_000;
    await stats.record('Sales', employeeId, { at: new Date(now) });
    expect(await markers()).toBe('');
    expect((await stats.hourly('Sales', employeeId, day))[23]).toBe(1);
  });
});
