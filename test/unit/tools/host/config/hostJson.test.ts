/**
 * host.json as the local host reads it: the Functions host's defaults, TimeSpan durations, and a
 * clear error naming any malformed setting.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readHostSettings } from '../../../../../tools/host/config/hostJson';
import { formatTimeSpan, parseTimeSpan } from '../../../../../tools/host/config/timeSpan';
import {
  BindingExpressionError,
  resolveBindingExpressions,
} from '../../../../../tools/host/config/bindingExpressions';

describe('TimeSpan', () => {
  test.each([
    ['00:00:02', 2_000],
    ['00:05', 300_000],
    ['1.02:03:04', ((24 + 2) * 3600 + 3 * 60 + 4) * 1000],
    ['00:00:00.5', 500],
    ['00:00:00.1234567', 123],
    ['-00:00:01', -1000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseTimeSpan(text, 'x')).toBe(ms);
  });

  test.each(['5', '00:60:00', '24:00:00', 'soon', '00:00:00.12345678'])('%s is refused', (text) => {
    expect(() => parseTimeSpan(text, 'host.json extensions.queues.visibilityTimeout')).toThrow(
      /host.json extensions.queues.visibilityTimeout/,
    );
  });

  test('formats back', () => {
    expect(formatTimeSpan(3_723_000)).toBe('01:02:03');
    expect(formatTimeSpan(1_500)).toBe('00:00:01.500');
  });
});

describe('host settings', () => {
  test('defaults are the Functions host defaults', () => {
    expect(readHostSettings({ version: '2.0' }, 4)).toEqual({
      routePrefix: 'api',
      queues: {
        maxPollingIntervalMs: 60_000,
        visibilityTimeoutMs: 0,
        batchSize: 16,
        newBatchThreshold: 32,
        maxDequeueCount: 5,
        messageEncoding: 'base64',
      },
      functionTimeoutMs: 30 * 60_000,
    });
  });

  test("the project's host.json sets every queue setting, and the host reads it as written", () => {
    // Azure's defaults (maxPollingInterval 1 min, batchSize 16, newBatchThreshold batchSize/2 per
    // core, visibilityTimeout 0, maxDequeueCount 5) are the host's too; the app names its own so
    // local and deployed figures never rest on either host's defaults.
    const file = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, '../../../../../host.json'), 'utf8'),
    ) as { extensions: { queues: Record<string, unknown> } };
    const queues = file.extensions.queues;
    expect(Object.keys(queues).sort()).toEqual(
      [
        'batchSize',
        'maxDequeueCount',
        'maxPollingInterval',
        'messageEncoding',
        'newBatchThreshold',
        'visibilityTimeout',
      ].sort(),
    );
    const read = readHostSettings(file, 64).queues;
    expect(read.batchSize).toBe(queues.batchSize);
    expect(read.newBatchThreshold).toBe(queues.newBatchThreshold);
    expect(read.maxDequeueCount).toBe(queues.maxDequeueCount);
    expect(read.maxPollingIntervalMs).toBe(parseTimeSpan(String(queues.maxPollingInterval), 'x'));
    expect(read.visibilityTimeoutMs).toBe(parseTimeSpan(String(queues.visibilityTimeout), 'x'));
  });

  test('reads the project settings', () => {
    const settings = readHostSettings({
      version: '2.0',
      extensions: {
        http: { routePrefix: '/v1/' },
        queues: {
          maxPollingInterval: '00:00:02',
          visibilityTimeout: '00:00:05',
          batchSize: 16,
          newBatchThreshold: 8,
          maxDequeueCount: 3,
          messageEncoding: 'None',
        },
      },
      functionTimeout: '-1',
    });
    expect(settings).toEqual({
      routePrefix: 'v1',
      queues: {
        maxPollingIntervalMs: 2_000,
        visibilityTimeoutMs: 5_000,
        batchSize: 16,
        newBatchThreshold: 8,
        maxDequeueCount: 3,
        messageEncoding: 'none',
      },
      functionTimeoutMs: undefined,
    });
  });

  test('the durableTask section is passed through as written, for a durable extension', () => {
    const durableTask = { hubName: 'DirectoryHub', storageProvider: { type: 'AzureStorage' } };
    expect(readHostSettings({ extensions: { durableTask } }).durableTask).toEqual(durableTask);
    expect(readHostSettings({}).durableTask).toBeUndefined();
    expect(() => readHostSettings({ extensions: { durableTask: 'x' } })).toThrow(
      /durableTask must be an object/,
    );
  });

  test('an empty route prefix serves functions at the root; the legacy millisecond polling interval is read', () => {
    const settings = readHostSettings({
      extensions: { http: { routePrefix: '' }, queues: { maxPollingInterval: 2500 } },
    });
    expect(settings.routePrefix).toBe('');
    expect(settings.queues.maxPollingIntervalMs).toBe(2500);
  });

  test.each([
    [{ version: '1.0' }, /"version" must be "2.0"/],
    [
      { extensions: { queues: { batchSize: 64 } } },
      /extensions.queues.batchSize must be a whole number from 1 to 32/,
    ],
    [{ extensions: { queues: { maxDequeueCount: 0 } } }, /maxDequeueCount/],
    [
      { extensions: { queues: { messageEncoding: 'utf8' } } },
      /messageEncoding must be "base64" or "none"/,
    ],
    [
      { extensions: { queues: { maxPollingInterval: '00:00:00.050' } } },
      /maxPollingInterval must be at least 100 ms/,
    ],
    [{ extensions: { queues: { visibilityTimeout: 5 } } }, /visibilityTimeout must be a TimeSpan/],
    [{ extensions: { http: { routePrefix: 3 } } }, /routePrefix must be a string/],
    [{ extensions: [] }, /extensions must be an object/],
    [{ functionTimeout: '00:00:00' }, /functionTimeout must be positive/],
    [[], /must contain a JSON object/],
  ])('refuses %j', (hostJson, reason) => {
    expect(() => readHostSettings(hostJson)).toThrow(reason);
  });
});

describe('binding expressions', () => {
  test('replace %SETTING% with the setting, anywhere in the text', () => {
    expect(resolveBindingExpressions('%PREFIX%-orders-%ENV%', { PREFIX: 'app', ENV: 'dev' })).toBe(
      'app-orders-dev',
    );
    expect(resolveBindingExpressions('plain', {})).toBe('plain');
  });

  test('an unset or empty setting is an error naming it', () => {
    expect(() => resolveBindingExpressions('%MISSING%', {})).toThrow(
      new BindingExpressionError('MISSING'),
    );
    expect(() => resolveBindingExpressions('%EMPTY%', { EMPTY: '' })).toThrow(
      "'%EMPTY%' does not resolve to a value.",
    );
  });
});
