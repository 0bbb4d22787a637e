/**
 * What orchestration starts and `GET /orchestrations/{id}` give a client, through the local host
 * (whose durable client carries management URLs of its `/runtime/webhooks/durabletask` API, as
 * the extension's carry the system key in Azure): each start answers 202 `{id, statusUri}` with
 * `Location` = `statusUri`, and neither its body nor its headers carry a Durable management URL
 * or a key; the status route answers `{id, name, runtimeStatus, output}` once Completed, 404
 * `OrchestrationNotFound` for an unknown id, and 400 for text that is no instance id.
 */
import type { RunningHost } from '../../support/host';
import { hostWith, isolatedSettings, pollUntilEnded, seedDepartment, send } from './support';
import { adminPrincipal, PRINCIPAL_HEADER } from '../../support/principals';

let host: RunningHost;

beforeAll(async () => {
  host = await hostWith(isolatedSettings());
  await seedDepartment(host, 'Sales', [
    { employeeId: '000001', lastName: 'Jones', email: 'jones@contoso.com' },
  ]);
  await seedDepartment(host, 'Marketing', []);
  await seedDepartment(host, 'Closing', [
    { employeeId: '000009', lastName: 'Last', email: 'last@contoso.com' },
  ]);
});
afterAll(async () => {
  await host?.stop();
});

/** What a client must never be handed: Durable's management API, or a key for it. */
const LEAKS = [/runtime\/webhooks/i, /durabletask/i, /code=/i];

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function raw(method: string, path: string, body?: unknown): Promise<RawResponse> {
  const response = await fetch(`${host.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: adminPrincipal },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    text: await response.text(),
  };
}

function expectNoLeak(response: RawResponse): void {
  const exposed = [response.text, ...Object.entries(response.headers).flat()];
  for (const pattern of LEAKS) {
    expect(exposed.filter((text) => pattern.test(text))).toEqual([]);
  }
}

const starts: Array<[string, string, unknown]> = [
  ['move', '/departments/Sales/employees/000001/move', { toDepartment: 'Marketing' }],
  ['department archive', '/departments/Closing/archive', undefined],
  ['index audit', '/maintenance/indexes/audit', { repair: false }],
];

describe.each(starts)('the %s start', (_what, path, body) => {
  it('answers 202 {id, statusUri} with Location, and no management URL or key', async () => {
    const started = await raw('POST', path, body);
    expect(started.status).toBe(202);
    expectNoLeak(started);
    const json = JSON.parse(started.text) as { id: string; statusUri: string };
    expect(Object.keys(json).sort()).toEqual(['id', 'statusUri']);
    expect(json.id).toMatch(/^[0-9a-f]{32}$/);
    expect(json.statusUri).toBe(`/api/orchestrations/${json.id}`);
    expect(started.headers.location).toBe(json.statusUri);

    const status = await pollUntilEnded(host, json.statusUri);
    expect(status).toMatchObject({ id: json.id, runtimeStatus: 'Completed' });
    // `progress` is the orchestrator's own report (counts and step names), when it made one.
    expect(Object.keys(status).sort()).toEqual(
      [
        'id',
        'name',
        'output',
        'runtimeStatus',
        ...('progress' in status ? ['progress'] : []),
      ].sort(),
    );

    const read = await raw('GET', `/orchestrations/${json.id}`);
    expect(read.status).toBe(200);
    expectNoLeak(read);
  });
});

it('reports the output of a completed orchestration', async () => {
  const started = await send(host, 'POST', '/maintenance/indexes/audit', { repair: false });
  const status = await pollUntilEnded(host, String(started.json.statusUri));
  expect(status).toEqual({
    id: started.json.id,
    name: 'AuditIndexesOrchestrator',
    runtimeStatus: 'Completed',
    output: expect.objectContaining({
      checked: expect.any(Number),
      missing: expect.any(Number),
      stale: expect.any(Number),
      repaired: 0,
      repair: false,
    }),
    progress: { departmentsAudited: expect.any(Number) },
  });
});

it('answers 404 OrchestrationNotFound for an id no instance has', async () => {
  const response = await raw('GET', '/orchestrations/0123456789abcdef0123456789abcdef');
  expect(response.status).toBe(404);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(response.text)).toEqual({
    error: { code: 'OrchestrationNotFound', message: expect.any(String) },
  });
  expectNoLeak(response);
});

it.each(['not-an-id', '0123456789ABCDEF0123456789ABCDEF', '@entity@key', 'a'.repeat(300)])(
  'answers 400 in the error shape for the id %s',
  async (id) => {
    const response = await raw('GET', `/orchestrations/${encodeURIComponent(id)}`);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toEqual({
      error: {
        code: expect.any(String),
        message: expect.any(String),
        target: 'route.id',
        details: [{ field: 'route.id', problem: expect.any(String) }],
      },
    });
  },
);
