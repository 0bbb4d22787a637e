/**
 * The durable settings on the local host: Durable's own host.json names, overridable by
 * `AzureFunctionsJobHost__extensions__durableTask__*` app settings, with local defaults.
 */
import { decodeReturnValue } from '../../../../tools/durable/hostExtension';
import {
  defaultTaskHub,
  readDurableHostSettings,
  SETTING_PREFIX,
} from '../../../../tools/durable/hostSettings';

describe('durable settings on the local host', () => {
  it('leaves the hub to the host when none is configured, on AzureWebJobsStorage', () => {
    expect(readDurableHostSettings(undefined, {})).toEqual({
      taskHub: undefined,
      connectionName: 'AzureWebJobsStorage',
      tuning: {},
    });
  });

  it('derives a default hub from the host id: stable per app, distinct per test host', () => {
    expect(defaultTaskHub('local-32993dd054bd8aea541e7d81e0')).toBe(
      'Hublocal32993dd054bd8aea541e7d81e0',
    );
    expect(defaultTaskHub('test-0123456789abcdef')).toBe('Hubtest0123456789abcdef');
    expect(defaultTaskHub('a'.repeat(60))).toHaveLength(45);
  });

  it('reads host.json extensions.durableTask', () => {
    const settings = readDurableHostSettings(
      {
        hubName: 'DirectoryHub',
        maxConcurrentActivityFunctions: 4,
        storageProvider: {
          connectionStringName: 'DurableStorage',
          workItemQueueVisibilityTimeout: '00:05:00',
          maxQueuePollingInterval: '00:00:02.500',
        },
      },
      {},
    );
    expect(settings).toEqual({
      taskHub: 'DirectoryHub',
      connectionName: 'DurableStorage',
      tuning: { leaseSeconds: 300, maxPollIntervalMs: 2500, activityConcurrency: 4 },
    });
  });

  it('reads the connection from storageProvider.connectionName, the obsolete connectionStringName too', () => {
    const connection = (storageProvider: Record<string, string>): string =>
      readDurableHostSettings({ storageProvider }, {}).connectionName;
    expect(connection({ connectionName: 'DurableStorage' })).toBe('DurableStorage');
    expect(connection({ connectionStringName: 'OldName' })).toBe('OldName');
    expect(connection({ connectionName: 'DurableStorage', connectionStringName: 'OldName' })).toBe(
      'DurableStorage',
    );
    // An app setting of either name beats host.json (the e2e tests override the obsolete name).
    for (const name of ['connectionName', 'connectionStringName']) {
      expect(
        readDurableHostSettings(
          { storageProvider: { connectionName: 'AzureWebJobsStorage' } },
          { [`${SETTING_PREFIX}storageProvider__${name}`]: 'FromSetting' },
        ).connectionName,
      ).toBe('FromSetting');
    }
  });

  it('lets app settings override host.json, as in Azure', () => {
    const settings = readDurableHostSettings(
      { hubName: 'DirectoryHub', storageProvider: { workItemQueueVisibilityTimeout: '00:05:00' } },
      {
        [`${SETTING_PREFIX}hubName`]: 'TestRunHub',
        [`${SETTING_PREFIX}storageProvider__workItemQueueVisibilityTimeout`]: '00:00:02',
        [`${SETTING_PREFIX}maxConcurrentOrchestratorFunctions`]: '2',
      },
    );
    expect(settings).toMatchObject({
      taskHub: 'TestRunHub',
      tuning: { leaseSeconds: 2, orchestrationConcurrency: 2 },
    });
  });

  it('names the setting that is malformed', () => {
    expect(() =>
      readDurableHostSettings({ storageProvider: { maxQueuePollingInterval: 'soon' } }, {}),
    ).toThrow(/durableTask\.storageProvider\.maxQueuePollingInterval/);
    expect(() =>
      readDurableHostSettings({}, { [`${SETTING_PREFIX}maxConcurrentActivityFunctions`]: '0' }),
    ).toThrow(/maxConcurrentActivityFunctions/);
    expect(() => readDurableHostSettings({ hubName: 42 }, {})).toThrow(/hubName must be a string/);
  });

  it('reads function return values from RPC typed data, keeping strings as strings', () => {
    expect(decodeReturnValue({ json: '{"isDone":true}' })).toEqual({ isDone: true });
    expect(decodeReturnValue({ string: '5' })).toBe('5');
    expect(decodeReturnValue({ int: 5 })).toBe(5);
    expect(decodeReturnValue({ double: 1.5 })).toBe(1.5);
    expect(decodeReturnValue(null)).toBeUndefined();
    expect(decodeReturnValue({})).toBeUndefined();
  });
});
