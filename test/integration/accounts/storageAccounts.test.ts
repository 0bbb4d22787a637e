/**
 * The accounts view behind `GET /storage/accounts` as the composition root builds it
 * (functions/shared/composition/accounts.ts): with one account there is no account layer and the
 * home account's departments are those of the listing; with data accounts each account counts
 * the departments placed in it.
 */
import { createServices } from '../../../functions/shared/services';
import { azuriteConnectionString } from '../../support/storage';
import {
  removeEverywhere,
  spreadConfig,
  spreadSettings,
  uniqueStorageSettings,
} from '../../support/accounts';

const single = { AzureWebJobsStorage: azuriteConnectionString(), ...uniqueStorageSettings() };
const spread = spreadSettings();
afterAll(() => Promise.all([removeEverywhere(single), removeEverywhere(spread)]));

const counts = (items: { name: string; departments: number }[]) =>
  items.map(({ name, departments }) => [name, departments]);

it('counts the listed departments in home when data lives in one account', async () => {
  const services = createServices(() => spreadConfig(single));
  expect(services.accounts()).toBeUndefined();
  expect(services.placement().spread).toBe(false);
  await services.directory().departments.put('Sales', {});
  await services.directory().departments.put('HR', {});
  expect(counts(await services.storageAccounts()())).toEqual([['home', 2]]);
});

it('counts the departments placed in each account when data is spread', async () => {
  const services = createServices(() => spreadConfig(spread));
  expect(services.accounts()?.accounts.names()).toEqual(['home', 'DATA1', 'DATA2']);
  // Sales is placed in DATA1, HR in DATA2 (rendezvous hashing of their names).
  await services.directory().departments.put('Sales', {});
  await services.directory().departments.put('HR', {});
  expect(counts(await services.storageAccounts()())).toEqual([
    ['home', 0],
    ['DATA1', 1],
    ['DATA2', 1],
  ]);
});
