/**
 * The host's own endpoints closed (API.md "The host's own endpoints"): on a listen address other
 * than loopback, the admin API and the Durable webhooks want the key the host printed at startup
 * from every caller (`x-functions-key` or `?code=`; 401 `HostKeyRequired` without), whatever the
 * spelling of the path; the app's own Durable client, which calls the same API, keeps working.
 *
 * Requests go to 127.0.0.1 — the key is about where the host listens, not where a caller is.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { isolatedSettings, pollUntilEnded, send } from '../orchestrations/support';
import { startHost, type RunningHost } from '../../support/host';

const WEBHOOK = '/runtime/webhooks/durabletask';

interface RawReply {
  status: number;
  json: Record<string, unknown> & { error?: { code: string }; id?: string };
  headers: http.IncomingHttpHeaders;
}

/** One request exactly as written (path not normalised), with JSON in and out. */
function raw(
  host: RunningHost,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<RawReply> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: host.port,
        method,
        path,
        headers: {
          ...(text === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const answer = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode!,
            json: answer ? JSON.parse(answer) : {},
            headers: response.headers,
          });
        });
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

describe('a host listening on every interface', () => {
  let host: RunningHost;
  const settings = isolatedSettings();
  const department = `Keyed${randomBytes(3).toString('hex')}`;
  beforeAll(async () => {
    // Principal headers believed (with the warning), so the app's own routes can be driven too.
    host = await startHost({
      env: settings,
      args: ['--listen', '0.0.0.0', '--trust-principal-headers'],
    });
    expect((await send(host, 'PUT', `/departments/${department}`, {})).status).toBe(201);
    const created = await send(host, 'POST', `/departments/${department}/employees`, {
      employeeId: '000001',
      firstName: 'Kim',
      lastName: 'Kept',
      email: 'kim.kept@example.com',
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('prints its key at startup', () => {
    expect(host.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(host.output()).toContain(`Host key: ${host.key}`);
  });

  it.each([
    ['GET', '/admin/host/status'],
    ['GET', '/admin/functions'],
    ['POST', '/admin/functions/dropExpiredLoginTables'],
    ['GET', `${WEBHOOK}/instances/`],
    ['POST', `${WEBHOOK}/orchestrators/AuditIndexesOrchestrator`],
    ['DELETE', `${WEBHOOK}/instances/?runtimeStatus=Completed`],
    // Other spellings of the same endpoints.
    ['GET', `/api/../runtime/webhooks/durabletask/instances/`],
    ['GET', '/ADMIN/host/status'],
  ])('answers %s %s with 401 without the key, or with a wrong one', async (method, path) => {
    const body = method === 'POST' ? {} : undefined;
    const attempts: Record<string, string>[] = [{}, { 'x-functions-key': 'not-the-key' }];
    for (const headers of attempts) {
      const reply = await raw(host, method, path, headers, body);
      expect({ path, status: reply.status, code: reply.json.error?.code }).toEqual({
        path,
        status: 401,
        code: 'HostKeyRequired',
      });
    }
  });

  it('answers with the key, in the header or as ?code=', async () => {
    const header = await raw(host, 'GET', '/admin/host/status', { 'x-functions-key': host.key! });
    expect(header.status).toBe(200);
    const code = await raw(host, 'GET', `${WEBHOOK}/instances/?code=${host.key!}`);
    expect(code.status).toBe(200);
  });

  it('does not archive a department through the webhooks for a caller without the key', async () => {
    const start = `${WEBHOOK}/orchestrators/ArchiveDepartmentOrchestrator`;
    const refused = await raw(host, 'POST', start, {}, { department });
    expect(refused.status).toBe(401);
    // Nothing started, nothing archived.
    const instances = await raw(host, 'GET', `${WEBHOOK}/instances/?code=${host.key!}`);
    expect(JSON.stringify(instances.json)).not.toContain('ArchiveDepartmentOrchestrator');
    expect((await send(host, 'GET', `/departments/${department}/employees/000001`)).status).toBe(
      200,
    );
  });

  it("still runs the app's own orchestrations: its Durable client carries the key", async () => {
    const started = await send(host, 'POST', `/departments/${department}/archive`);
    expect(started.status).toBe(202);
    const status = await pollUntilEnded(host, String(started.json.statusUri));
    expect(status).toMatchObject({ runtimeStatus: 'Completed', output: { archived: 1 } });
    expect((await send(host, 'GET', `/departments/${department}/employees/000001`)).status).toBe(
      404,
    );
  });
});

describe('a host on loopback', () => {
  let host: RunningHost;
  beforeAll(async () => {
    host = await startHost();
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('has no key: only this machine reaches it, and its own endpoints answer without one', async () => {
    expect(host.key).toBeUndefined();
    expect(host.output()).not.toContain('Host key:');
    expect((await raw(host, 'GET', '/admin/host/status')).status).toBe(200);
    expect((await raw(host, 'GET', `${WEBHOOK}/instances/`)).status).toBe(200);
  });
});
