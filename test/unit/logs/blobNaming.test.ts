import { logBlockId, parseLogBlockId, LOG_BLOCK_ID_LENGTH } from '../../../src/logs/format/blockId';
import {
  formatLogType,
  levelMask,
  parseLevelFilter,
  parseLogType,
} from '../../../src/logs/format/levels';
import { metadataOfBlocks, parseLogBlobMetadata } from '../../../src/logs/format/metadata';
import { hourPrefixesOf, validateLogQuery } from '../../../src/logs/query/query';
import { ValidationError } from '../../../src/domainErrors';
import {
  LOG_PIPELINE_PREFIX,
  isLogSource,
  legacyLogTagLedgerName,
  logBlobName,
  logHourPrefix,
  logTagLedgerName,
  parseLogBlobName,
  parseLogTagLedgerName,
} from '../../../src/storage/keys/blobs/logBlobs';

describe('log block ids', () => {
  it('carry the block summary and have one fixed length', () => {
    const summary = {
      startSecond: 0,
      endSecond: 3599,
      levelMask: levelMask(['Error', 'Verbose']),
      lines: 70_000,
    };
    const id = logBlockId(summary, Buffer.from('x\n'));
    expect(id).toHaveLength(LOG_BLOCK_ID_LENGTH);
    expect(parseLogBlockId(id)).toEqual(summary);
    expect(logBlockId(summary, Buffer.from('y\n'))).not.toBe(id);
    expect(logBlockId(summary, Buffer.from('x\n'))).toBe(id);
  });

  it('are not recognised when written by something else', () => {
    expect(parseLogBlockId(Buffer.alloc(36, 7).toString('base64'))).toBeUndefined();
    expect(parseLogBlockId('YmxvY2stMDAwMDE=')).toBeUndefined();
  });

  it('refuse out-of-range summaries', () => {
    expect(() =>
      logBlockId({ startSecond: 5, endSecond: 3600, levelMask: 1, lines: 1 }, Buffer.alloc(1)),
    ).toThrow();
    expect(() =>
      logBlockId({ startSecond: 5, endSecond: 4, levelMask: 1, lines: 1 }, Buffer.alloc(1)),
    ).toThrow();
  });
});

describe('log blob metadata', () => {
  const hour = new Date('2026-11-22T15:00:00Z');
  it('spans all blocks and lists their levels in a fixed order', () => {
    const metadata = metadataOfBlocks(hour, [
      { startSecond: 300, endSecond: 301, levelMask: levelMask(['Critical']), lines: 2 },
      { startSecond: 5, endSecond: 3599, levelMask: levelMask(['Information', 'Error']), lines: 9 },
    ]);
    expect(metadata).toEqual({
      StartTime: '2026-11-22T15:00:05Z',
      EndTime: '2026-11-22T15:59:59Z',
      LogVersion: '1.0',
      LogType: 'Information,Error,Critical',
    });
    const parsed = parseLogBlobMetadata(
      Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k.toLowerCase(), v])),
    );
    expect(parsed?.startTime.toISOString()).toBe('2026-11-22T15:00:05.000Z');
    expect(parsed?.levelMask).toBe(levelMask(['Information', 'Error', 'Critical']));
  });

  it('is ignored when incomplete, so the blob is read rather than skipped', () => {
    expect(parseLogBlobMetadata({ StartTime: '2026-11-22T15:00:05Z' })).toBeUndefined();
    expect(parseLogBlobMetadata(undefined)).toBeUndefined();
  });

  it('parses level filters and LogType', () => {
    expect(parseLevelFilter('Error, Critical,Error')).toEqual(['Error', 'Critical']);
    expect(() => parseLevelFilter('Error,error')).toThrow(ValidationError);
    expect(formatLogType(parseLogType('Critical,Bogus,Verbose'))).toBe('Verbose,Critical');
  });
});

describe('log query windows', () => {
  const at = (iso: string): Date => new Date(iso);
  it('touch only the hours overlapping [from, to)', () => {
    expect(hourPrefixesOf('web', at('2026-11-22T15:04:00Z'), at('2026-11-22T15:06:00Z'))).toEqual([
      'web/2026/11/22/1500/',
    ]);
    expect(hourPrefixesOf('web', at('2026-11-22T23:30:00Z'), at('2026-11-23T01:00:00Z'))).toEqual([
      'web/2026/11/22/2300/',
      'web/2026/11/23/0000/',
    ]);
    expect(hourPrefixesOf('web', at('2026-11-22T15:00:00Z'), at('2026-11-22T15:00:00Z'))).toEqual(
      [],
    );
  });

  it.each([
    ['to before from', 'web', '2026-11-22T15:06:00Z', '2026-11-22T15:04:00Z', 'query.to'],
    ['a bad source', 'WEB', '2026-11-22T15:00:00Z', '2026-11-22T16:00:00Z', 'query.source'],
  ])('are refused when %s', (_, source, from, to, target) => {
    try {
      validateLogQuery({ source, from: at(from), to: at(to) });
      throw new Error('expected a ValidationError');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).target).toBe(target);
    }
  });

  it('allow any width (a wide window is read in pages)', () => {
    expect(() =>
      validateLogQuery({
        source: 'web',
        from: at('2026-01-01T00:00:00Z'),
        to: at('2026-12-31T23:59:59.999Z'),
      }),
    ).not.toThrow();
  });
});

describe('tag ledger names', () => {
  const hour = new Date('2026-11-22T15:00:00Z');

  it('mirror their log blob under _pipeline/ledgers/ and parse back to it', () => {
    const blob = logBlobName('web-1', hour, 12);
    expect(logTagLedgerName(blob)).toBe('_pipeline/ledgers/web-1/2026/11/22/1500/000012.tags');
    expect(parseLogTagLedgerName(logTagLedgerName(blob))).toBe(blob);
    expect(legacyLogTagLedgerName(blob)).toBe('web-1/2026/11/22/1500/000012.tags');
  });

  it('never sit under a source or an hour prefix, whatever the source is called', () => {
    for (const source of ['web', '_pipeline', 'pipeline', 'ledgers', '0', 'a-'.repeat(31) + 'a']) {
      if (!isLogSource(source)) {
        expect(() => logHourPrefix(source, hour)).toThrow();
        continue;
      }
      const ledger = logTagLedgerName(logBlobName(source, hour, 0));
      expect(ledger.startsWith(`${source}/`)).toBe(false);
      expect(ledger.startsWith(logHourPrefix(source, hour))).toBe(false);
      expect(ledger.startsWith(LOG_PIPELINE_PREFIX)).toBe(true);
    }
    expect(isLogSource(LOG_PIPELINE_PREFIX.slice(0, -1))).toBe(false);
  });

  it('are never taken for log blobs, and log blobs never for ledgers', () => {
    const ledger = logTagLedgerName(logBlobName('web', hour, 0));
    expect(parseLogBlobName(ledger)).toBeUndefined();
    expect(parseLogTagLedgerName(logBlobName('web', hour, 0))).toBeUndefined();
    expect(parseLogBlobName(legacyLogTagLedgerName(logBlobName('web', hour, 0)))).toBeUndefined();
  });

  it('refuse awkward names', () => {
    expect(() => logTagLedgerName('web/2026/11/22/1500/000000.tags')).toThrow();
    expect(() => logTagLedgerName('Web/2026/11/22/1500/000000.log')).toThrow();
    expect(() => logTagLedgerName(logTagLedgerName(logBlobName('web', hour, 0)))).toThrow();
    expect(() =>
      legacyLogTagLedgerName('_pipeline/ledgers/web/2026/11/22/1500/000000.log'),
    ).toThrow();
    for (const name of [
      'web/2026/11/22/1500/000000.tags', // the old place is not a ledger name any more
      '_pipeline/ledgers/web/2026/11/22/2400/000000.tags',
      '_pipeline/ledgers/web/2026/11/22/1500/00000.tags',
      '_pipeline/ledgers/web/2026/11/22/1500/000000.tags.tags',
      '_pipeline/ledgers/Web/2026/11/22/1500/000000.tags',
      '_pipeline/ledgers/_pipeline/ledgers/web/2026/11/22/1500/000000.tags',
      '_pipeline/ledgers//2026/11/22/1500/000000.tags',
      '_pipeline/ledgers/web/2026/02/30/1500/000000.tags',
      '_pipeline/staging/web/2026/11/22/1500/000000.tags',
      '/_pipeline/ledgers/web/2026/11/22/1500/000000.tags',
      '_pipeline/ledgers/.tags',
      '_pipeline/ledgers/',
      '.tags',
      '',
    ]) {
      expect(parseLogTagLedgerName(name)).toBeUndefined();
    }
  });
});
