/**
 * Who may call what: every registered HTTP route (read from the host's own function list, so a
 * new route without a row here fails) × ten callers, each with the status API.md's
 * "Authorization" section gives it. The same table runs twice: against the local host with
 * hand-sent principal headers, and "as deployed" behind the imitation of App Service
 * authentication (test/support/azureMode.ts), where each caller is a bearer token whose claims
 * make the platform hand the app that principal, the anonymous caller sends none and is refused by
 * the platform itself, and the forged callers still send their forged header beside their token. Allowed callers send a request the route then refuses
 * or answers without changing anything (bad input → 400, a stale ETag → 412, nothing there → 404),
 * so that every cell is checked on the same data; refused callers get 401/403 in the JSON error
 * shape, decided before the input is even validated.
 */
import { randomBytes } from 'node:crypto';
import { PRINCIPAL_HEADER } from '../../../src/identity/principal';
import { encodePrincipalHeader } from '../../../tools/easyauth/principalHeader';
import { outsideTheDocument } from '../../support/apiContract';
import { expectPlatformRefusal, startAzureMode } from '../../support/azureMode';
import { registeredHttpRoutes, startHost, type RunningHost } from '../../support/host';
import { expectError, send, seg, uniqueDepartment, type Reply } from '../acceptance/client';

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64');

const id = '000123';
const role = (name: string, department: string): string =>
  `${name}:${department.replace(/ /g, '%20')}`;

/** The departments of one run (each run creates its own). */
interface Departments {
  dept: string;
  twinDept: string;
  /** A department nobody here holds a role for (targets of admin-only work that must stay harmless). */
  elsewhere: string;
}

function departments(): Departments {
  return {
    dept: uniqueDepartment('Authz'),
    twinDept: uniqueDepartment('AuthzTwin'),
    elsewhere: uniqueDepartment('AuthzElsewhere'),
  };
}

/** The callers, as principal header values (`null`: anonymous). */
function callers({ dept, twinDept }: Departments) {
  return {
    anonymous: null,
    self: encodePrincipalHeader({
      userId: 'authz-self',
      employee: { department: dept, employeeId: id },
    }),
    twin: encodePrincipalHeader({
      userId: 'authz-twin',
      employee: { department: twinDept, employeeId: id },
    }),
    reader: encodePrincipalHeader({
      userId: 'authz-reader',
      roles: [role('DirectoryReader', dept)],
    }),
    otherReader: encodePrincipalHeader({
      userId: 'authz-other-reader',
      roles: [role('DirectoryReader', twinDept)],
    }),
    editor: encodePrincipalHeader({
      userId: 'authz-editor',
      roles: [role('DirectoryEditor', dept)],
    }),
    telemetry: encodePrincipalHeader({ userId: 'authz-telemetry', roles: ['TelemetryWriter'] }),
    admin: encodePrincipalHeader({ userId: 'authz-admin', roles: ['DirectoryAdmin'] }),
    forgedRoleType: b64({
      auth_typ: 'aad',
      role_typ: 'grp',
      claims: [
        { typ: 'name', val: 'mallory' },
        { typ: 'grp', val: 'DirectoryAdmin' },
      ],
    }),
    paddedRole: encodePrincipalHeader({ userId: 'authz-padded', roles: [' DirectoryAdmin '] }),
  } as const;
}
type Caller = keyof ReturnType<typeof callers>;
const ALL = Object.keys(callers(departments())) as Caller[];
const SIGNED_IN = ALL.filter((caller) => caller !== 'anonymous');
/** Callers whose header is a forgery: behind the platform they still send it, beside their token. */
const FORGED: readonly Caller[] = ['forgedRoleType', 'paddedRole'];

interface Probe {
  path: string;
  /** Who gets past authorization; everyone else gets 401 (anonymous) or 403. */
  allowed: readonly Caller[];
  /** What an allowed caller gets for this (harmless) request. */
  status: number;
  /** A method the OpenAPI document does not list for the path (the fallback's 405 and 404). */
  offDocument?: boolean;
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** Whether the route reads a JSON body (each must refuse one nested too deeply). */
interface Row {
  probes: Probe[];
  readsJson?: boolean;
}

const STALE_ETAG = `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"`;

/** Every route's probes, on the departments of one run. */
function routeTable({ dept, elsewhere }: Departments): Record<string, Row> {
  const e = `/departments/${seg(dept)}/employees/${id}`;
  const d = `/departments/${seg(dept)}`;
  return {
    'GET health': { probes: [{ path: '/health', allowed: ALL, status: 200 }] },
    'GET openapi.json': { probes: [{ path: '/openapi.json', allowed: ALL, status: 200 }] },
    'GET console/{*path}': {
      probes: [
        { path: '/console/config.json', allowed: ALL, status: 200 },
        { path: '/console/..%2F..%2Fpackage.json', allowed: ALL, status: 404 },
      ],
    },
    // The fallback (functions/fallback.ts): what no route takes, for any signed-in caller.
    'GET {*path}': {
      probes: [{ path: '/nothing-here', allowed: SIGNED_IN, status: 404, offDocument: true }],
    },
    'POST {*path}': {
      // Not /health: App Service authentication excludes it, so no caller is ever known there.
      probes: [{ path: '/me', allowed: SIGNED_IN, status: 405, offDocument: true }],
    },
    'PUT {*path}': {
      probes: [{ path: '/logins', allowed: SIGNED_IN, status: 405, offDocument: true }],
    },
    'PATCH {*path}': {
      probes: [{ path: d, allowed: SIGNED_IN, status: 405, offDocument: true }],
    },
    'DELETE {*path}': {
      probes: [{ path: '/departments', allowed: SIGNED_IN, status: 405, offDocument: true }],
    },
    'GET me': { probes: [{ path: '/me', allowed: SIGNED_IN, status: 200 }] },
    'GET departments': { probes: [{ path: '/departments', allowed: SIGNED_IN, status: 200 }] },
    'GET departments/{dept}': { probes: [{ path: d, allowed: SIGNED_IN, status: 200 }] },
    'PUT departments/{dept}': {
      readsJson: true,
      probes: [{ path: d, allowed: ['editor', 'admin'], status: 400, json: { description: 5 } }],
    },
    'PUT departments/{dept}/manager': {
      readsJson: true,
      probes: [{ path: `${d}/manager`, allowed: ['editor', 'admin'], status: 400, json: {} }],
    },
    'GET departments/{dept}/employees': {
      probes: [{ path: `${d}/employees`, allowed: ['reader', 'admin'], status: 200 }],
    },
    'POST departments/{dept}/employees': {
      readsJson: true,
      probes: [{ path: `${d}/employees`, allowed: ['editor', 'admin'], status: 400, json: {} }],
    },
    'POST departments/{dept}/employees/import': {
      readsJson: true,
      probes: [
        { path: `${d}/employees/import`, allowed: ['editor', 'admin'], status: 400, json: {} },
      ],
    },
    'GET departments/{dept}/employees/by-email/{*email}': {
      probes: [
        {
          path: `${d}/employees/by-email/nobody@x.test`,
          allowed: ['reader', 'admin'],
          status: 404,
        },
      ],
    },
    'GET departments/{dept}/employees/{id}': {
      probes: [{ path: e, allowed: ['self', 'reader', 'admin'], status: 200 }],
    },
    'PATCH departments/{dept}/employees/{id}': {
      readsJson: true,
      probes: [{ path: e, allowed: ['editor', 'admin'], status: 400, json: { age: 'old' } }],
    },
    'DELETE departments/{dept}/employees/{id}': {
      probes: [
        { path: e, allowed: ['editor', 'admin'], status: 412, headers: { 'if-match': STALE_ETAG } },
      ],
    },
    'GET employees': {
      probes: [
        { path: `/employees?lastName=Authz`, allowed: SIGNED_IN, status: 200 },
        {
          path: `/employees?lastName=Authz&department=${seg(dept)}`,
          allowed: ['reader', 'admin'],
          status: 200,
        },
      ],
    },
    'POST departments/{dept}/employees/{id}/archive': {
      probes: [
        { path: `${d}/employees/000999/archive`, allowed: ['editor', 'admin'], status: 404 },
      ],
    },
    'GET archive/departments/{dept}/employees/{id}': {
      probes: [{ path: `/archive${e}`, allowed: ['reader', 'admin'], status: 404 }],
    },
    'GET departments/{dept}/employees/{id}/reviews': {
      probes: [{ path: `${e}/reviews`, allowed: ['self', 'editor', 'admin'], status: 200 }],
    },
    'PUT departments/{dept}/employees/{id}/reviews/{year}': {
      readsJson: true,
      probes: [{ path: `${e}/reviews/2026`, allowed: ['editor', 'admin'], status: 400, json: {} }],
    },
    'PUT departments/{dept}/employees/{id}/photo': {
      readsJson: true,
      probes: [
        {
          path: `${e}/photo`,
          allowed: ['self', 'editor', 'admin'],
          status: 400,
          json: { blobName: 'not-a-photo-of-this-employee' },
        },
      ],
    },
    'GET departments/{dept}/employees/{id}/photo': {
      probes: [{ path: `${e}/photo`, allowed: ['self', 'reader', 'admin'], status: 404 }],
    },
    'DELETE departments/{dept}/employees/{id}/photo': {
      probes: [{ path: `${d}/employees/000999/photo`, allowed: ['editor', 'admin'], status: 404 }],
    },
    'POST departments/{dept}/employees/{id}/expenses': {
      readsJson: true,
      probes: [{ path: `${e}/expenses`, allowed: ['self', 'admin'], status: 400, json: {} }],
    },
    'GET departments/{dept}/employees/{id}/expenses': {
      probes: [{ path: `${e}/expenses`, allowed: ['self', 'admin'], status: 200 }],
    },
    'POST departments/{dept}/employees/{id}/messages': {
      readsJson: true,
      probes: [
        {
          path: `${e}/messages`,
          allowed: ['telemetry', 'admin'],
          status: 400,
          json: { count: -1 },
        },
      ],
    },
    'GET departments/{dept}/employees/{id}/messages/hourly': {
      probes: [
        { path: `${e}/messages/hourly?day=2026-01-01`, allowed: ['self', 'admin'], status: 200 },
      ],
    },
    'GET departments/{dept}/employees/{id}/messages/daily': {
      probes: [{ path: `${e}/messages/daily?year=2026`, allowed: ['self', 'admin'], status: 200 }],
    },
    'POST access-events': {
      readsJson: true,
      probes: [{ path: '/access-events', allowed: ['telemetry', 'admin'], status: 400, json: {} }],
    },
    'GET departments/{dept}/employees/{id}/access-events': {
      probes: [
        {
          path: `${e}/access-events?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`,
          allowed: ['self', 'admin'],
          status: 200,
        },
      ],
    },
    'POST logins': {
      readsJson: true,
      probes: [{ path: '/logins', allowed: ['telemetry', 'admin'], status: 400, json: {} }],
    },
    'GET logins/{*userId}': {
      probes: [{ path: '/logins/authz-self?days=1', allowed: ['self', 'admin'], status: 200 }],
    },
    'POST logs': {
      readsJson: true,
      probes: [{ path: '/logs', allowed: ['telemetry', 'admin'], status: 400, json: {} }],
    },
    'GET logs': { probes: [{ path: '/logs', allowed: ['admin'], status: 400 }] },
    'POST sas/expenses/{dept}/{id}': {
      readsJson: true,
      probes: [
        {
          path: `/sas/expenses/${seg(dept)}/${id}`,
          allowed: ['self', 'admin'],
          status: 400,
          json: { minutes: 0 },
        },
      ],
    },
    'POST sas/departments/{dept}': {
      readsJson: true,
      probes: [
        {
          path: `/sas/departments/${seg(dept)}`,
          allowed: ['reader', 'admin'],
          status: 400,
          json: { minutes: 0 },
        },
      ],
    },
    'POST sas/photos/{dept}/{id}': {
      readsJson: true,
      probes: [
        {
          path: `/sas/photos/${seg(dept)}/${id}`,
          allowed: ['self', 'reader', 'editor', 'admin'],
          status: 400,
          json: { access: 'delete' },
        },
      ],
    },
    'POST sas/logs': {
      readsJson: true,
      probes: [{ path: '/sas/logs', allowed: ['admin'], status: 400, json: { minutes: 0 } }],
    },
    'POST sas/policies/{table}/rotate': {
      probes: [{ path: '/sas/policies/NoSuchTable/rotate', allowed: ['admin'], status: 404 }],
    },
    'POST departments/{dept}/employees/{id}/move': {
      readsJson: true,
      probes: [{ path: `${e}/move`, allowed: ['admin'], status: 400, json: {} }],
    },
    'POST departments/{dept}/archive': {
      // A department that does not exist: the admin's orchestration archives nothing.
      probes: [{ path: `/departments/${seg(elsewhere)}/archive`, allowed: ['admin'], status: 202 }],
    },
    'POST maintenance/indexes/audit': {
      readsJson: true,
      probes: [
        {
          path: '/maintenance/indexes/audit',
          allowed: ['admin'],
          status: 400,
          json: { repair: 'yes' },
        },
      ],
    },
    'GET storage/accounts': {
      probes: [{ path: '/storage/accounts', allowed: ['admin'], status: 200 }],
    },
    'POST departments/{dept}/relocate': {
      readsJson: true,
      probes: [{ path: `${d}/relocate`, allowed: ['admin'], status: 400, json: {} }],
    },
    'GET orchestrations/{id}': {
      probes: [
        {
          path: `/orchestrations/${randomBytes(16).toString('hex')}`,
          allowed: ['admin'],
          status: 404,
        },
      ],
    },
    'GET operations': {
      probes: [{ path: '/operations', allowed: ['admin'], status: 200 }],
    },
    'GET operations/poison/{queue}': {
      // Not one of the app's queues: refused before any storage call.
      probes: [{ path: '/operations/poison/no-such-queue', allowed: ['admin'], status: 400 }],
    },
    'POST operations/poison/{queue}/replay': {
      readsJson: true,
      probes: [
        {
          path: '/operations/poison/no-such-queue/replay',
          allowed: ['admin'],
          status: 400,
          json: { max: 0 },
        },
      ],
    },
  };
}

/** How one run reaches the app and sends a caller's identity. */
interface Target {
  /** The host the routes are read from. */
  host: RunningHost;
  /** Where API calls go. */
  baseUrl: string;
  /** The headers that make a request come from the caller with this principal (`null`: nobody). */
  identify(principal: string | null, forged: boolean): Promise<Record<string, string>>;
  /** Asserts the refusal of an anonymous caller. */
  expectUnauthenticated(reply: Reply): void;
  stop(): Promise<void>;
}

/** The two ways the app is run: the local host, and behind App Service authentication. */
const MODES: { mode: string; start: () => Promise<Target> }[] = [
  {
    mode: 'local host, hand-sent principal headers',
    async start() {
      const host = await startHost();
      return {
        host,
        baseUrl: host.baseUrl,
        identify: async (principal) =>
          principal === null ? {} : { [PRINCIPAL_HEADER]: principal },
        expectUnauthenticated: (reply) => expectError(reply, 401, 'Unauthenticated'),
        stop: () => host.stop(),
      };
    },
  },
  {
    mode: 'as deployed, behind App Service authentication',
    async start() {
      const azure = await startAzureMode();
      const tokens = new Map<string, Promise<string>>();
      return {
        host: azure.host,
        baseUrl: azure.baseUrl,
        async identify(principal, forged) {
          if (principal === null) return {};
          if (!tokens.has(principal)) tokens.set(principal, azure.tokenFor(principal));
          return {
            authorization: `Bearer ${await tokens.get(principal)!}`,
            ...(forged ? { [PRINCIPAL_HEADER]: principal } : {}),
          };
        },
        expectUnauthenticated: (reply) => expectPlatformRefusal(reply),
        stop: () => azure.stop(),
      };
    },
  },
];

describe.each(MODES)('authorization of every HTTP route ($mode)', ({ start }) => {
  const names = departments();
  const { dept, twinDept, elsewhere } = names;
  const CALLERS = callers(names);
  const ROWS = routeTable(names);
  let target: Target;
  let registered: string[];

  /** Sends `method path` as `caller` (or as the principal given) with the probe's body and headers. */
  async function call(
    method: string,
    path: string,
    caller: Caller | { principal: string },
    probe: Partial<Probe> = {},
  ): Promise<Reply> {
    const principal = typeof caller === 'string' ? CALLERS[caller] : caller.principal;
    const forged = typeof caller === 'string' && FORGED.includes(caller);
    const headers = { ...(await target.identify(principal, forged)), ...probe.headers };
    const sent = (): Promise<Reply> =>
      send(target.baseUrl, method, path, {
        principal: null,
        headers,
        ...(probe.json !== undefined ? { json: probe.json } : {}),
        ...(probe.raw !== undefined ? { raw: probe.raw } : {}),
      });
    return probe.offDocument ? outsideTheDocument(sent) : sent();
  }

  beforeAll(async () => {
    target = await start();
    registered = (await registeredHttpRoutes(target.host)).map(
      ({ method, route }) => `${method} ${route}`,
    );
    for (const department of [dept, twinDept]) {
      const created = await call('PUT', `/departments/${seg(department)}`, 'admin', { json: {} });
      expect(created.status).toBe(201);
      const employee = await call('POST', `/departments/${seg(department)}/employees`, 'admin', {
        json: {
          employeeId: id,
          firstName: 'Ada',
          lastName: 'Authz',
          email: `ada.${randomBytes(4).toString('hex')}@example.com`,
        },
      });
      expect(employee.status).toBe(201);
    }
  });
  afterAll(async () => {
    await target?.stop();
  });

  it('has a row for every registered route and none for a route that does not exist', () => {
    expect(registered.length).toBeGreaterThan(30);
    expect([...registered].sort()).toEqual(Object.keys(ROWS).sort());
  });

  const cells = Object.entries(ROWS).flatMap(([key, row]) =>
    row.probes.flatMap((probe) =>
      ALL.map((caller) => ({ key, probe, caller, allowed: probe.allowed.includes(caller) })),
    ),
  );

  it.each(cells)('$key $probe.path as $caller', async ({ key, probe, caller, allowed }) => {
    const method = key.split(' ')[0]!;
    const reply = await call(method, probe.path, caller, probe);
    if (allowed) {
      if (reply.status !== probe.status) {
        throw new Error(`Expected ${probe.status}, got ${reply.status}: ${reply.text}`);
      }
    } else if (caller === 'anonymous') {
      target.expectUnauthenticated(reply);
    } else {
      expectError(reply, 403, 'Forbidden');
    }
  });

  it('refuses JSON nested deeper than the limit with 400 InvalidJson on every route that reads JSON', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const nestedEntry = JSON.stringify({
      source: 'web',
      entries: [
        {
          at: '2026-01-01T00:00:00Z',
          level: 'Error',
          message: 'x',
          extra: JSON.parse(`${'{"a":'.repeat(100)}1${'}'.repeat(100)}`),
        },
      ],
    });
    const jsonRows = Object.entries(ROWS).filter(([, row]) => row.readsJson);
    expect(jsonRows.length).toBeGreaterThan(15);
    for (const [key, row] of jsonRows) {
      const probe = row.probes[0]!;
      for (const raw of [deep, nestedEntry]) {
        const reply = await call(key.split(' ')[0]!, probe.path, 'admin', {
          raw,
          headers: { 'content-type': 'application/json' },
        });
        if (reply.status !== 400) throw new Error(`${key}: expected 400, got ${reply.status}`);
        expectError(reply, 400, 'InvalidJson');
      }
    }
  });

  it('limits the org-wide last-name search to departments the caller may read', async () => {
    const found = async (caller: Caller): Promise<string[]> => {
      const reply = await call('GET', '/employees?lastName=Authz&pageSize=1000', caller);
      expect(reply.status).toBe(200);
      return ((reply.body as { items: { department: string }[] }).items ?? [])
        .map((item) => item.department)
        .filter((name) => name === dept || name === twinDept)
        .sort();
    };
    expect(await found('reader')).toEqual([dept]);
    expect(await found('otherReader')).toEqual([twinDept]);
    expect(await found('telemetry')).toEqual([]);
    expect(await found('admin')).toEqual([dept, twinDept].sort());
  });

  it('lets an editor update its department but only an admin create one', async () => {
    const editorOfNew = encodePrincipalHeader({
      userId: 'authz-editor-new',
      roles: [role('DirectoryEditor', elsewhere)],
    });
    const refused = await call(
      'PUT',
      `/departments/${seg(elsewhere)}`,
      { principal: editorOfNew },
      {
        json: {},
      },
    );
    expectError(refused, 403, 'Forbidden');
    const updated = await call('PUT', `/departments/${seg(dept)}`, 'editor', {
      json: { description: 'Edited' },
    });
    expect(updated.status).toBe(200);
  });
});
