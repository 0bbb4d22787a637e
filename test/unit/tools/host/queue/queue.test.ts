/**
 * The queue trigger's pure parts: polling back-off, message decoding and encoding, trigger
 * metadata, output messages and queue names.
 */
import { PollingBackoff } from '../../../../../tools/host/queue/backoff';
import {
  decodeMessageText,
  dotNetDate,
  encodeMessageText,
  outputMessages,
  queueTriggerMetadata,
} from '../../../../../tools/host/queue/queueMessage';
import { queueNameProblem, resolveQueueName } from '../../../../../tools/host/queue/queueName';

describe('polling back-off', () => {
  test('grows by doubling increments while the queue is empty, capped at the maximum', () => {
    const backoff = new PollingBackoff(100, 2_000, () => 0.5);
    const delays = Array.from({ length: 8 }, () => backoff.next(false));
    expect(delays).toEqual([100, 200, 300, 500, 900, 1_700, 2_000, 2_000]);
  });

  test('drops to the minimum as soon as messages are found, then grows again', () => {
    const backoff = new PollingBackoff(100, 2_000, () => 0.5);
    for (let i = 0; i < 6; i++) backoff.next(false);
    expect(backoff.next(true)).toBe(100);
    expect(backoff.next(false)).toBe(200);
  });

  test('jitters each increment by ±20%', () => {
    const low = new PollingBackoff(100, 60_000, () => 0);
    const high = new PollingBackoff(100, 60_000, () => 1);
    for (let i = 0; i < 4; i++) {
      low.next(false);
      high.next(false);
    }
    // Fifth empty poll: 100 + 8 × 100 × (0.8 | 1.2).
    expect(low.next(false)).toBe(740);
    expect(high.next(false)).toBe(1_060);
  });
});

describe('message text', () => {
  test('base64 is decoded as UTF-8', () => {
    const text = 'Jörg {"id": "000223"} 人事';
    expect(decodeMessageText(Buffer.from(text).toString('base64'), 'base64')).toEqual({
      ok: true,
      text,
    });
  });

  test('text that is not base64 is a decoding failure', () => {
    expect(decodeMessageText('hello world', 'base64')).toEqual({
      ok: false,
      reason: expect.stringMatching(/not base64/),
    });
    expect(decodeMessageText('abc', 'base64').ok).toBe(false);
  });

  test('encoding none passes text through both ways', () => {
    expect(decodeMessageText('hello world', 'none')).toEqual({ ok: true, text: 'hello world' });
    expect(encodeMessageText('hello', 'none')).toBe('hello');
    expect(encodeMessageText(Buffer.from([1, 2]), 'base64')).toBe('AQI=');
  });
});

describe('trigger metadata', () => {
  test('uses the host names; numbers and dates as JSON, strings as strings', () => {
    const metadata = queueTriggerMetadata(
      {
        messageId: 'm-1',
        popReceipt: 'p-1',
        messageText: 'ignored',
        dequeueCount: 3,
        insertedOn: new Date('2024-05-01T10:00:00.000Z'),
        expiresOn: new Date('2024-05-08T10:00:00.250Z'),
        nextVisibleOn: undefined,
      },
      '{"a":1}',
      'archiveEmployee',
    );
    expect(metadata).toMatchObject({
      QueueTrigger: { string: '{"a":1}' },
      DequeueCount: { json: '3' },
      Id: { string: 'm-1' },
      PopReceipt: { string: 'p-1' },
      InsertionTime: { json: '"2024-05-01T10:00:00+00:00"' },
      ExpirationTime: { json: '"2024-05-08T10:00:00.250+00:00"' },
      NextVisibleTime: { json: 'null' },
    });
    expect(JSON.parse(metadata.sys!.json!)).toMatchObject({
      MethodName: 'archiveEmployee',
      RandGuid: expect.any(String),
    });
  });

  test("a JSON object message's top-level properties join the metadata and hide the host's names", () => {
    const fields = { messageId: 'm-1', popReceipt: 'p-1', messageText: '', dequeueCount: 4 };
    const metadata = queueTriggerMetadata(
      fields,
      '{"id":"employee-7","DEQUEUECOUNT":1,"nested":{"a":[1]}}',
      'archiveEmployee',
    );
    expect(metadata).toMatchObject({
      id: { string: 'employee-7' },
      DEQUEUECOUNT: { json: '1' },
      nested: { json: '{"a":[1]}' },
    });
    expect(metadata.Id).toBeUndefined();
    expect(metadata.DequeueCount).toBeUndefined();
    // Text that is not a JSON object adds nothing.
    for (const text of ['[1,2]', '"x"', 'plain', '42'])
      expect(Object.keys(queueTriggerMetadata(fields, text, 'f'))).toHaveLength(8);
  });

  test('dates parse back to the same instant', () => {
    const date = new Date('2030-12-31T23:59:59.999Z');
    expect(new Date(dotNetDate(date)).getTime()).toBe(date.getTime());
  });
});

describe('output messages', () => {
  test('an array is one message per item; objects become JSON, strings stay as they are', () => {
    expect(outputMessages({ json: JSON.stringify([{ a: 1 }, 'two', 3]) })).toEqual([
      '{"a":1}',
      'two',
      '3',
    ]);
    expect(outputMessages({ json: '{"a":1}' })).toEqual(['{"a":1}']);
    expect(outputMessages({ string: 'text' })).toEqual(['text']);
    expect(outputMessages({ int: 7 })).toEqual(['7']);
    expect(outputMessages({ bytes: Buffer.from('b') })).toEqual([Buffer.from('b')]);
  });
});

describe('queue names', () => {
  test('follow Azure rules after lower-casing and setting resolution', () => {
    expect(resolveQueueName('%Q%', { Q: 'Archive-Requests' })).toBe('archive-requests');
    expect(queueNameProblem('ab')).toMatch(/not a valid queue name/);
    expect(queueNameProblem('a--b')).toMatch(/not a valid queue name/);
    expect(queueNameProblem('-abc')).toMatch(/not a valid queue name/);
    expect(() => resolveQueueName('under_score', {})).toThrow(
      /"under_score" is not a valid queue name/,
    );
  });
});
