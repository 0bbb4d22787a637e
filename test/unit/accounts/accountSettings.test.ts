/**
 * The accounts settings (docs/accounts.md): `DATA_ACCOUNTS` names connections resolved as the
 * Functions host resolves them, `ACCOUNT_WEIGHTS` weighs them; unset, nothing changes.
 */
import { ConfigError, loadConfig } from '../../../src/config';

const HOME = { AzureWebJobsStorage: 'UseDevelopmentStorage=true' };

function error(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ ...HOME, ...env });
  } catch (caught) {
    if (caught instanceof ConfigError) return caught;
    throw caught;
  }
  throw new Error('expected a ConfigError');
}

it('has no data account and home weighs 1 when DATA_ACCOUNTS is unset', () => {
  expect(loadConfig(HOME).accounts).toEqual({
    data: [],
    weights: { home: 1 },
    placementCacheMs: 5_000,
    relocationChunkRows: 1_000,
  });
});

it('resolves each data account as the host resolves a connection', () => {
  const { accounts } = loadConfig({
    ...HOME,
    DATA_ACCOUNTS: 'DATA1, DATA2,Archive_1',
    DATA1:
      'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=a2V5;EndpointSuffix=core.windows.net',
    DATA2__accountName: 'stdata2',
    DATA2__credential: 'managedidentity',
    DATA2__clientId: 'client-id',
    DATA2__accountKey: 'a2V5Mg==',
    Archive_1__tableServiceUri: 'https://x.table.core.windows.net',
    Archive_1__blobServiceUri: 'https://x.blob.core.windows.net',
  });
  expect(accounts.data.map((d) => d.name)).toEqual(['DATA1', 'DATA2', 'Archive_1']);
  expect(accounts.data[0]!.connection.kind).toBe('connectionString');
  expect(accounts.data[1]).toEqual({
    name: 'DATA2',
    accountKey: 'a2V5Mg==',
    connection: {
      kind: 'identity',
      accountName: 'stdata2',
      tableServiceUri: 'https://stdata2.table.core.windows.net',
      queueServiceUri: 'https://stdata2.queue.core.windows.net',
      blobServiceUri: 'https://stdata2.blob.core.windows.net',
      clientId: 'client-id',
    },
  });
  // A data account needs no queue: its URI is derived when not given.
  expect(accounts.data[2]!.connection).toMatchObject({
    queueServiceUri: 'https://x.queue.core.windows.net',
  });
  expect(accounts.weights).toEqual({ home: 0, DATA1: 1, DATA2: 1, Archive_1: 1 });
});

it('takes weights by name, and refuses unknown names, bad numbers and all zeros', () => {
  const env = {
    DATA_ACCOUNTS: 'DATA1,DATA2',
    DATA1: 'UseDevelopmentStorage=true',
    DATA2: 'UseDevelopmentStorage=true',
  };
  expect(
    loadConfig({ ...HOME, ...env, ACCOUNT_WEIGHTS: 'DATA2=3, home=1' }).accounts.weights,
  ).toEqual({
    home: 1,
    DATA1: 1,
    DATA2: 3,
  });
  expect(error({ ...env, ACCOUNT_WEIGHTS: 'DATA3=1' }).setting).toBe('ACCOUNT_WEIGHTS');
  expect(error({ ...env, ACCOUNT_WEIGHTS: 'DATA1=x' }).setting).toBe('ACCOUNT_WEIGHTS');
  expect(error({ ...env, ACCOUNT_WEIGHTS: 'DATA1=0,DATA2=0' }).setting).toBe('ACCOUNT_WEIGHTS');
});

it('names the setting that is wrong', () => {
  expect(error({ DATA_ACCOUNTS: 'home' }).setting).toBe('DATA_ACCOUNTS');
  expect(error({ DATA_ACCOUNTS: 'DATA1,data1' }).setting).toBe('DATA_ACCOUNTS');
  expect(error({ DATA_ACCOUNTS: '1DATA' }).setting).toBe('DATA_ACCOUNTS');
  const missing = error({ DATA_ACCOUNTS: 'DATA1' });
  expect([missing.setting, missing.problem]).toEqual(['DATA1', 'missing']);
  expect(
    error({ DATA_ACCOUNTS: 'DATA1', DATA1__accountName: 'a', DATA1__credential: 'secret' }).setting,
  ).toBe('DATA1__credential');
});
