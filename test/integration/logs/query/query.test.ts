import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { drainAndFlush } from '../../../../src/logs/flush/logDrain';
import { queryLogPage, type LogQuery } from '../../../../src/logs/query/query';
import type { ContainerClient } from '@azure/storage-blob';
import { toApiEntry } from '../../../../src/logs/entry';
import { testClients } from '../../../support/storage';
import { blobLimits, ingest, logRig, type LogRig, type RawEntry } from '../logKit';

const limits = blobLimits({ LOG_BLOB_MAX_BLOCKS: '2' });

/** Every page of a query, read with the tokens it hands out. */
async function queryAll(container: ContainerClient, query: LogQuery, pageSize?: number) {
  const first = await queryLogPage(container, query, { pageSize });
  const items = [...first.items];
  for (let token = first.continuationToken; token !== null;) {
    const page = await queryLogPage(container, query, { pageSize, continuationToken: token });
    items.push(...page.items);
    token = page.continuationToken;
  }
  return { items, stats: first.stats, token: first.continuationToken };
}

/** Accepts entries as one batch and flushes them: one block per touched hour. */
async function flushEntries(rig: LogRig, entries: RawEntry[]): Promise<void> {
  await ingest(rig, 'web', entries);
  await drainAndFlush({ ...rig, limits, maxMessages: 32 });
}

const e = (
  at: string,
  level: string,
  message: string,
  extra: Record<string, unknown> = {},
): RawEntry => ({
  at,
  level,
  message,
  ...extra,
});

describe('querying logs by time range', () => {
  let proxy: FaultProxy;
  let rig: LogRig;

  beforeAll(async () => {
    proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
  });
  afterAll(async () => {
    await proxy.stop();
  });

  beforeEach(async () => {
    rig = await logRig();
    // 14:00 and 16:00 hold matching levels but lie outside the window.
    await flushEntries(rig, [
      e('2026-11-22T14:05:00Z', 'Error', 'fourteen-error'),
      e('2026-11-22T16:05:00Z', 'Critical', 'sixteen-critical'),
    ]);
    // 15:00, blob 000000 (two blocks, then full): 15:00:00-15:03:59.999, ends before the window.
    await flushEntries(rig, [e('2026-11-22T15:00:00Z', 'Error', 'early-error')]);
    await flushEntries(rig, [e('2026-11-22T15:03:59.999Z', 'Critical', 'just-before')]);
    // 15:00, blob 000001: the window's entries.
    await flushEntries(rig, [
      e('2026-11-22T15:04:00.000Z', 'Error', 'at-from', { requestId: 'r1' }),
      e('2026-11-22T15:05:00.000Z', 'Information', 'info-inside'),
      e('2026-11-22T15:05:30.000Z', 'Critical', 'tie-a'),
      e('2026-11-22T15:04:30.000Z', 'Critical', 'out-of-order'),
      e('2026-11-22T15:05:30.000Z', 'Error', 'tie-b'),
      e('2026-11-22T15:06:00.000Z', 'Error', 'at-to'),
    ]);
    await flushEntries(rig, [e('2026-11-22T15:05:59.999Z', 'Critical', 'last-inside')]);
    // 15:00, blob 000002: only Information, later in the hour.
    await flushEntries(rig, [e('2026-11-22T15:40:00Z', 'Information', 'later-info')]);
  });

  it('returns all Error and Critical entries between 15:04 and 15:06, reading only the 15:00 prefix', async () => {
    const viaProxy = testClients(proxy.connectionString).container(rig.container.containerName);
    proxy.resetCounts();

    const { items, stats } = await queryAll(viaProxy, {
      source: 'web',
      from: new Date('2026-11-22T15:04:00Z'),
      to: new Date('2026-11-22T15:06:00Z'),
      levels: ['Error', 'Critical'],
    });

    expect(items.map((i) => i.message)).toEqual([
      'at-from',
      'out-of-order',
      'tie-a',
      'tie-b',
      'last-inside',
    ]);
    expect(toApiEntry(items[0]!)).toEqual({
      at: '2026-11-22T15:04:00.000Z',
      level: 'Error',
      message: 'at-from',
      requestId: 'r1',
    });
    expect(stats.hourPrefixes).toEqual(['web/2026/11/22/1500/']);
    // One listing of 15:00 (three blobs), then only 000001: 000000 ends before 15:04, 000002
    // starts after. Its block list, and one ranged GET of its blocks that overlap the window.
    expect(stats).toMatchObject({ blobsListed: 3, blockLists: 1, downloads: 1 });
    expect(proxy.counts().byKind).toEqual({ 'blob:GET': 3 });
  });

  it('skips a blob whose LogType holds none of the wanted levels', async () => {
    const { items, stats } = await queryAll(rig.container, {
      source: 'web',
      from: new Date('2026-11-22T15:30:00Z'),
      to: new Date('2026-11-22T16:00:00Z'),
      levels: ['Error'],
    });
    expect(items).toEqual([]);
    expect(stats).toMatchObject({ blockLists: 0, downloads: 0 });
  });

  it('compares second-precision metadata inclusively, so sub-second windows still find their entries', async () => {
    const { items } = await queryAll(rig.container, {
      source: 'web',
      from: new Date('2026-11-22T15:05:59.990Z'),
      to: new Date('2026-11-22T15:06:00.000Z'),
    });
    expect(items.map((i) => i.message)).toEqual(['last-inside']);
  });

  it('covers every touched hour and returns all levels without a level filter', async () => {
    const { items, stats } = await queryAll(rig.container, {
      source: 'web',
      from: new Date('2026-11-22T14:00:00Z'),
      to: new Date('2026-11-22T16:05:00.001Z'),
    });
    expect(stats.hourPrefixes).toHaveLength(3);
    expect(items).toHaveLength(12);
    expect(items[0]!.message).toBe('fourteen-error');
    expect(items[items.length - 1]!.message).toBe('sixteen-critical');
  });

  it('reads a window in pages of pageSize, each entry once, in time order', async () => {
    const query = {
      source: 'web',
      from: new Date('2026-11-22T14:00:00Z'),
      to: new Date('2026-11-22T16:05:00.001Z'),
    };
    const whole = await queryAll(rig.container, query);
    const sizes: number[] = [];
    const items = [];
    let page = await queryLogPage(rig.container, query, { pageSize: 5 });
    for (;;) {
      sizes.push(page.items.length);
      items.push(...page.items);
      if (!page.continuationToken) break;
      page = await queryLogPage(rig.container, query, {
        pageSize: 5,
        continuationToken: page.continuationToken,
      });
    }
    expect(sizes).toEqual([5, 5, 2]);
    expect(items.map((i) => i.message)).toEqual(whole.items.map((i) => i.message));
  });

  it('finds nothing, without failing, for a source that never logged', async () => {
    const { items } = await queryAll(rig.container, {
      source: 'nobody',
      from: new Date('2026-11-22T15:00:00Z'),
      to: new Date('2026-11-22T16:00:00Z'),
    });
    expect(items).toEqual([]);
  });
});
