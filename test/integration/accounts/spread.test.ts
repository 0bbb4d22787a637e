/**
 * Beyond one account (docs/accounts.md): with `DATA_ACCOUNTS=DATA1,DATA2` on two more emulators,
 * departments are placed over the data accounts and everything keyed by a department lives in its
 * account; the org-wide last-name search, logins and logs read every account and merge.
 */
import { createDirectory } from '../../../src/directory/directory';
import { findEmployeesAcrossOrganisation } from '../../../src/indexing/employeeIndex/indexQueries';
import { readEntity } from '../../../src/storage/tables/entities';
import {
  DEPARTMENT_ROW_KEY,
  departmentPartitionKey,
  employeeRowKey,
} from '../../../src/storage/keys/tables/employees';
import { employeePartitionKey } from '../../../src/storage/keys/tables/employeePartitions';
import { accountClients, spreadDeployment } from '../../support/accounts';

const { config, services } = spreadDeployment();

// Sales, Ops, Legal go to DATA1 and Engineering, HR to DATA2 (rendezvous hashing of the names).
const departments = ['Sales', 'Ops', 'Legal', 'Engineering', 'HR'];
const body = (n: number, lastName = `Last${n}`) => ({
  employeeId: String(n).padStart(6, '0'),
  firstName: `First${n}`,
  lastName,
  email: `u${n}@contoso.com`,
});

/** The account (by name) whose `Employees` table holds the department entity. */
async function holderOf(department: string): Promise<string[]> {
  const clients = accountClients();
  const holders: string[] = [];
  for (const [name, account] of [
    ['home', clients.home],
    ['DATA1', clients.data1],
    ['DATA2', clients.data2],
  ] as const) {
    const table = account.table(config.tables.employees);
    await table.createTable();
    if (await readEntity(table, departmentPartitionKey(department), DEPARTMENT_ROW_KEY)) {
      holders.push(name);
    }
  }
  return holders;
}

it('places new departments over the data accounts and keeps each in exactly one', async () => {
  const { departments: service } = services.directory();
  for (const name of departments) await service.put(name, { description: name });
  const placement = services.accounts()!.placement;
  const where = new Map<string, string>();
  for (const name of departments) {
    const placed = await placement.ofDepartment(name);
    expect(placed).toMatchObject({ version: 1, phase: 'stable', stored: true });
    expect(await holderOf(name)).toEqual([placed.account]);
    where.set(name, placed.account);
  }
  // Rendezvous hashing over DATA1 and DATA2 (home weighs 0 once data accounts exist).
  expect(new Set(where.values())).toEqual(new Set(['DATA1', 'DATA2']));
  // The listing stays one partition in the home account.
  const listed = await service.list({});
  expect(listed.items.map((d) => d.name).sort()).toEqual([...departments].sort());
});

it('serves every department-keyed capability from the account that holds the department', async () => {
  const { employees } = services.directory();
  await employees.create('Sales', body(1, 'Jones'));
  await employees.create('Ops', body(2, 'Jones'));
  await employees.create('HR', body(3, 'Jones'));
  await services.changeQueue().settled();
  const claim = await services
    .expenseClaims()
    .submit('Sales', '000001', { amount: 12.5, currency: 'EUR', description: 'Taxi' });
  await services.messageStats().record('Ops', '000002', { count: 3 });

  const placement = services.accounts()!.placement;
  const sales = (await placement.ofDepartment('Sales')).account;
  const clients = accountClients();
  const byName = { home: clients.home, DATA1: clients.data1, DATA2: clients.data2 };
  const employeesOf = (account: string) =>
    byName[account as keyof typeof byName].table(config.tables.employees);
  expect(
    await readEntity(employeesOf(sales), departmentPartitionKey('Sales'), employeeRowKey('000001')),
  ).toBeDefined();
  const expenses = byName[sales as keyof typeof byName].table(config.tables.expenses);
  const claims = [];
  for await (const entity of expenses.listEntities({
    queryOptions: { filter: `PartitionKey eq '${employeePartitionKey('Sales', '000001')}'` },
  })) {
    claims.push(entity.rowKey);
  }
  expect(claims).toContain(claim.claim.claimId);
  expect(await services.expenseClaims().newest('Sales', '000001', 10)).toHaveLength(1);
  expect(
    (await services.messageStats().daily('Ops', '000002', new Date().getUTCFullYear())).reduce(
      (a, b) => a + b,
      0,
    ),
  ).toBe(3);

  // The listing (home) carries each department's count, read from the account that holds it by
  // the writer's drain (a reader without the cached page of the first test).
  const reader = createDirectory({
    employees: services.indexStores().employees,
    departmentCacheTtlMs: 0,
  });
  const listed = await reader.departments.list({});
  expect(Object.fromEntries(listed.items.map((d) => [d.name, d.employeeCount]))).toEqual({
    Engineering: 0,
    HR: 1,
    Legal: 0,
    Ops: 1,
    Sales: 1,
  });

  // The org-wide search finds the three across accounts.
  const stores = services.indexStores();
  const found = await findEmployeesAcrossOrganisation(stores.employees, stores.lastNames, 'jones');
  expect(found.items.map((e) => `${e.department}/${e.employeeId}`).sort()).toEqual([
    'HR/000003',
    'Ops/000002',
    'Sales/000001',
  ]);
});

it('reads a user’s logins from every account, newest first, in pages', async () => {
  const { attempts } = services.logins();
  const now = Date.now();
  for (let i = 0; i < 6; i++) {
    await attempts.record({
      userId: `user${i % 3}`,
      succeeded: i % 2 === 0,
      at: new Date(now - i * 60_000),
    });
  }
  const firstPage = await attempts.page('user0', 1, { pageSize: 1 });
  expect(firstPage.items).toHaveLength(1);
  const rest = await attempts.page('user0', 1, {
    pageSize: 10,
    continuationToken: firstPage.continuationToken!,
  });
  expect([...firstPage.items, ...rest.items].map((a) => a.at.getTime())).toEqual([
    now,
    now - 3 * 60_000,
  ]);
});
