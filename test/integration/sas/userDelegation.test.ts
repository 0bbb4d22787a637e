/**
 * The managed-identity path: no account key, so blob SAS are user delegation SAS signed with a
 * key from `Get User Delegation Key`. Azurite serves that operation only with `--oauth basic`
 * over HTTPS, so this suite starts its own Azurite with a throw-away self-signed certificate and
 * authenticates with a JWT-shaped bearer token that Azurite's basic OAuth accepts (issuer, audience
 * and lifetime are checked, the signature is not).
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AccessToken, TokenCredential } from '@azure/core-auth';
import { loadConfig, MAX_SAS_MINUTES, type Config } from '../../../src/config';
import { NotConfiguredError } from '../../../src/domainErrors';
import { createStorageClients, type StorageClients } from '../../../src/storage/clients';
import { employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { photoBlobName } from '../../../src/storage/keys/blobs/photoBlobs';
import { PHOTO_BLOB_PROPERTY } from '../../../src/photos/photoLocator';
import { MAX_DELEGATION_KEY_MS } from '../../../src/storage/blobSas';
import { startAzurite, type RunningAzurite } from '../../../tools/azurite';
import { createLoopbackCertificate, type CertificateFiles } from '../../../tools/certs';
import { uniqueName, uniqueTableName } from '../../support/storage';
import { admin, blobClientFrom, newSasService, principal } from './fixture';

const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const OBJECT_ID = '0b0f2c7e-4b8e-4a5f-9a0e-5d2f7c1e9a11';

/** A token shaped like one Entra ID issues for storage (unsigned: Azurite does not verify it). */
function fakeEntraToken(): AccessToken {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const token = [
    part({ alg: 'RS256', typ: 'JWT' }),
    part({
      aud: 'https://storage.azure.com',
      iss: `https://sts.windows.net/${TENANT}/`,
      iat: now - 60,
      nbf: now - 60,
      exp: now + 3600,
      oid: OBJECT_ID,
      tid: TENANT,
    }),
    'signature',
  ].join('.');
  return { token, expiresOnTimestamp: (now + 3600) * 1000 };
}

const credential: TokenCredential = { getToken: async () => fakeEntraToken() };

let certificate: CertificateFiles;
let azurite: RunningAzurite;
let keyed: StorageClients;
let identity: StorageClients;
let config: Config;
const originalCreateConnection = https.Agent.prototype.createConnection;

/**
 * Makes this worker's HTTPS clients trust the throw-away certificate for connections to the
 * test's own Azurite ports only (what NODE_EXTRA_CA_CERTS would do, scoped and undoable; jest
 * workers are already running, so environment variables cannot do it).
 */
function trustCertificateFor(ports: number[], certPem: string): void {
  https.Agent.prototype.createConnection = function (this: https.Agent, options, callback) {
    const trusted = ports.includes(Number(options.port)) ? { ...options, ca: certPem } : options;
    return originalCreateConnection.call(this, trusted, callback);
  };
}
const photoBytes = Buffer.from('photo via user delegation');
const DEPT = 'Sales';

beforeAll(async () => {
  certificate = await createLoopbackCertificate();
  azurite = await startAzurite({
    extraArgs: ['--oauth', 'basic', '--cert', certificate.certPath, '--key', certificate.keyPath],
    https: true,
  });
  trustCertificateFor(Object.values(azurite.ports), certificate.certPem);

  config = loadConfig({
    AzureWebJobsStorage: azurite.connectionString,
    EMPLOYEES_TABLE: uniqueTableName('Emp'),
    PHOTOS_CONTAINER: uniqueName('photos'),
  });
  keyed = createStorageClients(config.storage, config.retry);
  const base = (port: number): string => `https://127.0.0.1:${port}/devstoreaccount1`;
  identity = createStorageClients(
    {
      kind: 'identity',
      accountName: 'devstoreaccount1',
      tableServiceUri: base(azurite.ports.table),
      queueServiceUri: base(azurite.ports.queue),
      blobServiceUri: base(azurite.ports.blob),
    },
    config.retry,
    credential,
  );

  await keyed.container(config.containers.photos).create();
  await keyed.table(config.tables.employees).createTable();
  const current = photoBlobName(DEPT, '000223', 'v1');
  await keyed
    .container(config.containers.photos)
    .getBlockBlobClient(current)
    .uploadData(photoBytes);
  await keyed.table(config.tables.employees).createEntity({
    partitionKey: DEPT,
    rowKey: employeeRowKey('000223'),
    [PHOTO_BLOB_PROPERTY]: current,
  });
});

afterAll(async () => {
  await azurite?.stop();
  if (certificate) fs.rmSync(certificate.dir, { recursive: true, force: true });
  https.Agent.prototype.createConnection = originalCreateConnection;
});

describe('user delegation SAS (managed identity, no account key)', () => {
  it('signs photo tokens with a user delegation key, and they work against storage', async () => {
    const service = newSasService({ clients: identity, config });
    const fetchKey = jest.spyOn(identity.blobService(), 'getUserDelegationKey');

    const read = await service.photoSas(admin, DEPT, '000223', 'read');
    expect(read.signedWith).toBe('userDelegationKey');
    expect(read.url.startsWith('https://')).toBe(true);
    const params = new URLSearchParams(read.sas);
    expect(params.get('skoid')).toBe(OBJECT_ID);
    expect(params.get('sktid')).toBe(TENANT);
    expect(params.get('spr')).toBe('https,http');
    expect((await blobClientFrom(read.url).downloadToBuffer()).equals(photoBytes)).toBe(true);
    await expect(blobClientFrom(read.url).uploadData(Buffer.from('x'))).rejects.toMatchObject({
      statusCode: 403,
    });

    const write = await service.photoSas(
      principal({ employee: { department: DEPT, employeeId: '000223' } }),
      DEPT,
      '000223',
      'write',
    );
    expect(write.signedWith).toBe('userDelegationKey');
    await blobClientFrom(write.url).uploadData(photoBytes);
    await expect(blobClientFrom(write.url).downloadToBuffer()).rejects.toMatchObject({
      statusCode: 403,
    });

    // One key served both tokens: issuance does not cost a round trip per token.
    expect(fetchKey).toHaveBeenCalledTimes(1);
    fetchKey.mockRestore();
  });

  it('asks for a key within Azure’s 7 days, and its token within the cap, at the longest lifetime', async () => {
    const longest = loadConfig({
      AzureWebJobsStorage: azurite.connectionString,
      EMPLOYEES_TABLE: config.tables.employees,
      PHOTOS_CONTAINER: config.containers.photos,
      SAS_MAX_MINUTES: String(MAX_SAS_MINUTES),
    });
    const service = newSasService({ clients: identity, config: longest });
    const fetchKey = jest.spyOn(identity.blobService(), 'getUserDelegationKey');
    const read = await service.photoSas(admin, DEPT, '000223', 'read', MAX_SAS_MINUTES);
    expect(fetchKey).toHaveBeenCalledTimes(1);
    // getUserDelegationKey(startsOn, expiresOn): the typings pick the options overload.
    const keyExpiresOn = (fetchKey.mock.calls[0]![1] as unknown as Date).getTime();
    fetchKey.mockRestore();
    // Azure refuses a key that expires more than 7 days after its now (a storage clock behind
    // this one has 5 minutes); Azurite does not check, so the request is what is held to it.
    expect(MAX_DELEGATION_KEY_MS).toBe(7 * 24 * 60 * 60_000 - 5 * 60_000);
    expect(keyExpiresOn).toBeLessThanOrEqual(Date.now() + MAX_DELEGATION_KEY_MS);
    // The key outlives the token, whose validity (se − st) is the cap, not the cap + 5 minutes.
    const expiresOn = Date.parse(read.expiresOn);
    expect(keyExpiresOn).toBeGreaterThanOrEqual(expiresOn);
    expect(expiresOn - Date.parse(read.startsOn)).toBe(MAX_SAS_MINUTES * 60_000);
    expect((await blobClientFrom(read.url).downloadToBuffer()).equals(photoBytes)).toBe(true);
  });

  it('is refused when the token is edited (the signature covers the permissions)', async () => {
    const service = newSasService({ clients: identity, config });
    const read = await service.photoSas(admin, DEPT, '000223', 'read');
    const forged = read.url.replace(/([?&])sp=r(&|$)/, '$1sp=rcw$2');
    expect(forged).not.toBe(read.url);
    await expect(blobClientFrom(forged).uploadData(Buffer.from('x'))).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('has no table SAS without an account key (501 NotConfigured)', async () => {
    const service = newSasService({ clients: identity, config });
    await expect(service.departmentSas(admin, DEPT)).rejects.toThrow(NotConfiguredError);
  });

  // Microsoft's advice: user delegation wherever the app has an identity; a configured key then
  // signs table SAS only (docs/deploy.md "The storage key").
  it('keeps user delegation for blob SAS when a key is configured too', async () => {
    const withKey = loadConfig({
      AzureWebJobsStorage: azurite.connectionString,
      EMPLOYEES_TABLE: config.tables.employees,
      PHOTOS_CONTAINER: config.containers.photos,
      STORAGE_ACCOUNT_KEY: keyed.sharedKey!.accountKey,
    });
    const service = newSasService({ clients: identity, config: withKey });
    const read = await service.photoSas(admin, DEPT, '000223', 'read');
    expect(read.signedWith).toBe('userDelegationKey');
    expect(new URLSearchParams(read.sas).get('skoid')).toBe(OBJECT_ID);
    expect((await blobClientFrom(read.url).downloadToBuffer()).equals(photoBytes)).toBe(true);
  });

  it('signs blob SAS with the key where the app itself connects with one', async () => {
    const service = newSasService({ clients: keyed, config });
    const read = await service.photoSas(admin, DEPT, '000223', 'read');
    expect(read.signedWith).toBe('accountKey');
    expect(new URLSearchParams(read.sas).has('skoid')).toBe(false);
    expect((await blobClientFrom(read.url).downloadToBuffer()).equals(photoBytes)).toBe(true);
  });
});
