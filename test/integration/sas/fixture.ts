/**
 * A SAS service over the shared Azurite with its own tables and containers, plus the clients a
 * "client application" would build from the tokens it is handed.
 */
import { AzureSASCredential, TableClient } from '@azure/data-tables';
import { BlockBlobClient, ContainerClient } from '@azure/storage-blob';
import { loadConfig, type Config } from '../../../src/config';
import type { EmployeeIdentity, Principal } from '../../../src/identity/principal';
import { createStorageClients, type StorageClients } from '../../../src/storage/clients';
import { SasService, type BlobSasGrant, type TableSasGrant } from '../../../src/sas/service';
import { createSasSigning } from '../../../src/sas/signingKey';
import type { PhotoLocator } from '../../../src/photos/photoLocator';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';

export interface SasFixture {
  config: Config;
  clients: StorageClients;
  service: SasService;
  /** Another service on the same storage and settings (another instance, another clock...). */
  serviceWith(options: {
    env?: Record<string, string>;
    now?: () => Date;
    photoLocator?: PhotoLocator;
  }): SasService;
  cleanup(): Promise<void>;
}

/**
 * A SAS service wired as the composition root wires it (functions/shared/services.ts): one
 * signing over `clients`, keyed clients built by the client factory.
 */
export function newSasService(options: {
  clients: StorageClients;
  config: Config;
  now?: () => Date;
  photoLocator?: PhotoLocator;
}): SasService {
  const { clients, config, now } = options;
  const connect = (connection: Config['storage']): StorageClients =>
    createStorageClients(connection, config.retry);
  return new SasService({
    ...options,
    signing: createSasSigning({ clients, config, connect, now }),
  });
}

/** Creates uniquely named Employees/EmployeeExpenses tables and photos/logs containers. */
export async function createSasFixture(env: Record<string, string> = {}): Promise<SasFixture> {
  const names = {
    EMPLOYEES_TABLE: uniqueTableName('Emp'),
    EXPENSES_TABLE: uniqueTableName('Exp'),
    PHOTOS_CONTAINER: uniqueName('photos'),
    LOGS_CONTAINER: uniqueName('logs'),
  };
  const configFor = (extra: Record<string, string> = {}): Config =>
    loadConfig({ ...process.env, ...names, ...env, ...extra });
  const config = configFor();
  const clients = testClients();
  await clients.table(config.tables.employees).createTable();
  await clients.table(config.tables.expenses).createTable();
  await clients.container(config.containers.photos).create();
  await clients.container(config.containers.logs).create();
  return {
    config,
    clients,
    service: newSasService({ clients, config }),
    serviceWith: (options) =>
      newSasService({
        clients,
        config: configFor(options.env),
        now: options.now,
        photoLocator: options.photoLocator,
      }),
    async cleanup() {
      await clients.table(config.tables.employees).deleteTable();
      await clients.table(config.tables.expenses).deleteTable();
      await clients.container(config.containers.photos).deleteIfExists();
      await clients.container(config.containers.logs).deleteIfExists();
    },
  };
}

/** A principal as the identity module would parse it (an employee is department + id). */
export function principal(
  options: { roles?: string[]; employee?: EmployeeIdentity } = {},
): Principal {
  const { roles = [], employee } = options;
  return {
    userId: employee ? `user-${employee.department}-${employee.employeeId}` : 'user-x',
    roles: new Set(roles),
    ...(employee ? { employee } : {}),
    claims: [],
  };
}

export const admin = principal({ roles: ['DirectoryAdmin'] });

// A client application retries what the SDKs retry by default: a dropped connection (such as a
// kept-alive socket the emulator closes just as it is reused, likelier on a loaded machine) and
// 5xx, never a refusal (403 is final). Short delays keep a refused token's test quick.
const TABLE_RETRIES = { maxRetries: 2, retryDelayInMs: 50 };
const BLOB_RETRIES = { maxTries: 3, retryDelayInMs: 50 };

/** What a client application does with a table grant. */
export function tableClientFrom(
  grant: TableSasGrant,
  sas = grant.sas,
  table = grant.table,
): TableClient {
  return new TableClient(grant.url, table, new AzureSASCredential(sas), {
    allowInsecureConnection: true,
    retryOptions: TABLE_RETRIES,
  });
}

/** What a client application does with a blob grant. */
export function blobClientFrom(url: string): BlockBlobClient {
  return new BlockBlobClient(url, undefined, { retryOptions: BLOB_RETRIES });
}

/** What a client application does with a container grant. */
export function containerClientFrom(grant: BlobSasGrant): ContainerClient {
  return new ContainerClient(grant.url, undefined, { retryOptions: BLOB_RETRIES });
}

/** Reads every entity a table client can see. */
export async function listAll(
  client: TableClient,
): Promise<{ partitionKey: string; rowKey: string }[]> {
  const rows: { partitionKey: string; rowKey: string }[] = [];
  for await (const entity of client.listEntities()) {
    rows.push({ partitionKey: entity.partitionKey!, rowKey: entity.rowKey! });
  }
  return rows;
}

/** Replaces one query parameter of a SAS, keeping everything else byte for byte (a tampering client). */
export function tamper(sas: string, name: string, value: string): string {
  const parts = sas.split('&');
  const index = parts.findIndex((part) => part.startsWith(`${name}=`));
  if (index < 0) throw new Error(`The SAS has no ${name} parameter.`);
  parts[index] = `${name}=${encodeURIComponent(value)}`;
  return parts.join('&');
}
