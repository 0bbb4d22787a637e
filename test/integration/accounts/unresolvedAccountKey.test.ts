/**
 * A data account's key that is still an unresolved Key Vault reference (normal right after a
 * first deploy) turns off that account's key-signed SAS only (docs/accounts.md "SAS"): every
 * account's routing keeps working, the other accounts' SAS are still signed, and that account's
 * key-signed SAS answer 503 `KeyVaultReferenceUnresolved` naming the setting, never its text.
 */
import { createServices, type Services } from '../../../functions/shared/services';
import { errorResponse } from '../../../functions/shared/http';
import { rendezvousPick } from '../../../src/accounts/rendezvous';
import { readConfig } from '../../../src/config';
import { SettingUnavailableError } from '../../../src/domainErrors';
import { photoReadUrl, uploadPhoto } from '../../../src/photos/photos';
import { accountClients, removeEverywhere, spreadSettings } from '../../support/accounts';
import { pngImage } from '../../support/images';
import { admin } from '../sas/fixture';

const REFERENCE = '@Microsoft.KeyVault(SecretUri=https://kv-test.vault.azure.net/secrets/data-key)';

/** The first of some department names that placement puts in `account` (DATA1, DATA2 weigh 1). */
function departmentIn(account: string): string {
  const weights = [
    { name: 'home', weight: 0 },
    { name: 'DATA1', weight: 1 },
    { name: 'DATA2', weight: 1 },
  ];
  return ['Sales', 'HR', 'Legal', 'Finance', 'Support', 'Research'].find(
    (name) => rendezvousPick(`department\n${name}`, weights).name === account,
  )!;
}
const inData1 = departmentIn('DATA1');
const inData2 = departmentIn('DATA2');

/** Asserts the 503 a key-signed SAS of an account whose key is unresolved answers. */
function expectUnresolvedKey(error: unknown, setting: string): void {
  expect(error).toBeInstanceOf(SettingUnavailableError);
  const response = errorResponse(error);
  expect(response.status).toBe(503);
  expect(response.jsonBody).toMatchObject({ error: { code: 'KeyVaultReferenceUnresolved' } });
  expect(JSON.stringify(response.jsonBody)).toContain(setting);
  expect(JSON.stringify(response.jsonBody)).not.toContain('kv-test');
}

describe('DATA1__accountKey unresolved beside connection strings', () => {
  const settings = spreadSettings({ DATA1__accountKey: REFERENCE });
  const reading = readConfig({ ...process.env, ...settings });
  let services: Services;
  beforeAll(() => {
    services = createServices(() => reading.config);
  });
  afterAll(() => {
    const { DATA1__accountKey: _key, ...names } = settings;
    return removeEverywhere(names);
  });

  it('reports the one setting and keeps the accounts setting readable', () => {
    expect(reading.problems.map((p) => [p.setting, p.problem])).toEqual([
      ['DATA1__accountKey', 'keyVaultReference'],
    ]);
    expect(reading.config.accounts.data.map((d) => d.name)).toEqual(['DATA1', 'DATA2']);
    expect(reading.config.accounts.data[1]!.accountKey).toBeUndefined();
    expect(() => reading.config.accounts.data[0]!.accountKey).toThrow(SettingUnavailableError);
  });

  it('routes writes, photos and SAS of both accounts (each signed by its connection’s key)', async () => {
    const { departments, employees } = services.directory();
    for (const [department, n] of [
      [inData1, 1],
      [inData2, 2],
    ] as const) {
      const employeeId = String(n).padStart(6, '0');
      await departments.put(department, {});
      await employees.create(department, {
        employeeId,
        firstName: `First${n}`,
        lastName: `Last${n}`,
        email: `u${n}@contoso.com`,
      });
      expect((await employees.get(department, employeeId)).value.lastName).toBe(`Last${n}`);
      await uploadPhoto(
        await services.photosFor(department),
        department,
        employeeId,
        pngImage(),
        'image/png',
      );
      const photo = await photoReadUrl(
        await services.photosFor(department),
        department,
        employeeId,
      );
      expect((await fetch(photo.url)).status).toBe(200);
      await expect(services.sas().departmentSas(admin, department)).resolves.toMatchObject({
        signedWith: 'accountKey',
      });
    }
    await services.changeQueue().settled();
    expect((await services.placement().ofDepartment(inData1)).account).toBe('DATA1');
    expect((await services.placement().ofDepartment(inData2)).account).toBe('DATA2');
  });
});

describe('DATA2 by identity with its __accountKey unresolved', () => {
  // DATA2 reached by identity at the emulator's endpoints. Bearer tokens are refused over plain
  // HTTP, so nothing here reads DATA2's storage: a key-signed SAS fails before any call.
  const keyed = spreadSettings();
  const { DATA2: data2, ...others } = keyed;
  const endpoint = (name: string): string => new RegExp(`${name}=([^;]+)`).exec(data2!)![1]!;
  const settings = {
    ...others,
    DATA2__tableServiceUri: endpoint('TableEndpoint'),
    DATA2__blobServiceUri: endpoint('BlobEndpoint'),
    DATA2__accountKey: REFERENCE,
  };
  const reading = readConfig({ ...process.env, ...settings });
  let services: Services;
  beforeAll(() => {
    services = createServices(() => reading.config);
  });
  afterAll(() => removeEverywhere(keyed));

  it('answers 503 for DATA2’s key-signed SAS only; DATA1’s are signed', async () => {
    expect(reading.problems.map((p) => p.setting)).toEqual(['DATA2__accountKey']);
    // What the first write would have created (DATA2's too, which needs a token over HTTPS).
    const { home, data1 } = accountClients();
    for (const clients of [home, data1]) {
      await clients.table(reading.config.tables.employees).createTable();
    }
    // Placed as a first write places them (the write itself would need DATA2's storage).
    for (const [department, account] of [
      [inData1, 'DATA1'],
      [inData2, 'DATA2'],
    ]) {
      expect((await services.placement().ofDepartment(department!, { place: true })).account).toBe(
        account,
      );
    }
    const sas = services.sas();
    await expect(sas.departmentSas(admin, inData1)).resolves.toMatchObject({
      signedWith: 'accountKey',
      partitionKey: inData1,
    });
    expectUnresolvedKey(
      await sas.departmentSas(admin, inData2).catch((e: unknown) => e),
      'DATA2__accountKey',
    );
    // The photo feature of DATA2 is built and signs read URLs by user delegation, as every blob
    // SAS of an account reached by identity is signed: its key is not needed there at all.
    const photos = await services.photosFor(inData2);
    expect(photos.signer.kind).toBe('userDelegationKey');
  });
});
