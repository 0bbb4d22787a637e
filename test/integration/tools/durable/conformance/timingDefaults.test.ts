/**
 * Conformance: the timing settings. Without host.json values the local runtime uses the
 * extension's own defaults (azure-functions-durable-extension, Options/AzureStorageOptions.cs:
 * `MaxQueuePollingInterval` 30 s, `PartitionCount` 4 (1-16);
 * AzureStorageDurabilityProviderFactory.cs: 5 orchestrator and 10 activity functions at a time on
 * Consumption), and the app's host.json sets every one of them explicitly, so the local runtime
 * and Azure run with the same values.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TUNING } from '../../../../../tools/durable';
import { readDurableHostSettings } from '../../../../../tools/durable/hostSettings';

const hostJson = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, '../../../../../host.json'), 'utf8'),
) as {
  extensions: {
    durableTask: Record<string, unknown> & { storageProvider: Record<string, unknown> };
  };
};

describe('conformance: timing defaults', () => {
  it("defaults to the extension's own values", () => {
    expect(DEFAULT_TUNING).toMatchObject({
      maxPollIntervalMs: 30_000,
      orchestrationConcurrency: 5,
      activityConcurrency: 10,
    });
  });

  it('has host.json set polling, partitions and concurrency explicitly, read alike locally', () => {
    const durable = hostJson.extensions.durableTask;
    expect(durable.maxConcurrentOrchestratorFunctions).toEqual(expect.any(Number));
    expect(durable.maxConcurrentActivityFunctions).toEqual(expect.any(Number));
    expect(durable.storageProvider.maxQueuePollingInterval).toEqual(expect.any(String));
    expect(durable.storageProvider.partitionCount).toEqual(expect.any(Number));
    const local = readDurableHostSettings(durable, {});
    expect(local.tuning).toMatchObject({
      orchestrationConcurrency: durable.maxConcurrentOrchestratorFunctions,
      activityConcurrency: durable.maxConcurrentActivityFunctions,
    });
    expect(local.partitionCount).toBe(durable.storageProvider.partitionCount);
  });

  it('refuses a partition count the extension refuses', () => {
    expect(() => readDurableHostSettings({ storageProvider: { partitionCount: 17 } }, {})).toThrow(
      /partitionCount/,
    );
  });
});
