/**
 * The log-tail lists page like every list: expense claims of one employee and login attempts of one
 * user over several day tables, more than a page of each, read back page by page with the tokens
 * (each item once, newest first), and tokens bound to their query.
 */
import { randomBytes } from 'node:crypto';
import { ValidationError } from '../../../../src/domainErrors';
import { ExpenseClaimLog } from '../../../../src/expenses/expenseClaims';
import { LoginAttempts } from '../../../../src/logins/loginAttempts';
import { LoginDayTables } from '../../../../src/logins/loginDayTables';
import { testClients, uniqueTableName } from '../../../support/storage';

/** Every page of a paged read; returns the items and the page sizes. */
async function readAll<T>(
  read: (token: string | undefined) => Promise<{ items: T[]; continuationToken: string | null }>,
): Promise<{ items: T[]; sizes: number[] }> {
  const items: T[] = [];
  const sizes: number[] = [];
  let token: string | undefined;
  do {
    const page = await read(token);
    items.push(...page.items);
    sizes.push(page.items.length);
    token = page.continuationToken ?? undefined;
  } while (token !== undefined);
  return { items, sizes };
}

const clients = testClients();

it('pages through 250 expense claims newest first, 100 at a time', async () => {
  const tableName = uniqueTableName('ExpPages');
  const claims = new ExpenseClaimLog(clients.table(tableName));
  try {
    const start = Date.parse('2026-04-01T09:00:00Z');
    for (let i = 0; i < 250; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          claims.submit('Sales', '000001', {
            amount: 1,
            currency: 'EUR',
            description: `claim ${i + j}`,
            submittedAt: new Date(start + (i + j) * 60_000),
          }),
        ),
      );
    }
    const { items, sizes } = await readAll((token) =>
      claims.page('Sales', '000001', { continuationToken: token }),
    );
    expect(sizes).toEqual([100, 100, 50]);
    expect(items.map((c) => c.description)).toEqual(
      Array.from({ length: 250 }, (_, i) => `claim ${249 - i}`),
    );
    // `top` is the first page of such a read: the newest n and a token for the rest.
    const top = await claims.page('Sales', '000001', { pageSize: 10 });
    expect(top.items.map((c) => c.description)).toEqual(
      items.slice(0, 10).map((c) => c.description),
    );
    await expect(
      claims.page('Sales', '000002', { continuationToken: top.continuationToken! }),
    ).rejects.toThrow(ValidationError);
    await expect(claims.page('Sales', '000001', { pageSize: 1001 })).rejects.toThrow(
      ValidationError,
    );
  } finally {
    await clients.tableService().deleteTable(tableName);
  }
});

it('pages through login attempts over several day tables, newest first', async () => {
  const now = new Date('2026-01-10T12:00:00Z');
  const tables = new LoginDayTables(clients, `LP${randomBytes(4).toString('hex')}`);
  const attempts = new LoginAttempts(tables, 60, () => now);
  try {
    // 40 attempts on each of the last 5 days (one day without any in between), 10 for another user.
    const recorded: string[] = [];
    for (const daysAgo of [0, 1, 3, 4, 5]) {
      for (let i = 0; i < 40; i++) {
        const at = new Date(now.getTime() - daysAgo * 86_400_000 - i * 60_000);
        const { attempt } = await attempts.record({ userId: 'jane', succeeded: i % 2 === 0, at });
        recorded.push(attempt.attemptId);
      }
    }
    for (let i = 0; i < 10; i++) await attempts.record({ userId: 'joe', succeeded: true });
    const { items, sizes } = await readAll((token) =>
      attempts.page('jane', 7, { pageSize: 30, continuationToken: token }),
    );
    expect(items.map((a) => a.attemptId)).toEqual(recorded);
    expect(items.every((a) => a.userId === 'jane')).toBe(true);
    expect(sizes.slice(0, 6)).toEqual([30, 30, 30, 30, 30, 30]);
    // Three days back holds 80 of them (today, yesterday, none two days ago).
    const recent = await readAll((token) =>
      attempts.page('jane', 3, { pageSize: 1000, continuationToken: token }),
    );
    expect(recent.items).toHaveLength(80);
    const first = await attempts.page('jane', 7, { pageSize: 5 });
    await expect(
      attempts.page('jane', 6, { pageSize: 5, continuationToken: first.continuationToken! }),
    ).rejects.toThrow(ValidationError);
    await expect(
      attempts.page('joe', 7, { pageSize: 5, continuationToken: first.continuationToken! }),
    ).rejects.toThrow(ValidationError);
  } finally {
    for (const table of await tables.list()) await tables.drop(table.name);
  }
});
