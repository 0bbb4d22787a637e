/**
 * One rule for email addresses over HTTP (src/directory/emailRule.ts): a create, a PATCH and an
 * import row with an address a directory must not keep — a space, no dot in the domain, a
 * single-letter top-level domain, an encoded second address with a `mailto:` query — are refused
 * with 400 JSON naming the field (the import: that row, with the field). A row stored under the
 * looser rule before still reads, is found by its address and takes other changes.
 */
import { startHost, type RunningHost } from '../../support/host';
import { testClients, uniqueTableName } from '../../support/storage';
import { emailRowKey, employeeRowKey } from '../../../src/storage/keys/tables/employees';
import { expectError, expectJson, send, seg } from '../acceptance/client';

const EMPLOYEES_TABLE = uniqueTableName('EmpMail');
const DEPT = 'Mail Rule';
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env: { EMPLOYEES_TABLE } });
  expectJson(await send(host.baseUrl, 'PUT', `/departments/${seg(DEPT)}`, { json: {} }), 201);
});
afterAll(async () => {
  await host?.stop();
  await testClients().table(EMPLOYEES_TABLE).deleteTable();
});

const BAD = [
  'a b@c.com',
  'ada@lovelace',
  'x@y.z',
  'ada%40contoso.com?bcc=attacker@evil.example',
] as const;
const employees = `/departments/${seg(DEPT)}/employees`;

it.each(BAD)(
  'refuses %j in a create, a PATCH and an import row, naming the field',
  async (email) => {
    const person = { employeeId: '000501', firstName: 'Ada', lastName: 'Lovelace' };
    const created = await send(host.baseUrl, 'POST', employees, { json: { ...person, email } });
    expect(expectError(created, 400, 'InvalidInput').message).toMatch(
      /^body\.email: must be an email address/,
    );
    expect(created.body).toEqual({ error: expect.objectContaining({ target: 'body.email' }) });

    expectJson(
      await send(host.baseUrl, 'POST', employees, {
        json: { ...person, employeeId: '000502', email: 'ada.502@contoso.com' },
      }),
      201,
    );
    const patched = await send(host.baseUrl, 'PATCH', `${employees}/000502`, { json: { email } });
    expectError(patched, 400, 'InvalidInput');
    expect(patched.body).toEqual({ error: expect.objectContaining({ target: 'body.email' }) });
    expect((await send(host.baseUrl, 'DELETE', `${employees}/000502`)).status).toBe(204);

    const imported = expectJson(
      await send(host.baseUrl, 'POST', `${employees}/import`, {
        json: { employees: [{ ...person, employeeId: '000503', email }] },
      }),
      200,
    );
    expect(imported).toMatchObject({
      created: 0,
      failed: [
        {
          employeeId: '000503',
          error: {
            code: 'InvalidInput',
            message: expect.stringMatching(/email: must be an email/),
          },
        },
      ],
    });
  },
);

it('still reads, finds and changes a row stored under the looser rule before', async () => {
  const legacy = 'ada%40contoso.com?bcc=attacker@evil.example';
  expectJson(
    await send(host.baseUrl, 'POST', employees, {
      json: {
        employeeId: '000510',
        firstName: 'Ada',
        lastName: 'Old',
        email: 'ada.old@contoso.com',
      },
    }),
    201,
  );
  // As the looser rule wrote it: the employee and its email copy under the old address.
  const table = testClients().table(EMPLOYEES_TABLE);
  const oldCopyKey = emailRowKey('ada.old@contoso.com');
  const {
    etag: _etag,
    timestamp: _timestamp,
    ...copy
  } = await table.getEntity<Record<string, unknown>>(DEPT, oldCopyKey);
  await table.updateEntity(
    { partitionKey: DEPT, rowKey: employeeRowKey('000510'), Email: legacy },
    'Merge',
  );
  await table.createEntity({
    ...copy,
    partitionKey: DEPT,
    rowKey: emailRowKey(legacy),
    Email: legacy,
  });
  await table.deleteEntity(DEPT, oldCopyKey);

  expect(expectJson(await send(host.baseUrl, 'GET', `${employees}/000510`), 200)).toMatchObject({
    email: legacy,
  });
  expect(
    expectJson(await send(host.baseUrl, 'GET', `${employees}/by-email/${seg(legacy)}`), 200),
  ).toMatchObject({ employeeId: '000510' });
  expect(
    expectJson(
      await send(host.baseUrl, 'PATCH', `${employees}/000510`, { json: { lastName: 'Kept' } }),
      200,
    ),
  ).toMatchObject({ lastName: 'Kept', email: legacy });
  // Changing the address holds the new one to the rule.
  expect(
    expectJson(
      await send(host.baseUrl, 'PATCH', `${employees}/000510`, {
        json: { email: 'ada.new@contoso.com' },
      }),
      200,
    ),
  ).toMatchObject({ email: 'ada.new@contoso.com' });
});
