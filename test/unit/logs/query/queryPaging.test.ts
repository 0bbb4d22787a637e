import { ValidationError } from '../../../../src/domainErrors';
import { logBlockId } from '../../../../src/logs/format/blockId';
import {
  compareCursors,
  decodeLogCursor,
  encodeLogCursor,
  type LogCursorScope,
} from '../../../../src/logs/query/queryCursor';
import {
  blocksOfBlob,
  planSlice,
  rangesOf,
  type HourBlock,
} from '../../../../src/logs/query/querySlice';
import { encodeContinuationToken } from '../../../../src/storage/keys/continuation';

const HOUR = Date.parse('2026-11-22T15:00:00Z');
const scope: LogCursorScope = {
  source: 'web',
  fromMs: HOUR - 3_600_000,
  toMs: HOUR + 3_600_000,
  levelMask: 0b11000,
};

function expectInvalid(token: string, of: LogCursorScope = scope): void {
  try {
    decodeLogCursor(of, token);
    throw new Error('expected a ValidationError');
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('InvalidContinuationToken');
  }
}

describe('log query cursors', () => {
  it('order entries by time, then blob, then offset', () => {
    const keys = [
      { atMs: 5, sequence: 1, offset: 0 },
      { atMs: 5, sequence: 0, offset: 900 },
      { atMs: 4, sequence: 3, offset: 10 },
      { atMs: 5, sequence: 0, offset: 100 },
    ];
    expect([...keys].sort(compareCursors)).toEqual([keys[2], keys[3], keys[1], keys[0]]);
  });

  it('round-trip through a token that names the hour blob and the offset', () => {
    const cursor = { atMs: HOUR + 1234, sequence: 3, offset: 98_765 };
    const token = encodeLogCursor(scope, cursor);
    expect(decodeLogCursor(scope, token)).toEqual(cursor);
    const inside = JSON.parse(Buffer.from(token, 'base64url').toString()) as Record<string, string>;
    expect(inside.pk).toBe('web/2026/11/22/1500/000003.log');
    expect(inside.rk).toBe(`98765@${HOUR + 1234}`);
  });

  it('refuse a token of another source, window or level filter', () => {
    const token = encodeLogCursor(scope, { atMs: HOUR, sequence: 0, offset: 0 });
    expectInvalid(token, { ...scope, source: 'api' });
    expectInvalid(token, { ...scope, toMs: scope.toMs + 1 });
    expectInvalid(token, { ...scope, levelMask: 0b10000 });
  });

  it('refuse tampered tokens, and positions outside the window or in the wrong hour', () => {
    const token = encodeLogCursor(scope, { atMs: HOUR, sequence: 0, offset: 0 });
    expectInvalid(`${token}x`);
    expectInvalid(token.slice(0, -2));
    expectInvalid('not a token!');
    const forged = (pk: string, rk: string): string =>
      encodeContinuationToken(
        // The same scope string the query would use: only the position is wrong.
        JSON.parse(Buffer.from(token, 'base64url').toString()).s as string,
        { nextPartitionKey: pk, nextRowKey: rk },
      );
    expect(decodeLogCursor(scope, forged('web/2026/11/22/1500/000001.log', `7@${HOUR}`))).toEqual({
      atMs: HOUR,
      sequence: 1,
      offset: 7,
    });
    expectInvalid(forged('web/2026/11/22/1400/000001.log', `7@${HOUR}`));
    expectInvalid(forged('api/2026/11/22/1500/000001.log', `7@${HOUR}`));
    expectInvalid(forged('web/2026/11/22/1500/000001.log', `-7@${HOUR}`));
    expectInvalid(forged('web/2026/11/22/1500/000001.log', `07@${HOUR}`));
    expectInvalid(forged('web/2026/11/22/1600/000000.log', `0@${scope.toMs}`));
    expectInvalid(forged('web/2026/11/22/1300/000000.log', `0@${scope.fromMs - 3_600_000}`));
  });
});

const block = (
  sequence: number,
  offset: number,
  size: number,
  startSecond: number,
  endSecond: number,
  lines: number,
): HourBlock => ({
  sequence,
  offset,
  size,
  startMs: HOUR + startSecond * 1000,
  endMs: HOUR + (endSecond + 1) * 1000,
  levelMask: 1,
  lines,
});

describe('log query slices', () => {
  it('read each block from its id: offset, time range, levels and lines', () => {
    const content = Buffer.from('x\n');
    const id = logBlockId({ startSecond: 10, endSecond: 20, levelMask: 8, lines: 1 }, content);
    const fallback = { startMs: HOUR, endMs: HOUR + 3_600_000, levelMask: 31 };
    expect(
      blocksOfBlob(
        2,
        HOUR,
        [
          { name: id, size: 100 },
          { name: 'foreign', size: 400 },
        ],
        fallback,
      ),
    ).toEqual([
      {
        sequence: 2,
        offset: 0,
        size: 100,
        startMs: HOUR + 10_000,
        endMs: HOUR + 21_000,
        levelMask: 8,
        lines: 1,
      },
      { sequence: 2, offset: 100, size: 400, ...fallback, lines: 2 },
    ]);
  });

  it('grow by whole seconds until the blocks are expected to fill the page', () => {
    const blocks = [
      block(0, 0, 100, 0, 1, 10),
      block(0, 100, 100, 2, 3, 10),
      block(0, 200, 100, 4, 5, 10),
    ];
    const slice = planSlice(blocks, HOUR + 500, HOUR + 3_600_000, {
      lines: 15,
      bytes: 1e9,
      blocks: 100,
    });
    // From 0.5 s the first block is expected to give 7.5 lines; the second, 5 lines by the end of
    // second 2 (12.5 in all) and 10 by the end of second 3 (17.5): enough there.
    expect(slice).toMatchObject({ startMs: HOUR + 500, endMs: HOUR + 4000, bytes: 200 });
    expect(slice.blocks).toEqual([blocks[0], blocks[1]]);
  });

  it('count a block spanning the hour only for the share of its lines in the slice', () => {
    const wide = block(0, 0, 3600, 0, 3599, 3600);
    const slice = planSlice([wide], HOUR, HOUR + 3_600_000, { lines: 100, bytes: 1e9, blocks: 9 });
    expect(slice.endMs).toBe(HOUR + 100_000);
  });

  it('stop before blocks that would pass the byte budget, covering what is already read', () => {
    const blocks = [block(0, 0, 100, 0, 0, 1), block(1, 0, 5000, 30, 31, 1)];
    const slice = planSlice(blocks, HOUR, HOUR + 3_600_000, { lines: 50, bytes: 1000, blocks: 9 });
    expect(slice).toMatchObject({ endMs: HOUR + 30_000, blocks: [blocks[0]] });
  });

  it('always cover the first second, whatever it costs', () => {
    const blocks = [block(0, 0, 5000, 0, 0, 1)];
    const slice = planSlice(blocks, HOUR, HOUR + 10_000, { lines: 50, bytes: 10, blocks: 0 });
    expect(slice).toMatchObject({ endMs: HOUR + 10_000, blocks: blocks });
  });

  it('end at the window limit when no block lies ahead', () => {
    expect(planSlice([], HOUR + 1, HOUR + 7_777, { lines: 5, bytes: 9, blocks: 9 })).toEqual({
      startMs: HOUR + 1,
      endMs: HOUR + 7_777,
      blocks: [],
      bytes: 0,
    });
  });

  it('merge blocks of one blob that lie close together into one ranged GET', () => {
    const blocks = [
      block(0, 0, 10, 0, 0, 1),
      block(0, 15, 10, 0, 0, 1),
      block(0, 500, 10, 0, 0, 1),
      block(1, 25, 5, 0, 0, 1),
    ];
    expect(rangesOf(blocks, 100)).toEqual([
      { sequence: 0, offset: 0, count: 25 },
      { sequence: 0, offset: 500, count: 10 },
      { sequence: 1, offset: 25, count: 5 },
    ]);
  });
});
