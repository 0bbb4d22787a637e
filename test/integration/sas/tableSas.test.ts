/**
 * Table SAS against real Azurite: what a token grants works, everything else is refused — by
 * storage (permissions, expiry, signature over the partition range, table, revoked policy) or by
 * the issuing service (roles, lifetime cap, missing key).
 */
import { odata } from '@azure/data-tables';
import {
  ForbiddenError,
  NotConfiguredError,
  NotFoundError,
  ValidationError,
} from '../../../src/domainErrors';
import { createStorageClients } from '../../../src/storage/clients';
import { employeePartitionKey } from '../../../src/storage/keys/tables/employeePartitions';
import { employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { invertedTicksRowKey } from '../../../src/storage/keys/time';
import { sasPolicyId } from '../../../src/storage/keys/tables/sasPolicies';
import { loadConfig, readConfig } from '../../../src/config';
import { uniqueTableName } from '../../support/storage';
import { SettingUnavailableError } from '../../../src/domainErrors';
import { errorResponse } from '../../../functions/shared/http';
import {
  admin,
  newSasService,
  createSasFixture,
  listAll,
  principal,
  tableClientFrom,
  tamper,
  type SasFixture,
} from './fixture';

let fx: SasFixture;
const jane = principal({ employee: { department: 'Sales', employeeId: '000223' } });
const salesReader = principal({ roles: ['DirectoryReader:Sales'] });

beforeAll(async () => {
  fx = await createSasFixture();
  const expenses = fx.clients.table(fx.config.tables.expenses);
  for (const [dept, id, n] of [
    ['Sales', '000223', 3],
    ['Sales', '000224', 2],
  ] as const) {
    for (let i = 0; i < n; i++) {
      await expenses.createEntity({
        partitionKey: employeePartitionKey(dept, id),
        rowKey: invertedTicksRowKey(new Date(Date.UTC(2026, 0, i + 1)), `c${i}`),
        Amount: 10 * (i + 1),
      });
    }
  }
  const employees = fx.clients.table(fx.config.tables.employees);
  for (const [dept, id] of [
    ['Sales', '000223'],
    ['Sales', '000224'],
    ['Marketing', '000300'],
  ] as const) {
    await employees.createEntity({
      partitionKey: dept,
      rowKey: employeeRowKey(id),
      FirstName: 'F',
    });
  }
  await employees.createEntity({
    partitionKey: 'Sales',
    rowKey: 'review_000223_2025',
    ManagerRating: 3,
  });
});

afterAll(() => fx.cleanup());

describe('expenses SAS (one employee partition, read only)', () => {
  it('lets the employee read exactly their own claims with the token', async () => {
    const grant = await fx.service.expensesSas(jane, 'Sales', '000223');
    expect(grant).toMatchObject({
      table: fx.config.tables.expenses,
      partitionKey: 'Sales_000223',
      permissions: 'r',
      policyId: sasPolicyId(1),
      signedWith: 'accountKey',
    });
    const params = new URLSearchParams(grant.sas);
    expect(params.get('spk')).toBe('Sales_000223');
    expect(params.get('epk')).toBe('Sales_000223');
    expect(params.get('si')).toBe(sasPolicyId(1));
    expect(Date.parse(grant.expiresOn) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(grant.expiresOn) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    // Azurite does not enforce spk/epk (Azure does), so the client filters as a well-behaved one would.
    const own: unknown[] = [];
    for await (const e of tableClientFrom(grant).listEntities({
      queryOptions: { filter: odata`PartitionKey eq ${grant.partitionKey}` },
    })) {
      own.push(e);
    }
    expect(own).toHaveLength(3);
  });

  it('grants before the first claim ever: the table is created, the token reads an empty list', async () => {
    const fresh = uniqueTableName('Exp');
    const service = fx.serviceWith({ env: { EXPENSES_TABLE: fresh } });
    try {
      const grant = await service.expensesSas(jane, 'Sales', '000223');
      expect(await listAll(tableClientFrom(grant))).toEqual([]);
    } finally {
      await fx.clients.table(fresh).deleteTable();
    }
  });

  it('lets a DirectoryAdmin read any employee’s expenses', async () => {
    const grant = await fx.service.expensesSas(admin, 'Sales', '000224');
    const rows = await listAll(tableClientFrom(grant));
    expect(rows.filter((r) => r.partitionKey === 'Sales_000224')).toHaveLength(2);
  });

  it('refuses another employee’s expenses (403 before any token exists)', async () => {
    await expect(fx.service.expensesSas(jane, 'Sales', '000224')).rejects.toThrow(ForbiddenError);
    await expect(fx.service.expensesSas(principal(), 'Sales', '000223')).rejects.toThrow(
      ForbiddenError,
    );
    // Ids are unique only within a department: the same id elsewhere is somebody else.
    const namesake = principal({ employee: { department: 'Marketing', employeeId: '000223' } });
    await expect(fx.service.expensesSas(namesake, 'Sales', '000223')).rejects.toThrow(
      ForbiddenError,
    );
  });

  it('is refused by storage for writes: the token is query-only', async () => {
    const grant = await fx.service.expensesSas(jane, 'Sales', '000223');
    await expect(
      tableClientFrom(grant).createEntity({ partitionKey: grant.partitionKey, rowKey: 'forged' }),
    ).rejects.toMatchObject({ statusCode: 403 });
  });

  it('is refused by storage when the partition range is edited (signature covers spk/epk)', async () => {
    const grant = await fx.service.expensesSas(jane, 'Sales', '000223');
    const widened = tamper(tamper(grant.sas, 'spk', 'Sales_000224'), 'epk', 'Sales_000224');
    await expect(listAll(tableClientFrom(grant, widened))).rejects.toMatchObject({
      statusCode: 403,
    });
    const dropped = tamper(grant.sas, 'epk', 'Sales_999999');
    await expect(listAll(tableClientFrom(grant, dropped))).rejects.toMatchObject({
      statusCode: 403,
    });
    // Control: the untouched token still works.
    await expect(listAll(tableClientFrom(grant))).resolves.toBeDefined();
  });

  it('is refused by storage on another table', async () => {
    const grant = await fx.service.expensesSas(jane, 'Sales', '000223');
    await expect(
      listAll(tableClientFrom(grant, grant.sas, fx.config.tables.employees)),
    ).rejects.toMatchObject({ statusCode: 403 });
  });

  it('is refused by storage once expired', async () => {
    // Azurite takes a policy-bound token's times from the policy only, so expiry is shown with a
    // self-contained token; in Azure the bound token's own `se` is enforced the same way.
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    const past = fx.serviceWith({ env: { SAS_TABLE_POLICY: 'none' }, now: () => twoHoursAgo });
    const expired = await past.expensesSas(jane, 'Sales', '000223', 30);
    expect(Date.parse(expired.expiresOn)).toBeLessThan(Date.now());
    expect(new URLSearchParams(expired.sas).get('sp')).toBe('r');
    await expect(listAll(tableClientFrom(expired))).rejects.toMatchObject({ statusCode: 403 });

    const fresh = await fx
      .serviceWith({ env: { SAS_TABLE_POLICY: 'none' } })
      .expensesSas(jane, 'Sales', '000223', 1);
    expect(fresh.policyId).toBeUndefined();
    await expect(listAll(tableClientFrom(fresh))).resolves.toBeDefined();
  });

  it('refuses a lifetime above the cap, and honours one within it', async () => {
    await expect(fx.service.expensesSas(jane, 'Sales', '000223', 61)).rejects.toMatchObject({
      code: 'SasLifetimeTooLong',
    });
    await expect(fx.service.expensesSas(jane, 'Sales', '000223', 61)).rejects.toThrow(
      ValidationError,
    );
    const grant = await fx.service.expensesSas(jane, 'Sales', '000223', 60);
    expect(Date.parse(grant.expiresOn) - Date.now()).toBeGreaterThan(59 * 60_000);
  });

  it('refuses malformed keys before anything else', async () => {
    await expect(fx.service.expensesSas(jane, 'Sales/../x', '000223')).rejects.toThrow(
      ValidationError,
    );
    await expect(fx.service.expensesSas(jane, 'Sales', '223')).rejects.toThrow(ValidationError);
  });
});

describe('department SAS (employee entities of one Employees partition)', () => {
  it('lets a reader of the department query its employees', async () => {
    const grant = await fx.service.departmentSas(salesReader, 'Sales');
    expect(grant).toMatchObject({
      table: fx.config.tables.employees,
      partitionKey: 'Sales',
      rowKeyStart: 'empid_000000',
      rowKeyEnd: 'empid_999999',
      permissions: 'r',
    });
    const params = new URLSearchParams(grant.sas);
    expect(params.get('spk')).toBe('Sales');
    expect(params.get('epk')).toBe('Sales');
    expect(params.get('srk')).toBe('empid_000000');
    expect(params.get('erk')).toBe('empid_999999');
    const employees: string[] = [];
    for await (const e of tableClientFrom(grant).listEntities({
      queryOptions: {
        filter: odata`PartitionKey eq ${grant.partitionKey} and RowKey ge ${grant.rowKeyStart!} and RowKey le ${grant.rowKeyEnd!}`,
      },
    })) {
      employees.push(e.rowKey!);
    }
    expect(employees).toEqual(['empid_000223', 'empid_000224']);
  });

  it('refuses a reader of another department, and lets an admin in', async () => {
    await expect(fx.service.departmentSas(salesReader, 'Marketing')).rejects.toThrow(
      ForbiddenError,
    );
    await expect(fx.service.departmentSas(jane, 'Sales')).rejects.toThrow(ForbiddenError);
    const grant = await fx.service.departmentSas(admin, 'Marketing');
    expect((await listAll(tableClientFrom(grant))).map((r) => r.partitionKey)).toContain(
      'Marketing',
    );
  });

  it('is refused by storage when the row range is widened', async () => {
    const grant = await fx.service.departmentSas(salesReader, 'Sales');
    const widened = tamper(grant.sas, 'erk', 'zzzz');
    await expect(listAll(tableClientFrom(grant, widened))).rejects.toMatchObject({
      statusCode: 403,
    });
  });
});

describe('revocation through the stored access policy', () => {
  it('rotating the policy makes every token bound to it fail, new tokens work at once', async () => {
    const policyFx = await createSasFixture();
    try {
      const expenses = policyFx.clients.table(policyFx.config.tables.expenses);
      await expenses.createEntity({ partitionKey: 'Sales_000223', rowKey: 'r1' });
      // Someone else's stored access policy on the same table must survive our rotations.
      await expenses.setAccessPolicy([
        {
          id: 'ops-audit',
          accessPolicy: {
            permission: 'r',
            start: new Date(Date.now() - 60_000),
            expiry: new Date(Date.now() + 3_600_000),
          },
        },
      ]);

      const before = await policyFx.service.expensesSas(jane, 'Sales', '000223');
      expect(before.policyId).toBe(sasPolicyId(1));
      expect((await expenses.getAccessPolicy()).map((p) => p.id).sort()).toEqual([
        'directory-sas-v1',
        'directory-sas-v2',
        'ops-audit',
      ]);
      await expect(listAll(tableClientFrom(before))).resolves.toHaveLength(1);

      const rotation = await policyFx.service.rotateSasPolicy(
        admin,
        policyFx.config.tables.expenses.toLowerCase(),
      );
      expect(rotation).toEqual({
        table: policyFx.config.tables.expenses,
        policyId: sasPolicyId(2),
        revokedPolicyId: sasPolicyId(1),
      });
      await expect(listAll(tableClientFrom(before))).rejects.toMatchObject({ statusCode: 403 });

      const after = await policyFx.service.expensesSas(jane, 'Sales', '000223');
      expect(after.policyId).toBe(sasPolicyId(2));
      await expect(listAll(tableClientFrom(after))).resolves.toHaveLength(1);

      // Another instance (its own cache) reads the rotated state from the table.
      const otherInstance = policyFx.serviceWith({});
      const fromOther = await otherInstance.expensesSas(jane, 'Sales', '000223');
      expect(fromOther.policyId).toBe(sasPolicyId(2));

      await policyFx.service.rotateSasPolicy(admin, policyFx.config.tables.expenses);
      await expect(listAll(tableClientFrom(after))).rejects.toMatchObject({ statusCode: 403 });
      expect((await expenses.getAccessPolicy()).map((p) => p.id).sort()).toEqual([
        'directory-sas-v3',
        'directory-sas-v4',
        'ops-audit',
      ]);
    } finally {
      await policyFx.cleanup();
    }
  });

  it('lets only a DirectoryAdmin rotate, and only the SAS tables', async () => {
    await expect(
      fx.service.rotateSasPolicy(salesReader, fx.config.tables.expenses),
    ).rejects.toThrow(ForbiddenError);
    await expect(fx.service.rotateSasPolicy(admin, 'AccessLog')).rejects.toThrow(NotFoundError);
  });

  it('says rotation is not available when tokens are not bound to policies', async () => {
    const unbound = fx.serviceWith({ env: { SAS_TABLE_POLICY: 'none' } });
    await expect(unbound.rotateSasPolicy(admin, fx.config.tables.expenses)).rejects.toThrow(
      NotConfiguredError,
    );
  });
});

describe('signing key configuration', () => {
  const identityClients = () => {
    const ports = JSON.parse(process.env.TEST_AZURITE_PORTS!) as {
      blob: number;
      queue: number;
      table: number;
    };
    return createStorageClients(
      {
        kind: 'identity',
        tableServiceUri: `http://127.0.0.1:${ports.table}/devstoreaccount1`,
        queueServiceUri: `http://127.0.0.1:${ports.queue}/devstoreaccount1`,
        blobServiceUri: `http://127.0.0.1:${ports.blob}/devstoreaccount1`,
      },
      fx.config.retry,
      { getToken: async () => ({ token: 'never-sent', expiresOnTimestamp: Date.now() + 60_000 }) },
    );
  };

  it('answers NotConfigured for table SAS when the app has only a managed identity', async () => {
    const service = newSasService({ clients: identityClients(), config: fx.config });
    const error = await service.expensesSas(jane, 'Sales', '000223').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotConfiguredError);
    expect((error as Error).message).toMatch(/STORAGE_ACCOUNT_KEY/);
  });

  it('answers 503 KeyVaultReferenceUnresolved while STORAGE_ACCOUNT_KEY is still a Key Vault reference, never signing with it', async () => {
    const reference =
      '@Microsoft.KeyVault(SecretUri=https://kv-test.vault.azure.net/secrets/storage-account-key)';
    const { config, problems } = readConfig({
      ...process.env,
      EMPLOYEES_TABLE: fx.config.tables.employees,
      EXPENSES_TABLE: fx.config.tables.expenses,
      STORAGE_ACCOUNT_KEY: reference,
      STORAGE_ACCOUNT_NAME: 'devstoreaccount1',
    });
    expect(problems.map((p) => [p.setting, p.problem])).toEqual([
      ['STORAGE_ACCOUNT_KEY', 'keyVaultReference'],
    ]);
    const service = newSasService({ clients: identityClients(), config });
    const error = await service.expensesSas(jane, 'Sales', '000223').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettingUnavailableError);
    const response = errorResponse(error);
    expect(response.status).toBe(503);
    expect(response.jsonBody).toMatchObject({
      error: { code: 'KeyVaultReferenceUnresolved' },
    });
    expect(JSON.stringify(response.jsonBody)).toContain('STORAGE_ACCOUNT_KEY');
    expect(JSON.stringify(response.jsonBody)).not.toContain('kv-test');
    // Blob SAS by identity are user delegation SAS: the key is never read for them.
    const blob = await service.logsSas(admin).catch((e: unknown) => e);
    expect(blob).not.toBeInstanceOf(SettingUnavailableError);
  });

  it('signs with STORAGE_ACCOUNT_KEY beside a managed identity, and never returns the key', async () => {
    const key = fx.clients.sharedKey!.accountKey;
    const config = loadConfig({
      ...process.env,
      EMPLOYEES_TABLE: fx.config.tables.employees,
      EXPENSES_TABLE: fx.config.tables.expenses,
      STORAGE_ACCOUNT_KEY: key,
      STORAGE_ACCOUNT_NAME: 'devstoreaccount1',
    });
    const service = newSasService({ clients: identityClients(), config });
    const grant = await service.expensesSas(jane, 'Sales', '000223');
    await expect(listAll(tableClientFrom(grant))).resolves.toBeDefined();
    expect(JSON.stringify(grant)).not.toContain(key);
    expect(JSON.stringify(grant)).not.toContain(encodeURIComponent(key));
  });
});
