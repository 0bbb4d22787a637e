/**
 * The host's own endpoints as deployed (API.md "The host's own endpoints"): in Azure the Durable
 * webhooks and the admin API want the system or master key whoever the caller is, so behind the
 * Azure-mode front a signed-in caller — an employee, an admin — gets 401 without the host key, and
 * an anonymous one the platform's 401 first. With the key they answer, and what they answer names
 * the front, never the internal host's port. The internal host serves only what comes through the
 * front: no other local process can hand the app a principal. The local test issuer answers only
 * to its own name and mints only from JSON.
 */
import { PRINCIPAL_HEADER } from '../../../src/identity/principal';
import { adminPrincipal } from '../../support/principals';
import { WAIT_MS } from '../../support/waits';
import { expectPlatformRefusal, startAzureMode, type AzureMode } from '../../support/azureMode';
import { expectError, expectJson, send, type Reply } from '../acceptance/client';

const WEBHOOK = '/runtime/webhooks/durabletask';
const admin = { userId: 'azure-admin', roles: ['DirectoryAdmin'] };
const employee = { userId: 'azure-emp', employee: { department: 'Sales', employeeId: '000321' } };

let azure: AzureMode;
beforeAll(async () => {
  azure = await startAzureMode();
});
afterAll(async () => {
  await azure?.stop();
});

/** A request to the front's origin (not under /api), as a caller with a token, or none. */
async function viaFront(
  method: string,
  path: string,
  options: { token?: string; key?: string; json?: unknown } = {},
): Promise<Reply> {
  return send(azure.origin, method, path, {
    principal: null,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.key ? { 'x-functions-key': options.key } : {}),
    },
    ...(options.json === undefined ? {} : { json: options.json }),
  });
}

describe('behind the front', () => {
  it.each([
    ['GET', `${WEBHOOK}/instances/`],
    ['POST', `${WEBHOOK}/orchestrators/ArchiveDepartmentOrchestrator`],
    ['POST', `${WEBHOOK}/instances/abc/terminate`],
    ['GET', '/admin/host/status'],
    ['POST', '/admin/functions/dropExpiredLoginTables'],
  ])('a signed-in employee or admin without the key gets 401 at %s %s', async (method, path) => {
    for (const caller of [employee, admin]) {
      const reply = await viaFront(method, path, {
        token: await azure.tokenFor(caller),
        ...(method === 'POST' ? { json: { department: 'Sales' } } : {}),
      });
      expectError(reply, 401, 'HostKeyRequired');
    }
  });

  it('an anonymous caller gets the platform’s 401 first, key or not', async () => {
    expectPlatformRefusal(await viaFront('GET', `${WEBHOOK}/instances/`));
    expectPlatformRefusal(await viaFront('GET', '/admin/host/status', { key: azure.host.key! }));
  });

  it('with the key a signed-in caller is served, and the answers name the front only', async () => {
    const token = await azure.tokenFor(admin);
    const key = azure.host.key!;
    expectJson(await viaFront('GET', '/admin/host/status', { token, key }), 200);
    const started = await viaFront('POST', `${WEBHOOK}/orchestrators/AuditIndexesOrchestrator`, {
      token,
      key,
      json: { repair: false },
    });
    expect(started.status).toBe(202);
    const urls = Object.entries(started.body as Record<string, string>).filter(
      ([name]) => name !== 'id',
    );
    expect(urls.length).toBeGreaterThan(0);
    for (const [, url] of urls) expect(new URL(url).origin).toBe(azure.origin);
    expect(started.text).not.toContain(`:${azure.host.port}`);
    expect(new URL(started.headers.get('location')!).origin).toBe(azure.origin);
  });

  it("runs the app's own orchestrations (its Durable client holds the key)", async () => {
    const token = await azure.tokenFor(admin);
    const started = expectJson(
      await send(azure.baseUrl, 'POST', '/maintenance/indexes/audit', {
        principal: null,
        headers: { authorization: `Bearer ${token}` },
        json: { repair: false },
      }),
      202,
    );
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const status = expectJson(
        await send(azure.origin, 'GET', String(started.statusUri), {
          principal: null,
          headers: { authorization: `Bearer ${token}` },
        }),
        200,
      );
      if (status.runtimeStatus === 'Completed') break;
      expect(['Pending', 'Running']).toContain(status.runtimeStatus);
      if (Date.now() > deadline) throw new Error('the audit did not complete');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
});

describe('the internal host', () => {
  /** A request straight to the internal host, past the front. */
  const direct = (path: string, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${azure.host.origin}${path}`, { headers });

  it('refuses what does not come through the front, a hand-written principal included', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { [PRINCIPAL_HEADER]: adminPrincipal },
      { [PRINCIPAL_HEADER]: adminPrincipal, 'x-local-front-secret': 'guessed' },
    ];
    for (const headers of attempts) {
      for (const path of ['/api/departments', '/api/health']) {
        const reply = await direct(path, headers);
        expect({ path, status: reply.status }).toEqual({ path, status: 403 });
        expect(((await reply.json()) as { error: { code: string } }).error.code).toBe(
          'NotThroughFront',
        );
      }
    }
  });

  it('serves its own endpoints to a caller with the key only', async () => {
    expect((await direct('/admin/host/status')).status).toBe(401);
    expect(
      (await direct('/admin/host/status', { 'x-functions-key': azure.host.key! })).status,
    ).toBe(200);
  });
});

describe('the local test issuer', () => {
  it('answers only to its own loopback name', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(
          `${azure.issuer.issuer}/.well-known/openid-configuration`,
          { headers: { host: 'evil.example' } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        )
        .once('error', reject);
    });
    expect(status).toBe(421);
    expect((await fetch(`${azure.issuer.issuer}/.well-known/openid-configuration`)).status).toBe(
      200,
    );
  });

  it('mints a token from a JSON body only (no form or text/plain post a page could send)', async () => {
    const claims = JSON.stringify({ claims: { oid: 'x', roles: ['DirectoryAdmin'] } });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const reply = await fetch(`${azure.issuer.issuer}/dev/token`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: claims,
      });
      expect({ type, status: reply.status }).toEqual({ type, status: 415 });
    }
    const minted = await fetch(`${azure.issuer.issuer}/dev/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: claims,
    });
    expect(minted.status).toBe(200);
  });
});
