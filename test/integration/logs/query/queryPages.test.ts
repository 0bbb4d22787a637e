/**
 * A busy stretch of log read back in pages: 4,000 entries over two hours in several blobs per
 * hour, flushed in batches whose time ranges overlap (late entries), read with several page sizes,
 * windows and level filters. Every entry comes exactly once, in time order, and no page reads more
 * than its budget. (Pages of 199 make the 21 pages that 20,000 entries made in pages of 997; the
 * hour of 10,000 to 50,000 lines is the bench's scale case.)
 */
import type { ContainerClient } from '@azure/storage-blob';
import { drainAndFlush } from '../../../../src/logs/flush/logDrain';
import type { LogEntry } from '../../../../src/logs/entry';
import {
  LOG_PAGE_MAX_BYTES,
  LOG_PAGE_MAX_REQUESTS,
  queryLogPage,
  type LogQuery,
  type LogQueryStats,
} from '../../../../src/logs/query/query';
import { LOG_LEVELS } from '../../../../src/logs/format/levels';
import { blobLimits, ingest, logRig, type LogRig, type RawEntry } from '../logKit';

const START = Date.parse('2026-11-22T14:40:00Z');
const ENTRIES = 4_000;
const BATCHES = 20;
const STEP_MS = 600; // 4,000 entries over 40 minutes, each at its own millisecond
const PAGE = 199;

/** A small deterministic generator (the same data on every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface Read {
  items: LogEntry[];
  pages: LogQueryStats[];
  sizes: number[];
}

async function readAll(container: ContainerClient, query: LogQuery, pageSize: number) {
  const read: Read = { items: [], pages: [], sizes: [] };
  let token: string | undefined;
  do {
    const page = await queryLogPage(container, query, { pageSize, continuationToken: token });
    read.items.push(...page.items);
    read.pages.push(page.stats);
    read.sizes.push(page.items.length);
    token = page.continuationToken ?? undefined;
  } while (token !== undefined);
  return read;
}

describe('a busy stretch of log, read in pages', () => {
  let rig: LogRig;
  const all: RawEntry[] = [];

  beforeAll(async () => {
    rig = await logRig();
    const next = random(42);
    const batches: RawEntry[][] = Array.from({ length: BATCHES }, () => []);
    for (let i = 0; i < ENTRIES; i++) {
      const entry: RawEntry = {
        at: new Date(START + i * STEP_MS).toISOString(),
        level: LOG_LEVELS[Math.floor(next() * LOG_LEVELS.length)]!,
        message: `entry ${i}`,
        ...(i % 7 === 0 ? { requestId: `r-${i}` } : {}),
      };
      all.push(entry);
      // Mostly in time order, batch by batch; one in twenty arrives late, in a later batch.
      const own = Math.floor(i / (ENTRIES / BATCHES));
      const late = next() < 0.05;
      batches[late ? own + Math.floor(next() * (BATCHES - own)) : own]!.push(entry);
    }
    // Lines within a batch in any order: shuffle each one.
    for (const batch of batches) batch.sort(() => next() - 0.5);
    // Three blocks per blob: each hour spreads over several NNNNNN blobs.
    const limits = blobLimits({ LOG_BLOB_MAX_BLOCKS: '3' });
    for (const batch of batches) {
      await ingest(rig, 'web', batch);
      await drainAndFlush({ ...rig, limits, maxMessages: 32 });
    }
    const names: string[] = [];
    for await (const blob of rig.container.listBlobsFlat({ prefix: 'web/' })) names.push(blob.name);
    // 14:00 got a block from each of the first 10 batches (and late entries), 15:00 from the rest.
    expect(names.filter((n) => n.includes('/1400/')).length).toBeGreaterThanOrEqual(4);
    expect(names.filter((n) => n.includes('/1500/')).length).toBeGreaterThanOrEqual(4);
  });

  const expected = (levels?: string[], from = START, to = Infinity): string[] =>
    all
      .filter((e) => !levels || levels.includes(e.level))
      .filter((e) => Date.parse(e.at) >= from && Date.parse(e.at) < to)
      .map((e) => e.message);

  it('returns every entry once, in time order, across pages and the hour boundary', async () => {
    const query = {
      source: 'web',
      from: new Date('2026-11-22T14:00:00Z'),
      to: new Date('2026-11-22T16:00:00Z'),
    };
    const read = await readAll(rig.container, query, PAGE);
    expect(read.items.map((e) => e.message)).toEqual(expected());
    expect(read.items[7]).toMatchObject({ extra: { requestId: 'r-7' } });
    // Full pages but the last; every page within its budget.
    expect(read.sizes.slice(0, -1).every((size) => size === PAGE)).toBe(true);
    expect(read.sizes.length).toBe(Math.ceil(ENTRIES / PAGE));
    for (const stats of read.pages) {
      expect(stats.hourPrefixes.length + stats.blockLists + stats.downloads).toBeLessThanOrEqual(
        LOG_PAGE_MAX_REQUESTS,
      );
    }
    // Requests per page (for docs/logs.md): one listing and the block lists of the hour's
    // blobs that may match, plus the ranged GETs of the slice.
    const requests = read.pages.map((s) => s.hourPrefixes.length + s.blockLists + s.downloads);
    const bytes = read.pages.map((s) => s.bytesRead);
    console.log(
      `pages ${read.pages.length}, requests per page: mean ${(
        requests.reduce((a, b) => a + b, 0) / requests.length
      ).toFixed(1)}, max ${Math.max(...requests)}; KiB read per page: mean ${(
        bytes.reduce((a, b) => a + b, 0) /
        bytes.length /
        1024
      ).toFixed(0)}, max ${(Math.max(...bytes) / 1024).toFixed(0)}`,
    );
    expect(Math.max(...bytes)).toBeLessThanOrEqual(LOG_PAGE_MAX_BYTES);
  });

  it('pages through a level filter and a window that crosses 15:00, with small pages', async () => {
    const from = Date.parse('2026-11-22T14:55:00.050Z');
    const to = Date.parse('2026-11-22T15:05:00.500Z');
    const query: LogQuery = {
      source: 'web',
      from: new Date(from),
      to: new Date(to),
      levels: ['Error', 'Critical'],
    };
    const read = await readAll(rig.container, query, 101);
    const want = expected(['Error', 'Critical'], from, to);
    expect(want.length).toBeGreaterThan(3 * 101);
    expect(read.items.map((e) => e.message)).toEqual(want);
    expect(new Set(read.items.map((e) => e.level))).toEqual(new Set(['Error', 'Critical']));
  });

  it('reads one entry per page when asked, and a single-page result in one page', async () => {
    const from = Date.parse('2026-11-22T15:00:00Z');
    const query = { source: 'web', from: new Date(from), to: new Date(from + 10 * STEP_MS) };
    const ones = await readAll(rig.container, query, 1);
    expect(ones.items.map((e) => e.message)).toEqual(
      expected(undefined, from, from + 10 * STEP_MS),
    );
    expect(ones.sizes).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    const whole = await readAll(rig.container, query, 5000);
    expect(whole.sizes).toEqual([10]);
  });
});
