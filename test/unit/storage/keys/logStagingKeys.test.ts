import { randomUUID } from 'node:crypto';
import {
  LOG_PIPELINE_PREFIX,
  logBlobName,
  logHourPrefix,
  logStagingBlobName,
  logTagLedgerName,
  parseLogBlobName,
  parseLogStagingBlobName,
  parseLogTagLedgerName,
} from '../../../../src/storage/keys/blobs/logBlobs';

describe('staged log batch blob names', () => {
  it('put a batch under _pipeline/staging/ and parse back to its id', () => {
    const batchId = randomUUID();
    expect(logStagingBlobName(batchId)).toBe(`_pipeline/staging/${batchId}.json`);
    expect(parseLogStagingBlobName(logStagingBlobName(batchId))).toBe(batchId);
    expect(parseLogStagingBlobName(logStagingBlobName('A-z-0'))).toBe('A-z-0');
  });

  it('still parse the earlier _staging/ names that queued pointers may carry', () => {
    const batchId = randomUUID();
    expect(parseLogStagingBlobName(`_staging/${batchId}.json`)).toBe(batchId);
  });

  it('are never log blobs, ledgers or under an hour prefix, and the reverse', () => {
    const staged = logStagingBlobName(randomUUID());
    expect(parseLogBlobName(staged)).toBeUndefined();
    expect(parseLogTagLedgerName(staged)).toBeUndefined();
    // No valid source can start with `_`, so no hour prefix lists staged batches.
    expect(() => logHourPrefix('_staging', new Date('2026-11-22T15:00:00Z'))).toThrow();
    expect(() => logHourPrefix('_pipeline', new Date('2026-11-22T15:00:00Z'))).toThrow();
    expect(staged.startsWith(LOG_PIPELINE_PREFIX)).toBe(true);
    const log = logBlobName('web', new Date('2026-11-22T15:00:00Z'), 0);
    expect(parseLogStagingBlobName(log)).toBeUndefined();
    expect(parseLogStagingBlobName(logTagLedgerName(log))).toBeUndefined();
  });

  it.each(['', 'a/b', '../x', 'a.b', 'ünïcode', 'x'.repeat(65), 'a b', 'a\nb'])(
    'refuse the awkward batch id %j',
    (batchId) => {
      expect(() => logStagingBlobName(batchId)).toThrow();
      expect(parseLogStagingBlobName(`_staging/${batchId}.json`)).toBeUndefined();
      expect(parseLogStagingBlobName(`_pipeline/staging/${batchId}.json`)).toBeUndefined();
    },
  );

  it.each([
    '_staging/.json',
    '_pipeline/staging/.json',
    '_pipeline/staging/abc.json.json',
    '_pipeline/staging/abc/def.json',
    '_pipeline/ledgers/abc.json',
    '_pipeline/abc.json',
    'pipeline/staging/abc.json',
    '_pipeline/staging/_staging/abc.json',
    '_staging/_pipeline/staging/abc.json',
    '_staging/abc',
    '_staging/abc.json.json',
    'staging/abc.json',
    '_staging/abc/def.json',
    '/_staging/abc.json',
    '_STAGING/abc.json',
    'web/2026/11/22/1500/_staging/abc.json',
  ])('do not take %j for a staged batch', (name) => {
    expect(parseLogStagingBlobName(name)).toBeUndefined();
  });
});
