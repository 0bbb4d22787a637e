import { randomUUID } from 'node:crypto';
import { TooLargeError, ValidationError } from '../../../src/errors';
import {
  decodeLogBatchMessage,
  decodeLogQueuePayload,
  decodeStagedBatch,
  splitIntoMessages,
  type LogBatchMessage,
} from '../../../src/logs/batchMessage';
import type { LogEntry } from '../../../src/logs/entry';
import { decodeLogLine } from '../../../src/logs/lineFormat';
import { logStagingBlobName } from '../../../src/storage/keys';
import {
  decodeQueueMessage,
  encodeQueueMessage,
  MAX_QUEUE_MESSAGE_BYTES,
} from '../../../src/storage/queue';

function entries(count: number, messageBytes: number): LogEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    at: new Date(Date.UTC(2026, 10, 22, 15, 0, i)),
    level: 'Information' as const,
    message: `${i}:` + 'é'.repeat(messageBytes / 2),
    extra: { i },
  }));
}

describe('log batch queue messages', () => {
  it('keeps a small batch in one message', () => {
    const batchId = randomUUID();
    const messages = splitIntoMessages(batchId, 'web', entries(100, 50));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ batchId, part: 0, parts: 1, source: 'web' });
  });

  it('splits a batch over 64 KiB into parts that each fit a queue message, in order', () => {
    const batchId = randomUUID();
    const input = entries(300, 1000);
    const messages = splitIntoMessages(batchId, 'web', input);
    expect(messages.length).toBeGreaterThan(4);
    const lines: string[] = [];
    messages.forEach((message, index) => {
      const text = encodeQueueMessage(message);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_QUEUE_MESSAGE_BYTES);
      expect(message).toMatchObject({ part: index, parts: messages.length });
      const decoded = decodeLogBatchMessage(decodeQueueMessage(text));
      expect(decoded.tag).toBe(`${batchId}.${index}`);
      lines.push(...message.lines);
    });
    expect(lines.map((line) => decodeLogLine(line).entry)).toEqual(input);
  });

  it('refuses an entry that cannot fit in one message, naming it', () => {
    const input = [...entries(2, 10), ...entries(1, 70_000)];
    expect(() => splitIntoMessages(randomUUID(), 'web', input)).toThrow(TooLargeError);
    expect(() => splitIntoMessages(randomUUID(), 'web', input)).toThrow(/entries\[2\]/);
  });

  it('rejects payloads that are not log messages, and lines whose tag is not the part’s', () => {
    const [message] = splitIntoMessages(randomUUID(), 'web', entries(2, 10)) as [LogBatchMessage];
    expect(() => decodeLogBatchMessage({ hello: 'world' })).toThrow(ValidationError);
    expect(() => decodeLogBatchMessage({ ...message, part: 1, parts: 1 })).toThrow(ValidationError);
    expect(() => decodeLogBatchMessage({ ...message, part: 1, parts: 2 })).toThrow(/tag/);
    expect(() => decodeLogBatchMessage({ ...message, lines: ['garbage'] })).toThrow(
      ValidationError,
    );
    expect(decodeLogBatchMessage(JSON.parse(JSON.stringify(message))).headers).toHaveLength(2);
  });

  it('tells a pointer to a staged batch from an inline part, and refuses a pointer to a foreign blob', () => {
    const batchId = randomUUID();
    const pointer = { v: 1, batchId, stagingBlob: logStagingBlobName(batchId) };
    expect(decodeLogQueuePayload(pointer)).toEqual({ kind: 'staged', pointer });
    const [message] = splitIntoMessages(batchId, 'web', entries(2, 10)) as [LogBatchMessage];
    expect(decodeLogQueuePayload(message)).toMatchObject({
      kind: 'inline',
      decoded: { tag: `${batchId}.0` },
    });
    for (const stagingBlob of [
      logStagingBlobName(randomUUID()),
      'web/2026/11/22/1500/000000.log',
      `_staging/${batchId}.json/../x`,
    ]) {
      expect(() => decodeLogQueuePayload({ ...pointer, stagingBlob })).toThrow(ValidationError);
    }
    expect(() => decodeLogQueuePayload({ ...pointer, extra: 1 })).toThrow(ValidationError);
  });

  it('reads a staged batch back part by part, refusing foreign, missing or reordered parts', () => {
    const batchId = randomUUID();
    const parts = splitIntoMessages(batchId, 'web', entries(60, 2000));
    expect(parts.length).toBeGreaterThan(1);
    const decoded = decodeStagedBatch(JSON.stringify(parts), batchId);
    expect(decoded.map((d) => d.tag)).toEqual(parts.map((p) => `${batchId}.${p.part}`));
    expect(decoded.flatMap((d) => d.headers)).toHaveLength(60);
    expect(() => decodeStagedBatch(JSON.stringify(parts), randomUUID())).toThrow(ValidationError);
    expect(() => decodeStagedBatch(JSON.stringify(parts.slice(1)), batchId)).toThrow(
      ValidationError,
    );
    expect(() => decodeStagedBatch(JSON.stringify([...parts].reverse()), batchId)).toThrow(
      ValidationError,
    );
    expect(() => decodeStagedBatch('[]', batchId)).toThrow(ValidationError);
    expect(() => decodeStagedBatch('{not json', batchId)).toThrow(ValidationError);
  });
});
