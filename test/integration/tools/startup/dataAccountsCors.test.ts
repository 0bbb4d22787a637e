/**
 * `npm start` with `DATA_ACCOUNTS` on emulators: the console's CORS rule is set on each data
 * account's blob and table services too (a department's photos, expenses and log lines are read
 * from its own account), and only on emulators on this machine — never on an account elsewhere.
 */
import { BlobServiceClient } from '@azure/storage-blob';
import { TableServiceClient } from '@azure/data-tables';
import { dataEmulatorAccount, startAzurite, type RunningAzurite } from '../../../../tools/azurite';
import {
  allowConsoleOnDataEmulators,
  emulatedDataAccounts,
} from '../../../../tools/startup/dataAccountsCors';

let data: RunningAzurite;

// An emulator of its own: the shared test emulators keep the rule the browser tests set.
beforeAll(async () => {
  data = await startAzurite({ account: dataEmulatorAccount(1) });
}, 60_000);
afterAll(() => data?.stop());

const ELSEWHERE =
  'DefaultEndpointsProtocol=https;AccountName=contosodata;AccountKey=a2V5;EndpointSuffix=core.windows.net';

test('sets the rule on every data account that is an emulator here, and on no other', async () => {
  const env: NodeJS.ProcessEnv = {
    DATA_ACCOUNTS: 'DATA1, ELSEWHERE,UNSET',
    DATA1: data.connectionString,
    ELSEWHERE,
  };
  expect(emulatedDataAccounts(env).map((a) => a.name)).toEqual(['DATA1']);
  expect(await allowConsoleOnDataEmulators(env, 7123)).toEqual([
    '  CORS:    the same on the data accounts DATA1',
  ]);
  const origins = 'http://localhost:7123,http://127.0.0.1:7123';
  const blob = await BlobServiceClient.fromConnectionString(data.connectionString).getProperties();
  expect(blob.cors?.map((rule) => rule.allowedOrigins)).toEqual([origins]);
  const table = await TableServiceClient.fromConnectionString(data.connectionString, {
    allowInsecureConnection: true,
  }).getProperties();
  expect(table.cors?.map((rule) => rule.allowedOrigins)).toEqual([origins]);
  expect(await allowConsoleOnDataEmulators({}, 7123)).toEqual([]);
});
