/**
 * What the deployed host relies on: unique, valid function names across functions/, and the
 * host.json queue and Durable settings, read the same way by the local host (tools/host).
 */
import path from 'node:path';
import { readDurableHostSettings } from '../../../tools/durable/hostSettings';
import { loadHostSettings } from '../../../tools/host/config/hostJson';
import { readRepoFile, REPO_ROOT } from './bicep';
import { registeredFunctions } from './registrations';

interface Registration {
  name: string;
  kind: string;
  file: string;
}

function registrations(): Registration[] {
  return registeredFunctions().map((fn) => ({
    name: fn.name,
    kind: fn.trigger?.type ?? 'unknown',
    file: fn.file,
  }));
}

let cachedRegistrations: Registration[] | undefined;
const registered = (): Registration[] => (cachedRegistrations ??= registrations());

/** `hh:mm:ss` (host.json TimeSpan) in milliseconds. */
function timeSpanMs(text: string): number {
  const match = /^(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!match) throw new Error(`host.json TimeSpan "${text}" is not hh:mm:ss`);
  return ((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000;
}

const hostJson = JSON.parse(readRepoFile('host.json')) as {
  extensions: {
    queues: Record<string, string | number>;
    durableTask: {
      hubName: string;
      storageProvider?: {
        connectionName?: string;
        connectionStringName?: string;
        maxQueuePollingInterval?: string;
      };
    };
  };
  functionTimeout: string;
};

describe('function registrations', () => {
  it('finds the registered functions', () => {
    expect(registered().map((r) => r.name)).toEqual(
      expect.arrayContaining(['health', 'dropExpiredLoginTables', 'sweepUnadoptedPhotos']),
    );
    expect(registered().find((r) => r.name === 'sweepUnadoptedPhotos')?.kind).toBe('timerTrigger');
  });

  it('uses each function name once across functions/ (names are case-insensitive)', () => {
    const byName = new Map<string, Registration[]>();
    for (const registration of registered()) {
      const key = registration.name.toLowerCase();
      byName.set(key, [...(byName.get(key) ?? []), registration]);
    }
    const duplicates = [...byName.values()]
      .filter((list) => list.length > 1)
      .map(
        (list) =>
          `function name "${list[0]!.name}" is registered ${list.length} times: ${list.map((r) => `${r.kind} in ${r.file}`).join(', ')}`,
      );
    expect(duplicates).toEqual([]);
  });

  it('uses names the Functions host accepts (no "admin" prefix, which the host reserves)', () => {
    const invalid = registered()
      .filter((r) => !/^[A-Za-z][A-Za-z0-9_-]{0,127}$/.test(r.name) || /^admin/i.test(r.name))
      .map(
        (r) =>
          `function name "${r.name}" (${r.kind} in ${r.file}) is not a valid host function name`,
      );
    expect(invalid).toEqual([]);
  });
});

describe('host.json', () => {
  const queues = hostJson.extensions.queues;

  it('sets every queue trigger setting explicitly, with sane values', () => {
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
    expect(queues.maxDequeueCount).toEqual(expect.any(Number));
    expect(queues.maxDequeueCount).toBeGreaterThanOrEqual(2);
    expect(queues.batchSize).toBeGreaterThanOrEqual(1);
    expect(queues.batchSize).toBeLessThanOrEqual(32);
    expect(queues.newBatchThreshold).toBeLessThanOrEqual(Number(queues.batchSize));
    expect(timeSpanMs(String(queues.maxPollingInterval))).toBeGreaterThanOrEqual(100);
    expect(timeSpanMs(String(queues.visibilityTimeout))).toBeGreaterThan(0);
    // src/storage/queue.ts writes base64 JSON, which the trigger must decode.
    expect(queues.messageEncoding).toBe('base64');
  });

  it('is read by the local host with exactly the values the file holds', () => {
    const local = loadHostSettings(path.join(REPO_ROOT, 'host.json')).queues;
    expect(local).toEqual({
      maxPollingIntervalMs: timeSpanMs(String(queues.maxPollingInterval)),
      visibilityTimeoutMs: timeSpanMs(String(queues.visibilityTimeout)),
      batchSize: queues.batchSize,
      newBatchThreshold: queues.newBatchThreshold,
      maxDequeueCount: queues.maxDequeueCount,
      messageEncoding: queues.messageEncoding,
    });
  });

  it('keeps the function timeout within the Flex Consumption default limit of 30 minutes', () => {
    expect(timeSpanMs(hostJson.functionTimeout)).toBeLessThanOrEqual(30 * 60_000);
  });

  it('names a valid Durable task hub on the identity-based AzureWebJobsStorage connection', () => {
    const durable = hostJson.extensions.durableTask;
    // Task hub names: 3-45 letters and digits, starting with a letter.
    expect(durable.hubName).toMatch(/^[A-Za-z][A-Za-z0-9]{2,44}$/);
    expect(durable.storageProvider?.connectionName ?? 'AzureWebJobsStorage').toBe(
      'AzureWebJobsStorage',
    );
    // connectionStringName is the extension's obsolete name for the same setting.
    expect(durable.storageProvider?.connectionStringName).toBeUndefined();
  });

  it('polls the task hub queues at least every 10 s when idle, as Microsoft advises for Flex Consumption', () => {
    // https://learn.microsoft.com/azure/azure-functions/durable/durable-functions-azure-storage-provider#flex-consumption-plan:
    // "Reduce the queue polling interval to 10 seconds or less" (the extension's default is 30 s,
    // so an orchestration waits up to that long between steps after a quiet period).
    const interval = hostJson.extensions.durableTask.storageProvider?.maxQueuePollingInterval;
    expect(interval).toBeDefined();
    expect(timeSpanMs(interval!)).toBeLessThanOrEqual(10_000);
    expect(timeSpanMs(interval!)).toBeGreaterThanOrEqual(1_000);
    // The local runtime honours the same bound.
    const local = readDurableHostSettings(hostJson.extensions.durableTask, {});
    expect(local.tuning.maxPollIntervalMs).toBe(timeSpanMs(interval!));
  });

  it('is read by the local durable runtime with the same connection and hub', () => {
    const local = readDurableHostSettings(hostJson.extensions.durableTask, {});
    expect(local.connectionName).toBe(
      hostJson.extensions.durableTask.storageProvider?.connectionName ?? 'AzureWebJobsStorage',
    );
    expect(local.taskHub).toBe(hostJson.extensions.durableTask.hubName);
  });
});
