/**
 * App Service authentication ("Easy Auth") on the Function App, read from the bicep and from
 * infra/app/auth-settings.json, which the bicep loads: the `authsettingsV2` resource requires an
 * Entra ID access token for every path except the anonymous routes (the health probe, the API
 * description, the web console and its files), answers 401 itself, keeps no tokens, and takes the
 * app registration from parameters that azd fills in. Also: every HTTP route has a row in
 * docs/security.md's table.
 */
import { BicepFile, objectEntries, objectLiterals, readRepoFile, valueAt } from './bicep';
import { registeredFunctions } from './registrations';

const main = new BicepFile('main.bicep');
const api = new BicepFile('app/api.bicep');

interface HttpRoute {
  name: string;
  route: string;
  methods: string[];
  authLevel: string;
}

/** Every HTTP function the app registers, with its route, methods and auth level. */
function httpRoutes(): HttpRoute[] {
  return registeredFunctions()
    .filter((fn) => fn.trigger?.type.toLowerCase() === 'httptrigger')
    .map(({ name, trigger }) => ({
      name,
      route: trigger!.route ?? name,
      methods: (trigger!.methods ?? []).map((m) => m.toUpperCase()),
      authLevel: (trigger!.authLevel ?? 'function').toLowerCase(),
    }));
}

let cachedRoutes: HttpRoute[] | undefined;
const routes = (): HttpRoute[] => (cachedRoutes ??= httpRoutes());

/** The host's HTTP route prefix (host.json `extensions.http.routePrefix`, default `api`). */
function routePrefix(): string {
  const hostJson = JSON.parse(readRepoFile('host.json')) as {
    extensions?: { http?: { routePrefix?: string } };
  };
  return hostJson.extensions?.http?.routePrefix ?? 'api';
}

/** The request path of a route template, e.g. `/api/health`. */
const requestPath = (route: string): string =>
  `/${[routePrefix(), route].filter(Boolean).join('/')}`;

/** A route template with its parameter names dropped: `departments/{dept}` → `departments/{}`. */
const routeShape = (route: string): string =>
  route.replace(/^\/+/, '').replace(/\{\*?[^}]*\}/g, '{}');

function authSettings(): ReturnType<BicepFile['resources']>[number] {
  const found = api
    .resourcesOfType('Microsoft.Web/sites/config')
    .filter((r) => valueAt(r.body, 'name') === "'authsettingsV2'");
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** infra/app/auth-settings.json: the settings bicep loads (and the local Azure-mode front reads). */
interface AuthSettingsJson {
  platform?: { enabled?: boolean };
  globalValidation?: {
    requireAuthentication?: boolean;
    unauthenticatedClientAction?: string;
    redirectToProvider?: string;
    excludedPaths?: string[];
  };
  httpSettings?: { requireHttps?: boolean };
  identityProviders?: unknown;
  login?: { tokenStore?: { enabled?: boolean } };
}

const authJson = JSON.parse(readRepoFile('infra/app/auth-settings.json')) as AuthSettingsJson;
const excludedPaths = (): string[] => authJson.globalValidation?.excludedPaths ?? [];

/**
 * Whether the excluded path `excluded` lets `path` through anonymously: a path matches itself
 * exactly, and one ending in `/*` matches every path below it.
 */
const matches = (excluded: string, path: string): boolean =>
  excluded.endsWith('/*')
    ? path.toLowerCase().startsWith(excluded.slice(0, -1).toLowerCase())
    : path.toLowerCase() === excluded.toLowerCase();

/** Whether App Service authentication lets `path` through anonymously. */
const isExcluded = (path: string): boolean => excludedPaths().some((e) => matches(e, path));

/** The `var` of api.bicep that holds the identity provider part merged into the file's settings. */
const PROVIDER_VAR = 'authIdentityProvider';

describe('App Service authentication (authsettingsV2)', () => {
  it('is a config resource of the Function App, always deployed, after the app settings', () => {
    const auth = authSettings();
    expect(valueAt(auth.body, 'parent')).toBe('functionApp');
    expect(auth.condition).toBeUndefined();
    const site = api.resourcesOfType('Microsoft.Web/sites').find((r) => !r.existing)!;
    expect(site.symbol).toBe('functionApp');
    // Two config writes to one site at once (Azure/azure-dev#3125): one after the other.
    const appSettings = api
      .resourcesOfType('Microsoft.Web/sites/config')
      .find((r) => valueAt(r.body, 'name') === "'appsettings'")!;
    expect(valueAt(auth.body, 'dependsOn')).toMatch(
      new RegExp(`^\\[\\s*${appSettings.symbol}\\s*\\]$`),
    );
  });

  it('loads infra/app/auth-settings.json and adds only the identity provider to it', () => {
    const properties = valueAt(authSettings().body, 'properties') ?? '';
    const [, fileVar, providerVar] = /^union\((\w+),\s*(\w+)\)$/.exec(properties) ?? [];
    expect({ fileVar, providerVar }).toEqual({
      fileVar: expect.any(String),
      providerVar: PROVIDER_VAR,
    });
    expect(api.variable(fileVar!)).toBe("loadJsonContent('auth-settings.json')");
    // The provider var sets identityProviders and nothing else, so the JSON stays the one source
    // of the rest (excludedPaths, the 401, the token store).
    expect([...objectEntries(objectLiterals(api.variable(PROVIDER_VAR))[0]!).keys()]).toEqual([
      'identityProviders',
    ]);
    expect(authJson.identityProviders).toBeUndefined();
    // Nothing else in infra/ restates the excluded paths.
    expect(api.text).not.toContain('excludedPaths');
  });

  it('requires an identity everywhere, answers 401 without one, and runs on the platform', () => {
    expect(authJson.platform?.enabled).toBe(true);
    expect(authJson.globalValidation?.requireAuthentication).toBe(true);
    expect(authJson.globalValidation?.unauthenticatedClientAction).toBe('Return401');
    // An API: no login redirect to any provider (the console links to /.auth/login/aad itself).
    expect(authJson.globalValidation?.redirectToProvider).toBeUndefined();
    expect(authJson.httpSettings?.requireHttps).toBe(true);
  });

  it('lets through anonymously the health probe, the API description and the console with its files', () => {
    expect([...excludedPaths()].sort()).toEqual([
      '/api/console',
      '/api/console/*',
      '/api/health',
      '/api/openapi.json',
    ]);
  });

  it('excludes every anonymous route the app registers, and no protected route', () => {
    // A catch-all route (`console/{*path}`) needs its prefix and everything below it.
    const anonymous = routes()
      .filter((r) => r.authLevel === 'anonymous')
      .flatMap((r) => {
        const catchAll = /\/\{\*[^}]*\}$/.exec(r.route);
        if (!catchAll) return [requestPath(r.route)];
        const prefix = requestPath(r.route.slice(0, catchAll.index));
        return [prefix, `${prefix}/`, `${prefix}/some/file.js`];
      });
    expect(anonymous).toContain('/api/health');
    expect(anonymous).toContain('/api/console/some/file.js');
    expect(anonymous.filter((p) => !isExcluded(p))).toEqual([]);
    // Each excluded path serves some anonymous route: none is left over from a removed one.
    expect(excludedPaths().filter((e) => !anonymous.some((p) => matches(e, p)))).toEqual([]);
    // A protected route under an excluded path would be reachable without a token.
    const shadowed = routes()
      .filter((r) => r.authLevel !== 'anonymous')
      .map((r) => requestPath(r.route.replace(/\{[^}]*\}/g, 'x')))
      .filter(isExcluded);
    expect(shadowed).toEqual([]);
  });

  it('validates Entra ID tokens of the app registration and keeps no token store', () => {
    const provider = `{${objectLiterals(api.variable(PROVIDER_VAR))[0]!}}`;
    const aad = 'identityProviders.azureActiveDirectory';
    expect(valueAt(provider, `${aad}.enabled`)).toBe('true');
    expect(valueAt(provider, `${aad}.registration.clientId`)).toBe('authClientId');
    expect(valueAt(provider, `${aad}.registration.openIdIssuer`)).toBe('authOpenIdIssuer');
    // No client secret to store or rotate: bearer tokens, and the console's sign-in takes an ID
    // token (docs/deploy.md, "App registration").
    expect(valueAt(provider, `${aad}.registration.clientSecretSettingName`)).toBeUndefined();
    // v2.0 access tokens name the client id as audience, v1.0 tokens the application id URI.
    const audiences = (valueAt(provider, `${aad}.validation.allowedAudiences`) ?? '')
      .replace(/^\[|\]$/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    expect(audiences).toEqual(['authClientId', "'api://${authClientId}'"]);
    // The console asks GET /api/me who is signed in, not /.auth/me: no token store needed.
    expect(authJson.login?.tokenStore?.enabled).toBe(false);
  });

  it('sets no identity provider other than Microsoft Entra ID', () => {
    const providers =
      valueAt(`{${objectLiterals(api.variable(PROVIDER_VAR))[0]!}}`, 'identityProviders') ?? '';
    expect(providers.replace(/\s+/g, ' ')).toMatch(/^\{ azureActiveDirectory: \{/);
    expect([...objectEntries(objectLiterals(providers)[0]!).keys()]).toEqual([
      'azureActiveDirectory',
    ]);
  });
});

describe('auth parameters', () => {
  const parameters = (
    JSON.parse(readRepoFile('infra/main.parameters.json')) as {
      parameters: Record<string, { value: unknown }>;
    }
  ).parameters;

  it('api.bicep takes the client id and issuer from its caller (no defaults)', () => {
    expect(api.param('authClientId')).toMatchObject({ type: 'string', defaultText: undefined });
    expect(api.param('authOpenIdIssuer')).toMatchObject({ type: 'string', defaultText: undefined });
  });

  it('main.bicep requires the client id and defaults the tenant to the deployment tenant', () => {
    expect(main.param('authClientId')).toMatchObject({ type: 'string', defaultText: undefined });
    expect(main.param('authTenantId')).toMatchObject({
      type: 'string',
      defaultText: 'tenant().tenantId',
    });
    // Both are GUIDs: a placeholder that azd did not fill in fails validation instead of deploying.
    for (const name of ['authClientId', 'authTenantId']) {
      expect(main.text).toMatch(
        new RegExp(
          `@minLength\\(36\\)\\s*@maxLength\\(36\\)\\s*@description\\([^\\n]*\\)\\s*param ${name} `,
        ),
      );
    }
  });

  it('builds the v2.0 issuer of that tenant and passes both to the api module', () => {
    expect(main.variable('authOpenIdIssuer')).toBe(
      "'${environment().authentication.loginEndpoint}${authTenantId}/v2.0'",
    );
    const apiModule = main.modules().find((m) => m.path === './app/api.bicep')!;
    expect(valueAt(apiModule.body, 'params.authClientId')).toBe('authClientId');
    expect(valueAt(apiModule.body, 'params.authOpenIdIssuer')).toBe('authOpenIdIssuer');
  });

  it('fills them from azd environment values in main.parameters.json', () => {
    expect(parameters.authClientId).toEqual({ value: '${AZURE_AUTH_CLIENT_ID}' });
    expect(parameters.authTenantId).toEqual({ value: '${AZURE_AUTH_TENANT_ID}' });
  });

  it('are documented in docs/deploy.md with the app registration steps', () => {
    const doc = readRepoFile('docs/deploy.md');
    for (const text of [
      'authClientId',
      'authTenantId',
      'AZURE_AUTH_CLIENT_ID',
      'AZURE_AUTH_TENANT_ID',
      'az ad app create',
      'DirectoryAdmin',
      'DirectoryEditor:',
      'DirectoryReader:',
      'TelemetryWriter',
      '%20',
      'requestedAccessTokenVersion',
      'claimsMappingPolicies',
      '## App registration',
    ]) {
      expect(`${text}: ${doc.includes(text)}`).toBe(`${text}: true`);
    }
  });
});

describe('docs/security.md', () => {
  const doc = (): string => readRepoFile('docs/security.md');

  it('has a row in the route × caller table for every HTTP route the app registers', () => {
    /** `METHOD shape` of every row of the route × caller table. */
    const rows = new Set(
      [...doc().matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) (\/[^`?]*)[^`]*` *\|/gm)].map(
        ([, method, route]) => `${method} ${routeShape(route!)}`,
      ),
    );
    expect(rows.size).toBeGreaterThan(30);
    const missing = routes().flatMap((r) =>
      r.methods
        .map((method) => `${method} ${routeShape(r.route)}`)
        .filter((key) => !rows.has(key))
        .map((key) => `${key} (function ${r.name}) has no row in docs/security.md`),
    );
    expect(missing).toEqual([]);
  });

  it('names the caller columns the contract defines', () => {
    const header = /^\| route .*$/m.exec(doc())?.[0] ?? '';
    for (const column of [
      'anonymous',
      'signed-in',
      'self',
      'DirectoryReader:{dept}',
      'DirectoryEditor:{dept}',
      'TelemetryWriter',
      'DirectoryAdmin',
    ]) {
      expect(`${column}: ${header.includes(column)}`).toBe(`${column}: true`);
    }
  });

  it('links to the app registration steps in docs/deploy.md', () => {
    expect(doc()).toContain('deploy.md#app-registration');
  });
});
