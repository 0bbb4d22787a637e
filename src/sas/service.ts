/**
 * SAS issuance (valet key): the app checks who is asking and hands out a short-lived token
 * scoped to exactly what that caller may see; the client then talks to storage directly, so
 * the data never flows through the app.
 *
 * Every token is least privilege: tables read-only and limited to one partition (`spk` = `epk`),
 * a photo blob read (with its checked content type pinned) or create-only (never overwrite, read,
 * delete or list), the logs container read+list.
 */
import {
  BlobSASPermissions,
  ContainerSASPermissions,
  SASProtocol,
  type ContainerClient,
} from '@azure/storage-blob';
import type { Config } from '../config';
import { employeeNotFound } from '../directory';
import { newPhotoVersion } from '../photos/dependencies';
import { employeeEntityPhotoLocator, type PhotoLocator } from '../photos/photoLocator';
import { PHOTO_READ_PERMISSIONS, photoReadGrant } from '../photos/readGrant';
import {
  adminOnly,
  departmentSasForbidden,
  expensesSasForbidden,
  photoReadForbidden,
  photoUploadForbidden,
  sasPolicyNotUsed,
  sasTableNotFound,
} from './sasErrors';
import type { Principal } from '../identity/principal';
import {
  canEditDepartment,
  canReadDepartment,
  DIRECTORY_ADMIN,
  directoryReaderRole,
  isDirectoryAdmin,
  isEmployee,
} from '../identity/roles';
import type { StorageClients } from '../storage/clients';
import { blobUrl, photoBlobName } from '../storage/keys/blobs/photoBlobs';
import { departmentPartitionKey, employeeRowKey } from '../storage/keys/tables/employees';
import { employeePartitionKey } from '../storage/keys/tables/employeePartitions';
import { sasWindow, type SasWindow } from './lifetime';
import { requireKeyedStorage, type SasSigning } from './signingKey';
import { SasPolicyManager, TABLE_SAS_PERMISSION, type PolicyRotation } from './tablePolicy';
import type { BlobSasGrant, PhotoAccess, TableSasGrant } from './grants';
import { signTableSas, type TableSasScope } from './tableSas';
import { ensureContainer, ensureTable } from '../storage/createOnce';
import { readEntity } from '../storage/tables/entities';

export type { BlobSasGrant, PhotoAccess, TableSasGrant, UploadHeaders } from './grants';

/** What SAS issuance needs. */
export interface SasServiceOptions {
  clients: StorageClients;
  config: Config;
  /** How this process signs (the composition root's one {@link SasSigning}). */
  signing: SasSigning;
  /** Finds the current photo; defaults to the employee entity's `PhotoBlob` property. */
  photoLocator?: PhotoLocator;
  now?: () => Date;
}

/** Issues SAS tokens after checking the caller's roles. */
export class SasService {
  private readonly clients: StorageClients;
  private readonly config: Config;
  private readonly now: () => Date;
  private readonly photoLocator: PhotoLocator;
  private readonly policies: SasPolicyManager;
  private readonly signing: SasSigning;
  private readonly containerUrls = new Map<string, string>();
  private photos: ContainerClient | undefined;
  private logs: ContainerClient | undefined;

  constructor(options: SasServiceOptions) {
    this.clients = options.clients;
    this.config = options.config;
    this.now = options.now ?? (() => new Date());
    this.signing = options.signing;
    this.photoLocator =
      options.photoLocator ??
      employeeEntityPhotoLocator(this.clients.table(this.config.tables.employees));
    this.policies = new SasPolicyManager({
      cacheMs: this.config.sas.policyCacheMs,
      emulator: this.clients.isLoopback,
      now: this.now,
    });
  }

  /**
   * Read SAS on `EmployeeExpenses`, limited to one employee's partition.
   *
   * @throws {ValidationError} for a bad department, employee id or lifetime.
   * @throws {ForbiddenError} unless the caller is that employee or a `DirectoryAdmin`.
   * @throws {NotConfiguredError} when no account key is configured.
   */
  async expensesSas(
    principal: Principal,
    department: string,
    employeeId: string,
    minutes?: number,
  ): Promise<TableSasGrant> {
    const partitionKey = employeePartitionKey(department, employeeId);
    const window = this.window(minutes);
    if (!isEmployee(principal, department, employeeId) && !isDirectoryAdmin(principal)) {
      throw expensesSasForbidden(department, employeeId);
    }
    return this.tableSas({ table: this.config.tables.expenses, partitionKey }, window);
  }

  /**
   * Read SAS on `Employees`, limited to the employee entities of one department's partition
   * (RowKeys `empid_000000`–`empid_999999`; reviews and index entities stay out of reach).
   *
   * @throws {ValidationError} for a bad department or lifetime.
   * @throws {ForbiddenError} unless the caller is a `DirectoryAdmin` or `DirectoryReader:{dept}`.
   * @throws {NotConfiguredError} when no account key is configured.
   */
  async departmentSas(
    principal: Principal,
    department: string,
    minutes?: number,
  ): Promise<TableSasGrant> {
    const partitionKey = departmentPartitionKey(department);
    const window = this.window(minutes);
    if (!canReadDepartment(principal, department)) {
      throw departmentSasForbidden(department, directoryReaderRole(department));
    }
    return this.tableSas(
      {
        table: this.config.tables.employees,
        partitionKey,
        rowKeyStart: employeeRowKey('000000'),
        rowKeyEnd: employeeRowKey('999999'),
      },
      window,
    );
  }

  /**
   * Blob SAS for one employee photo. `read`: the current photo (the employee, a `DirectoryAdmin`
   * or a reader of the department), with the response content type pinned (`rsct`) to the type the
   * photo feature checked at adoption. `write`: create-only (`c`) on a new version blob (the
   * employee or a `DirectoryAdmin`): the client uploads there with one Put Blob, then hands the
   * blob name to the photo feature, which checks it before adopting it. A `c` token cannot
   * overwrite a blob that exists, so nothing stored (an adopted photo included) is ever rewritten
   * through it. A write token is issued only for an employee that exists (one projected point
   * read, after the authorization check): nobody can park blobs under the name of an employee the
   * directory does not have. It comes with the `headers` the upload must send
   * (`x-ms-blob-type: BlockBlob`), and the photos container is created if needed (once per
   * process). Uploads that are never adopted are removed by the daily sweep
   * (`sweepUnadoptedPhotos`).
   *
   * @throws {ValidationError} for a bad department, employee id or lifetime.
   * @throws {ForbiddenError} when the caller may not read or replace that photo.
   * @throws {NotFoundError} `PhotoNotFound` for `read` when the employee has no photo (the same
   *   answer as `GET .../photo`: both go through photoReadGrant, src/photos/readGrant.ts);
   *   `EmployeeNotFound` for `write` when the employee does not exist.
   * @throws {DomainError} for storage faults (the employee read, a user delegation key).
   */
  async photoSas(
    principal: Principal,
    department: string,
    employeeId: string,
    access: PhotoAccess,
    minutes?: number,
  ): Promise<BlobSasGrant> {
    departmentPartitionKey(department);
    employeeRowKey(employeeId);
    const window = this.window(minutes);
    const self = isEmployee(principal, department, employeeId);
    if (access === 'write') {
      if (!self && !canEditDepartment(principal, department)) {
        throw photoUploadForbidden(department, employeeId);
      }
      // The container is created once per process (a fresh emulator has none; the infra creates
      // it in Azure): the token would otherwise point at a container that does not exist.
      await Promise.all([
        this.requireEmployee(department, employeeId),
        ensureContainer(this.photoContainer()),
      ]);
      const blobName = photoBlobName(department, employeeId, newPhotoVersion(this.now()));
      const grant = await this.blobSas(
        this.config.containers.photos,
        blobName,
        BlobSASPermissions.from({ create: true }).toString(),
        window,
      );
      return { ...grant, headers: { 'x-ms-blob-type': 'BlockBlob' } };
    }
    if (!self && !canReadDepartment(principal, department)) {
      throw photoReadForbidden(employeeId, directoryReaderRole(department));
    }
    const container = this.config.containers.photos;
    const grant = await photoReadGrant(
      {
        locator: this.photoLocator,
        photos: this.clients.container(container),
        signer: this.signing.blobSigner(),
        allowHttp: this.clients.isLoopback,
      },
      department,
      employeeId,
      window,
    );
    return {
      ...grant,
      ...this.windowFields(window),
      permissions: PHOTO_READ_PERMISSIONS,
      container,
    };
  }

  /**
   * Read+list SAS on the `logs` container.
   *
   * @throws {ValidationError} for a bad lifetime.
   * @throws {ForbiddenError} unless the caller is a `DirectoryAdmin`.
   * @throws {DomainError} when the container cannot be created (storage refuses or is down).
   */
  async logsSas(principal: Principal, minutes?: number): Promise<BlobSasGrant> {
    const window = this.window(minutes);
    requireDirectoryAdmin(principal, 'read the logs container');
    // As for photos: an account no log hour was flushed to yet has no container, and a token
    // listing one that does not exist answers 404 where the reader expects no lines.
    this.logs ??= this.clients.container(this.config.containers.logs);
    await ensureContainer(this.logs);
    return this.blobSas(
      this.config.containers.logs,
      undefined,
      ContainerSASPermissions.from({ read: true, list: true }).toString(),
      window,
    );
  }

  /**
   * Revokes every table SAS bound to the table's current stored access policy.
   *
   * @param table - `Employees` or `EmployeeExpenses` (their configured names, any case).
   * @throws {ForbiddenError} unless the caller is a `DirectoryAdmin`.
   * @throws {NotFoundError} `SasTableNotFound` for a table SAS are not issued for.
   * @throws {NotConfiguredError} when tokens are not bound to policies or no key is configured.
   */
  async rotateSasPolicy(principal: Principal, table: string): Promise<PolicyRotation> {
    requireDirectoryAdmin(principal, 'rotate SAS policies');
    const tableName = this.sasTableNamed(table);
    if (this.config.sas.tablePolicy !== 'stored') {
      throw sasPolicyNotUsed();
    }
    const keyed = requireKeyedStorage(this.signing.keyed(), 'Rotating SAS policies');
    return this.policies.rotate(keyed.clients.table(tableName));
  }

  /**
   * One projected point read (keys only) of the employee entity.
   *
   * @throws {NotFoundError} `EmployeeNotFound` when there is none.
   */
  private async requireEmployee(department: string, employeeId: string): Promise<void> {
    const entity = await readEntity(
      this.clients.table(this.config.tables.employees),
      departmentPartitionKey(department),
      employeeRowKey(employeeId),
      [],
    );
    if (!entity) throw employeeNotFound(department, employeeId);
  }

  /** One client of the photos container, so that it is created once per process. */
  private photoContainer(): ContainerClient {
    this.photos ??= this.clients.container(this.config.containers.photos);
    return this.photos;
  }

  private sasTableNamed(table: string): string {
    const tables = [this.config.tables.employees, this.config.tables.expenses];
    const match = tables.find((name) => name.toLowerCase() === table.toLowerCase());
    if (!match) {
      throw sasTableNotFound(table, tables);
    }
    return match;
  }

  private window(minutes: number | undefined): SasWindow {
    return sasWindow(this.now(), minutes, this.config.sas);
  }

  private windowFields(window: SasWindow): { startsOn: string; expiresOn: string } {
    return { startsOn: window.startsOn.toISOString(), expiresOn: window.expiresOn.toISOString() };
  }

  private get protocol(): SASProtocol {
    return this.clients.isLoopback ? SASProtocol.HttpsAndHttp : SASProtocol.Https;
  }

  private async tableSas(scope: TableSasScope, window: SasWindow): Promise<TableSasGrant> {
    const keyed = requireKeyedStorage(this.signing.keyed(), 'A table SAS');
    const table = keyed.clients.table(scope.table);
    // Created on first use like every table the app writes: before the first expense claim, a
    // grant still reads an empty partition (and binds to a policy), not 404 TableNotFound.
    await ensureTable(table);
    const policyId =
      this.config.sas.tablePolicy === 'stored'
        ? await this.policies.currentPolicyId(table)
        : undefined;
    const sas = signTableSas(scope, { key: keyed.key, window, policyId, protocol: this.protocol });
    return {
      url: table.url,
      sas,
      startsOn: window.startsOn.toISOString(),
      expiresOn: window.expiresOn.toISOString(),
      permissions: TABLE_SAS_PERMISSION,
      signedWith: 'accountKey',
      ...scope,
      ...(policyId ? { policyId } : {}),
    };
  }

  private containerUrl(container: string): string {
    let url = this.containerUrls.get(container);
    if (url === undefined) {
      url = this.clients.container(container).url;
      this.containerUrls.set(container, url);
    }
    return url;
  }

  private async blobSas(
    container: string,
    blobName: string | undefined,
    permissions: string,
    window: SasWindow,
  ): Promise<BlobSasGrant> {
    const signer = this.signing.blobSigner();
    const sas = await signer.sign({
      containerName: container,
      ...(blobName !== undefined ? { blobName } : {}),
      permissions:
        blobName !== undefined
          ? BlobSASPermissions.parse(permissions)
          : ContainerSASPermissions.parse(permissions),
      startsOn: window.startsOn,
      expiresOn: window.expiresOn,
      protocol: this.protocol,
    });
    const containerUrl = this.containerUrl(container);
    // The SDK's own blob URL encoding (each path segment escaped), without building a client.
    const resourceUrl = blobName !== undefined ? blobUrl(containerUrl, blobName) : containerUrl;
    return {
      url: `${resourceUrl}?${sas}`,
      sas,
      ...this.windowFields(window),
      permissions,
      signedWith: signer.kind,
      container,
      ...(blobName !== undefined ? { blobName } : {}),
    };
  }
}

function requireDirectoryAdmin(principal: Principal, what: string): void {
  if (!isDirectoryAdmin(principal)) {
    throw adminOnly(DIRECTORY_ADMIN, what);
  }
}
