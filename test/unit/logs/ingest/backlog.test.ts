import { randomUUID } from 'node:crypto';
import { earliestLineHour } from '../../../../src/logs/ingest/backlog';
import { logMessagePayload, splitIntoMessages } from '../../../../src/logs/ingest/batchMessage';
import type { LogEntry } from '../../../../src/logs/entry';
import { logStagingBlobName } from '../../../../src/storage/keys/blobs/logBlobs';

const entry = (at: string): LogEntry => ({
  at: new Date(at),
  level: 'Warning',
  message: 'm',
  extra: {},
});

describe('the hour of a waiting log batch', () => {
  it('is the hour of the earliest line of a part or a bundle, whatever the order', () => {
    const part = splitIntoMessages(randomUUID(), 'web', [
      entry('2026-11-26T04:10:00Z'),
      entry('2026-11-26T02:59:59.999Z'),
      entry('2026-11-26T03:00:00Z'),
    ])[0]!;
    expect(earliestLineHour(part)).toEqual(new Date('2026-11-26T02:00:00Z'));
    const other = splitIntoMessages(randomUUID(), 'api', [entry('2026-11-25T23:30:00Z')])[0]!;
    expect(earliestLineHour(logMessagePayload([part, other]))).toEqual(
      new Date('2026-11-25T23:00:00Z'),
    );
  });

  it('is unknown for a staged batch and for what is not a log batch', () => {
    const batchId = randomUUID();
    expect(
      earliestLineHour({ v: 1, batchId, stagingBlob: logStagingBlobName(batchId) }),
    ).toBeUndefined();
    expect(earliestLineHour({ department: 'Sales' })).toBeUndefined();
    expect(earliestLineHour('text')).toBeUndefined();
  });
});
