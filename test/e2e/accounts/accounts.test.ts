/**
 * Beyond one account, end to end through the local host (docs/accounts.md): with
 * `DATA_ACCOUNTS=DATA1,DATA2` on two more emulators, departments spread over the data accounts,
 * `GET /storage/accounts` and an admin's `GET /departments/{d}` say where, SAS URLs name the
 * account that holds what they grant, the org-wide search and the logs read every account, and a
 * department relocates through the Durable orchestration while writes continue.
 */
import { randomBytes } from 'node:crypto';
import { removeEverywhere, spreadSettings } from '../../support/accounts';
import type { RunningHost } from '../../support/host';
import { PRINCIPAL_HEADER, principalHeader } from '../../support/principals';
import { WAIT_MS } from '../../support/waits';
import { HUB_SETTING, hostWith, pollUntilEnded, send } from '../orchestrations/support';

const settings = spreadSettings({
  PLACEMENT_CACHE_SECONDS: '1',
  RELOCATION_CHUNK_ROWS: '25',
  [HUB_SETTING]: `Acc${randomBytes(5).toString('hex')}`,
});
let host: RunningHost;

beforeAll(async () => {
  host = await hostWith(settings);
});
afterAll(async () => {
  await host?.stop();
  await removeEverywhere(settings);
});

const employee = (n: number, lastName = `Last${n}`) => ({
  employeeId: String(n).padStart(6, '0'),
  firstName: `First${n}`,
  lastName,
  email: `u${n}@contoso.com`,
});

// Sales and Ops go to DATA1, Engineering and HR to DATA2 (rendezvous hashing of the names).
const departments = ['Sales', 'Ops', 'Engineering', 'HR'];

it('spreads departments over the data accounts and says where each lives (admins only)', async () => {
  for (const name of departments) {
    expect((await send(host, 'PUT', `/departments/${name}`, { description: name })).status).toBe(
      201,
    );
  }
  for (const [n, name] of departments.entries()) {
    expect(
      (await send(host, 'POST', `/departments/${name}/employees`, employee(n + 1, 'Jones'))).status,
    ).toBe(201);
  }
  const accounts = await send(host, 'GET', '/storage/accounts');
  expect(accounts.status).toBe(200);
  const items = accounts.json.items as {
    name: string;
    departments: number;
    weight: number;
    endpoints: { table: string };
  }[];
  expect(items.map((a) => [a.name, a.departments, a.weight])).toEqual([
    ['home', 0, 0],
    ['DATA1', 2, 1],
    ['DATA2', 2, 1],
  ]);
  expect(items[1]!.endpoints.table).toContain('/data1account');
  expect(JSON.stringify(items)).not.toMatch(/AccountKey|sig=/);
  expect((await send(host, 'GET', '/departments/Sales')).json.account).toBe('DATA1');
  expect((await send(host, 'GET', '/departments/HR')).json.account).toBe('DATA2');
  // Not for anyone else.
  const reader = principalHeader({ userId: 'r', roles: ['DirectoryReader:Sales'] });
  const asReader = await fetch(`${host.baseUrl}/departments/Sales`, {
    headers: { [PRINCIPAL_HEADER]: reader },
  });
  expect(await asReader.json()).not.toHaveProperty('account');
});

it('searches the organisation across accounts and issues SAS by the account that holds the data', async () => {
  let found: unknown[] = [];
  // The org-wide index is eventual: poll (WAIT_MS is a hang detector, not a speed goal).
  for (const deadline = Date.now() + WAIT_MS; found.length < 4 && Date.now() < deadline;) {
    found = ((await send(host, 'GET', '/employees?lastName=Jones')).json.items as unknown[]) ?? [];
    if (found.length < 4) await new Promise((r) => setTimeout(r, 200));
  }
  expect(found).toHaveLength(4);
  const sales = await send(host, 'POST', '/sas/departments/Sales', {});
  expect(sales.status).toBe(200);
  expect(sales.json.url).toContain('/data1account');
  const hr = await send(host, 'POST', '/sas/departments/HR', {});
  expect(hr.json.url).toContain('/data2account');
  const logs = await send(host, 'POST', '/sas/logs', {});
  expect((logs.json.accounts as { account: string }[]).map((a) => a.account)).toEqual([
    'home',
    'DATA1',
    'DATA2',
  ]);
});

it("lets the console reach every account: its CSP names each account's blob and table origins", async () => {
  const response = await fetch(`${host.baseUrl}/console/config.json`);
  expect(response.status).toBe(200);
  const policy = response.headers.get('content-security-policy') ?? '';
  const connect = policy.split('; ').find((d) => d.startsWith('connect-src')) ?? '';
  const image = policy.split('; ').find((d) => d.startsWith('img-src')) ?? '';
  for (const setting of ['AzureWebJobsStorage', 'DATA1', 'DATA2']) {
    for (const service of ['Blob', 'Table']) {
      const endpoint = new RegExp(`${service}Endpoint=([^;]+)`).exec(settings[setting]!)![1]!;
      expect(connect.split(' ')).toContain(new URL(endpoint).origin);
      if (service === 'Blob') expect(image.split(' ')).toContain(new URL(endpoint).origin);
    }
  }
});

it('refuses relocations to unknown accounts, to where it is, and twice at once', async () => {
  expect(
    (await send(host, 'POST', '/departments/Sales/relocate', { account: 'DATA9' })).json.error
      ?.code,
  ).toBe('UnknownAccount');
  const there = await send(host, 'POST', '/departments/Sales/relocate', { account: 'DATA1' });
  expect([there.status, there.json.error?.code]).toEqual([409, 'AlreadyThere']);
});

it('relocates a department while writes continue: none lost, the rest refused with 503 Relocating', async () => {
  for (let n = 10; n < 60; n++) {
    expect((await send(host, 'POST', '/departments/Ops/employees', employee(n))).status).toBe(201);
  }
  const start = await send(host, 'POST', '/departments/Ops/relocate', { account: 'DATA2' });
  expect(start.status).toBe(202);
  expect(start.json).toMatchObject({ phase: 'copying', resumed: false });
  const again = await send(host, 'POST', '/departments/Ops/relocate', { account: 'DATA2' });
  expect([again.status, again.json.error?.code]).toEqual([409, 'RelocationRunning']);
  // The answer names the relocation that holds the department, where it is and that it runs.
  expect(again.json.relocation).toMatchObject({
    id: start.json.id,
    statusUri: start.json.statusUri,
    phase: expect.stringMatching(/^(copying|frozen|deleting)$/),
  });
  // Writes go on during the relocation: each is acknowledged (201) or refused (503) — never lost.
  const acknowledged: number[] = [];
  const refused: number[] = [];
  const writes = (async () => {
    for (let n = 100; n < 400; n++) {
      const response = await fetch(`${host.baseUrl}/departments/Ops/employees`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [PRINCIPAL_HEADER]: principalHeader({ userId: 'a', roles: ['DirectoryAdmin'] }),
        },
        body: JSON.stringify(employee(n)),
      });
      if (response.status === 201) acknowledged.push(n);
      else {
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
          'Relocating',
        );
        refused.push(n);
      }
      const status = await send(host, 'GET', `/orchestrations/${start.json.id as string}`);
      if (status.json.runtimeStatus === 'Completed' && n > 150) break;
    }
  })();
  const ended = await pollUntilEnded(host, start.json.statusUri as string);
  await writes;
  expect(ended.runtimeStatus).toBe('Completed');
  expect(ended.output).toMatchObject({ department: 'Ops', from: 'DATA1', to: 'DATA2' });
  expect((await send(host, 'GET', '/departments/Ops')).json).toMatchObject({
    account: 'DATA2',
    employeeCount: 1 + 50 + acknowledged.length,
  });
  for (const n of acknowledged) {
    const got = await send(host, 'GET', `/departments/Ops/employees/${String(n).padStart(6, '0')}`);
    expect(got.status).toBe(200);
  }
  for (const n of refused) {
    const got = await send(host, 'GET', `/departments/Ops/employees/${String(n).padStart(6, '0')}`);
    expect(got.status).toBe(404);
  }
  const accounts = (await send(host, 'GET', '/storage/accounts')).json.items as {
    name: string;
    departments: number;
  }[];
  expect(accounts.map((a) => a.departments)).toEqual([0, 1, 3]);
});
