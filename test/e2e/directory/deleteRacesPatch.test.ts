/**
 * Through the local host over HTTP: a DELETE that carries the ETag a client read races a PATCH of
 * the same employee, 40 rounds. Never do both succeed — an acknowledged edit is never deleted by
 * a delete whose condition no longer held. (The deterministic proof, with the delete held between
 * its read and its transaction, is test/integration/directory/employees/deleteRaces.test.ts.)
 */
import { startHost, type RunningHost } from '../../support/host';
import { asAdmin } from '../../support/principals';
import { testClients, uniqueTableName } from '../../support/storage';

const EMPLOYEES_TABLE = uniqueTableName('EmpRace');
const ROUNDS = 40;
let host: RunningHost;

beforeAll(async () => {
  host = await startHost({ env: { EMPLOYEES_TABLE } });
});
afterAll(async () => {
  await host?.stop();
  await testClients().table(EMPLOYEES_TABLE).deleteTable();
});

async function send(method: string, path: string, body?: unknown, headers = {}) {
  const response = await fetch(
    `${host.baseUrl}${path}`,
    asAdmin({
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  await response.arrayBuffer();
  return { status: response.status, etag: response.headers.get('etag') };
}

it(`never lets a stale conditional DELETE and a PATCH both succeed (${ROUNDS} rounds)`, async () => {
  expect((await send('PUT', '/departments/Race', {})).status).toBe(201);
  const outcomes = { deleteWon: 0, patchWon: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const id = String(round).padStart(6, '0');
    const path = `/departments/Race/employees/${id}`;
    const created = await send('POST', '/departments/Race/employees', {
      employeeId: id,
      firstName: 'Ada',
      lastName: 'Race',
      email: `ada.${id}@example.com`,
    });
    expect(created.status).toBe(201);
    const [removed, patched] = await Promise.all([
      send('DELETE', path, undefined, { 'if-match': created.etag! }),
      send('PATCH', path, { firstName: `Edited ${round}` }),
    ]);
    const deleted = removed.status === 204;
    const edited = patched.status === 200;
    // One wins: the delete (then the patch finds nothing, 404) or the patch (then the delete's
    // ETag is stale, 412).
    expect([deleted, edited]).not.toEqual([true, true]);
    expect(deleted || edited).toBe(true);
    const after = await send('GET', path);
    expect(after.status).toBe(edited ? 200 : 404);
    if (deleted) outcomes.deleteWon++;
    else outcomes.patchWon++;
  }
  expect(outcomes.deleteWon + outcomes.patchWon).toBe(ROUNDS);
}, 240_000);
