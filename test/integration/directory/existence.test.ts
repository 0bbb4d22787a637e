/**
 * What a 404 for an unknown department or employee costs a read (src/directory/employees/existence.ts): a
 * read that found something sends no more requests than before; an empty first page sends one
 * projected point read more, which tells an unknown department or employee (404) from one with
 * nothing to show. Requests are counted on the clients' pipelines, against real Azurite.
 */
import type { TableClient } from '@azure/data-tables';
import { ExpenseClaimLog } from '../../../src/expenses/expenseClaims';
import { testClients, uniqueTableName } from '../../support/storage';
import { createDirectoryFixture, employeeBody } from './fixture';

/** The requests `table` sends between `reset()` and `count()`. */
function counter(table: TableClient): { reset(): void; count(): number } {
  let seen = 0;
  table.pipeline.addPolicy({
    name: `existenceCount-${Math.random().toString(36).slice(2)}`,
    sendRequest(request, next) {
      seen++;
      return next(request);
    },
  });
  return { reset: () => (seen = 0), count: () => seen };
}

const fx = createDirectoryFixture();
const requests = counter(fx.table);
const expensesTable = testClients().table(uniqueTableName('ExpExist'));
const expenseRequests = counter(expensesTable);
const expenses = new ExpenseClaimLog(expensesTable, undefined, (department, employeeId) =>
  fx.directory.employees.requireExists(department, employeeId),
);

beforeAll(async () => {
  await fx.directory.departments.put('Full', {});
  await fx.directory.departments.put('Empty', {});
  for (const n of [1, 2, 3]) {
    await fx.directory.employees.create('Full', employeeBody(n, { lastName: 'Jones' }));
  }
  await expenses.submit('Full', '000001', { amount: 5, currency: 'EUR', description: 'Tea' });
});
afterAll(async () => {
  await fx.cleanup();
  await expensesTable.deleteTable();
});

async function measured<T>(read: () => Promise<T>): Promise<{ result: T; requests: number }> {
  requests.reset();
  const result = await read();
  return { result, requests: requests.count() };
}

describe("a department's employees", () => {
  it('a page with employees: one range query, no check', async () => {
    const { result, requests: sent } = await measured(() => fx.directory.employees.list('Full'));
    expect(result.items).toHaveLength(3);
    expect(sent).toBe(1);
  });

  it('an empty first page of an existing department: one point read more, still empty', async () => {
    const { result, requests: sent } = await measured(() => fx.directory.employees.list('Empty'));
    expect(result).toEqual({ items: [], continuationToken: null });
    expect(sent).toBe(2);
  });

  it('an unknown department: DepartmentNotFound after the same two requests', async () => {
    requests.reset();
    await expect(fx.directory.employees.list('Nowhere')).rejects.toMatchObject({
      code: 'DepartmentNotFound',
    });
    expect(requests.count()).toBe(2);
  });
});

describe('a last-name search in a department', () => {
  it('a hit costs what it did (the index entity, then the employees)', async () => {
    const { result, requests: sent } = await measured(() =>
      fx.directory.employees.findByLastName('Full', 'jones'),
    );
    expect(result.items).toHaveLength(3);
    expect(sent).toBe(2);
  });

  it('no one of that name: one point read more; an unknown department is 404', async () => {
    const { result, requests: sent } = await measured(() =>
      fx.directory.employees.findByLastName('Full', 'Nobody'),
    );
    expect(result.items).toEqual([]);
    expect(sent).toBe(2);
    await expect(fx.directory.employees.findByLastName('Nowhere', 'Jones')).rejects.toMatchObject({
      code: 'DepartmentNotFound',
    });
  });
});

describe('records kept outside the directory (expenses)', () => {
  it('claims found: one query of the expenses table, none of the directory', async () => {
    requests.reset();
    expenseRequests.reset();
    const page = await expenses.page('Full', '000001');
    expect(page.items).toHaveLength(1);
    expect(expenseRequests.count()).toBe(1);
    expect(requests.count()).toBe(0);
  });

  it('none: one point read of the employee tells empty from unknown', async () => {
    requests.reset();
    expect((await expenses.newest('Full', '000002', 10)).length).toBe(0);
    expect(requests.count()).toBe(1);
    await expect(expenses.page('Full', '000999')).rejects.toMatchObject({
      code: 'EmployeeNotFound',
    });
  });
});
