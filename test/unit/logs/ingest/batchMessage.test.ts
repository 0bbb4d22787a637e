import { randomUUID } from 'node:crypto';
import { TooLargeError, ValidationError } from '../../../../src/domainErrors';
import { deflateRawSync } from 'node:zlib';
import {
  BUNDLE_BUDGET_BYTES,
  compactPart,
  decodeLogBatchMessage,
  decodeLogQueuePayload,
  decodeStagedBatch,
  logMessagePayload,
  logPartBytes,
  splitIntoMessages,
  type LogBatchMessage,
} from '../../../../src/logs/ingest/batchMessage';
import type { LogEntry } from '../../../../src/logs/entry';
import { decodeLogLine } from '../../../../src/logs/format/lineFormat';
import { logStagingBlobName } from '../../../../src/storage/keys/blobs/logBlobs';
import {
  decodeQueueMessage,
  encodeQueueMessage,
  MAX_QUEUE_MESSAGE_BYTES,
} from '../../../../src/storage/queue';

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

describe('bundles of batches ingested together', () => {
  const awkward: LogEntry[] = [
    {
      at: new Date(Date.UTC(2026, 10, 22, 15, 4, 0)),
      level: 'Error',
      message: 'Zürich — 东京\nsecond line\twith | pipes and "quotes" 🙂',
      extra: { path: '/a|b', n: 1 },
    },
    ...entries(60, 40),
  ];

  it('compresses repetitive lines and inflates them byte-exact', () => {
    const [part] = splitIntoMessages(randomUUID(), 'web', awkward);
    const compact = compactPart(part!);
    expect('zlines' in compact).toBe(true);
    expect(logPartBytes(compact)).toBeLessThan(logPartBytes(part!) / 3);
    const decoded = decodeLogBatchMessage(JSON.parse(JSON.stringify(compact)));
    expect(decoded.message.lines).toEqual(part!.lines);
    expect(decodeLogLine(decoded.message.lines[0]!).entry.message).toBe(awkward[0]!.message);
  });

  it('keeps a part plain when compressing would not make it smaller', () => {
    // One short line: DEFLATE's framing plus base64 outgrow what little it could save.
    const [part] = splitIntoMessages(randomUUID(), 'web', [
      { at: new Date(), level: 'Verbose', message: 'ok', extra: {} },
    ]);
    expect(compactPart(part!)).toBe(part);
  });

  it('carries plain and compressed parts of different batches in one message, each its own unit', () => {
    const plain = splitIntoMessages(randomUUID(), 'web', entries(3, 10))[0]!;
    const packed = compactPart(splitIntoMessages(randomUUID(), 'api', entries(50, 20))[0]!);
    const payload = decodeQueueMessage(encodeQueueMessage(logMessagePayload([plain, packed])));
    const decoded = decodeLogQueuePayload(payload);
    expect(decoded.kind).toBe('bundle');
    if (decoded.kind !== 'bundle') return;
    expect(decoded.parts.map((p) => [p.message.source, p.message.lines.length])).toEqual([
      ['web', 3],
      ['api', 50],
    ]);
    expect(new Set(decoded.parts.map((p) => p.tag)).size).toBe(2);
    // A lone part travels as itself.
    expect(logMessagePayload([plain])).toBe(plain);
  });

  it('fits a full bundle in one queue message', () => {
    const parts: ReturnType<typeof compactPart>[] = [];
    let used = 0;
    for (;;) {
      const part = compactPart(splitIntoMessages(randomUUID(), 'web', entries(100, 80))[0]!);
      if (used + logPartBytes(part) > BUNDLE_BUDGET_BYTES) break;
      parts.push(part);
      used += logPartBytes(part);
    }
    expect(parts.length).toBeGreaterThan(2);
    const text = encodeQueueMessage(logMessagePayload(parts));
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_QUEUE_MESSAGE_BYTES);
  });

  it('refuses a bundle that carries a part of a split batch', () => {
    const split = splitIntoMessages(randomUUID(), 'web', entries(80, 1200));
    expect(split.length).toBeGreaterThan(1);
    expect(() => decodeLogQueuePayload({ v: 1, parts: [split[0]] })).toThrow(/split batch/);
  });

  it.each([
    ['garbage zlines', { zlines: 'not-deflate!' }],
    ['both lines and zlines', { zlines: 'eJw=', lines: ['x'] }],
    [
      'zlines that inflate past the limit',
      {
        zlines: deflateRawSync(Buffer.from(JSON.stringify(['x'.repeat(2 * 1024 * 1024)]))).toString(
          'base64',
        ),
      },
    ],
    [
      'zlines of something other than lines',
      { zlines: deflateRawSync('{"a":1}').toString('base64') },
    ],
  ])('refuses a part with %s', (_, body) => {
    const base = { v: 1, batchId: randomUUID(), part: 0, parts: 1, source: 'web' };
    expect(() => decodeLogQueuePayload({ v: 1, parts: [{ ...base, ...body }] })).toThrow(
      ValidationError,
    );
  });
});
