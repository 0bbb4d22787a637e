/**
 * Every setting src/config/index.ts reads is set in the Function App's app settings (infra/app/api.bicep)
 * or deliberately left to its default (infra/settings-defaulted.json, docs/deploy.md), and the
 * settings bicep does set are the identity-based ones Flex Consumption expects.
 */
import { BicepFile, objectEntries, objectLiterals, readRepoFile, valueAt } from './bicep';

const api = new BicepFile('app/api.bicep');

/**
 * The setting names src/config/index.ts passes to its readers (`readString(env, 'NAME'`, ...), with
 * template names such as `AzureWebJobsStorage__${service}ServiceUri` expanded over the string
 * literal union the placeholder is typed with.
 */
function settingsReadByConfig(): string[] {
  // src/config/platform.ts holds the config module's platform part (read through readPlatformAuth);
  // src/config/accountSettings.ts its storage connections and data accounts.
  const source =
    readRepoFile('src/config/index.ts') +
    readRepoFile('src/config/platform.ts') +
    readRepoFile('src/config/accountSettings.ts');
  const names = new Set<string>();
  const expand = (name: string): void => {
    const placeholder = /\$\{(\w+)\}/.exec(name);
    if (!placeholder) {
      names.add(name);
      return;
    }
    const values =
      CONNECTION_PLACEHOLDERS[placeholder[1]!] ??
      [
        ...(new RegExp(`\\b${placeholder[1]}\\s*:\\s*((?:'[^']*'\\s*\\|?\\s*)+)`)
          .exec(source)?.[1]
          ?.matchAll(/'([^']*)'/g) ?? []),
      ].map((literal) => literal[1]!);
    if (values.length === 0) {
      throw new Error(
        `src/config/index.ts reads the template setting \`${name}\` but "${placeholder[1]}" is not typed as a union of string literals, so this test cannot expand it`,
      );
    }
    for (const value of values) expand(name.replace(placeholder[0], value));
  };
  for (const match of source.matchAll(/\bread[A-Z]\w*\(\s*env\s*,\s*(['`])(.*?)\1/g)) {
    expand(match[2]!);
  }
  return [...names].sort();
}

/**
 * The connection names a template setting of src/config/accountSettings.ts stands for: `name` is any
 * connection (the home account's `AzureWebJobsStorage`, or a data account), `connection` a data
 * account only. A data account is `DATA<n>` here, as infra/app/api.bicep names them (`DATA1`, ...).
 */
const CONNECTION_PLACEHOLDERS: Record<string, string[]> = {
  name: ['AzureWebJobsStorage', 'DATA<n>'],
  connection: ['DATA<n>'],
};

/** The `var <x>Settings` variables of api.bicep: name → (setting → value text). */
function settingGroups(): Map<string, Map<string, string>> {
  const groups = new Map<string, Map<string, string>>();
  for (const variable of api.variableNames().filter((name) => name.endsWith('Settings'))) {
    const settings = new Map<string, string>();
    // Every object literal of the value, so both branches of a conditional group count.
    for (const body of objectLiterals(api.variable(variable))) {
      for (const [key, value] of objectEntries(body)) settings.set(key, value);
    }
    groups.set(variable, settings);
  }
  return groups;
}

/**
 * Every app setting api.bicep sets: setting → value text; the settings it sets per data account
 * (`'${account.name}__…'`, dataAccountSettings) as `DATA<n>__…`.
 */
function bicepSettings(): Map<string, string> {
  const all = new Map<string, string>();
  for (const settings of settingGroups().values()) {
    for (const [key, value] of settings) all.set(key.replace('${account.name}', 'DATA<n>'), value);
  }
  return all;
}

const defaulted = (
  JSON.parse(readRepoFile('infra/settings-defaulted.json')) as { settings: Record<string, string> }
).settings;

/** Settings bicep sets for the platform rather than for src/config/index.ts, with the reason. */
const PLATFORM_SETTINGS: Record<string, string> = {
  AzureWebJobsStorage__credential: 'tells the host and extensions to use a managed identity',
  APPLICATIONINSIGHTS_CONNECTION_STRING: 'where the host sends telemetry',
  APPLICATIONINSIGHTS_AUTHENTICATION_STRING: 'Entra-authenticated telemetry ingestion',
  FUNCTIONS_REQUEST_BODY_SIZE_LIMIT:
    'the host refuses a larger request body while it streams in (the local host reads it too)',
};

/**
 * Settings the platform itself sets on every instance, which src/config/index.ts may read to learn where
 * it runs: bicep must never set them (a hand-set WEBSITE_AUTH_ENABLED would make the app trust
 * principal headers that App Service authentication never checked), so they are neither set nor
 * "defaulted".
 */
const PLATFORM_PROVIDED: Record<string, string> = {
  WEBSITE_AUTH_ENABLED: 'True when App Service authentication is on for the app',
  WEBSITE_INSTANCE_ID: 'set on every instance in Azure, never locally',
  WEBSITE_HOSTNAME: "the app's default host name",
  WEBSITE_SITE_NAME: 'the app name',
};

describe('app settings', () => {
  it('reads the setting names out of src/config/index.ts (template names expanded)', () => {
    expect(settingsReadByConfig()).toEqual(
      expect.arrayContaining([
        'AzureWebJobsStorage',
        'AzureWebJobsStorage__blobServiceUri',
        'AzureWebJobsStorage__queueServiceUri',
        'AzureWebJobsStorage__tableServiceUri',
        'AzureWebJobsStorage__clientId',
        'EMPLOYEES_TABLE',
        'STORAGE_ACCOUNT_KEY',
        'DATA_ACCOUNTS',
        'DATA<n>__tableServiceUri',
        'DATA<n>__credential',
        'DATA<n>__accountKey',
      ]),
    );
  });

  it('sets in api.bicep, or lists in infra/settings-defaulted.json, every setting src/config/index.ts reads', () => {
    const set = bicepSettings();
    const unaccounted = settingsReadByConfig().filter(
      (name) => !set.has(name) && !(name in defaulted) && !(name in PLATFORM_PROVIDED),
    );
    expect(
      unaccounted.map(
        (name) =>
          `setting ${name} is read by src/config/index.ts but neither set in infra/app/api.bicep (a var <x>Settings) nor listed with a reason in infra/settings-defaulted.json`,
      ),
    ).toEqual([]);
  });

  it('lists no setting as defaulted that bicep sets or the code no longer reads', () => {
    const set = bicepSettings();
    const read = new Set(settingsReadByConfig());
    const wrong = Object.entries(defaulted).flatMap(([name, reason]) => [
      ...(set.has(name) ? [`${name} is listed as defaulted but infra/app/api.bicep sets it`] : []),
      ...(read.has(name)
        ? []
        : [`${name} is listed as defaulted but src/config/index.ts does not read it`]),
      ...(reason.trim().length > 10 ? [] : [`${name} is listed as defaulted without a reason`]),
    ]);
    expect(wrong).toEqual([]);
  });

  it('sets nothing that neither src/config/index.ts nor the platform reads', () => {
    const read = new Set(settingsReadByConfig());
    const unused = [...bicepSettings().keys()].filter(
      (name) => !read.has(name) && !(name in PLATFORM_SETTINGS),
    );
    expect(unused.map((name) => `infra/app/api.bicep sets ${name}, which nothing reads`)).toEqual(
      [],
    );
  });

  it('merges every settings group into the appsettings resource', () => {
    const [appSettings] = api
      .resourcesOfType('Microsoft.Web/sites/config')
      .filter((resource) => valueAt(resource.body, 'name') === "'appsettings'");
    const merged = valueAt(appSettings!.body, 'properties') ?? '';
    const missing = [...settingGroups().keys()].filter(
      (group) => !new RegExp(`\\b${group}\\b`).test(merged),
    );
    expect(
      missing.map(
        (group) => `infra/app/api.bicep: var ${group} is not part of the appsettings union`,
      ),
    ).toEqual([]);
  });

  it('lists every defaulted setting in docs/deploy.md', () => {
    const doc = readRepoFile('docs/deploy.md');
    const undocumented = Object.keys(defaulted).filter((name) => !doc.includes(`\`${name}\``));
    expect(
      undocumented.map((name) => `docs/deploy.md does not list defaulted setting ${name}`),
    ).toEqual([]);
  });

  it('connects the host and the app to storage with the managed identity only', () => {
    const set = bicepSettings();
    expect(set.get('AzureWebJobsStorage__credential')).toBe("'managedidentity'");
    expect(set.get('AzureWebJobsStorage__clientId')).toBe('identityClientId');
    for (const service of ['blob', 'queue', 'table']) {
      expect(set.get(`AzureWebJobsStorage__${service}ServiceUri`)).toBe(
        `'https://\${storageAccountName}.${service}.\${storageSuffix}'`,
      );
    }
    expect(set.has('AzureWebJobsStorage')).toBe(false);
  });

  it('connects each data account with the managed identity, its table SAS key from Key Vault', () => {
    const set = bicepSettings();
    expect(set.get('DATA<n>__credential')).toBe("'managedidentity'");
    expect(set.get('DATA<n>__clientId')).toBe('identityClientId');
    for (const service of ['blob', 'queue', 'table']) {
      expect(set.get(`DATA<n>__${service}ServiceUri`)).toBe(
        `'https://\${account.accountName}.${service}.\${storageSuffix}'`,
      );
    }
    expect(set.get('DATA<n>__accountKey')).toBe(
      "'@Microsoft.KeyVault(SecretUri=${account.keySecretUri})'",
    );
    expect(set.has('DATA<n>')).toBe(false);
    // DATA_ACCOUNTS only when there are data accounts: with none, nothing changes.
    expect(api.variable('dataAccountSettings')).toContain(
      "empty(dataAccounts) ? {} : { DATA_ACCOUNTS: join(map(dataAccounts, account => account.name), ',') }",
    );
  });

  it('sends telemetry with Entra authentication', () => {
    const set = bicepSettings();
    expect(set.get('APPLICATIONINSIGHTS_AUTHENTICATION_STRING')).toBe(
      "'ClientId=${identityClientId};Authorization=AAD'",
    );
    expect(set.get('APPLICATIONINSIGHTS_CONNECTION_STRING')).toBe('appInsightsConnectionString');
  });

  it('reads the storage key only through a Key Vault reference resolved by the identity', () => {
    const set = bicepSettings();
    expect(set.get('STORAGE_ACCOUNT_KEY')).toBe(
      "'@Microsoft.KeyVault(SecretUri=${storageKeySecretUri})'",
    );
    expect(set.get('STORAGE_ACCOUNT_NAME')).toBe('storageAccountName');
    // Only the conditional group holds the key: with enableTableSas=false there is no secret URI.
    expect(api.variable('sasKeySettings')).toMatch(/^empty\(storageKeySecretUri\) \? \{\} :/);
    const site = api.resourcesOfType('Microsoft.Web/sites').find((r) => !r.existing)!;
    expect(valueAt(site.body, 'properties.keyVaultReferenceIdentity')).toBe('identityId');
  });

  it('sets none of the settings the platform provides (WEBSITE_AUTH_ENABLED is its word, not ours)', () => {
    const set = bicepSettings();
    expect(Object.keys(PLATFORM_PROVIDED).filter((name) => set.has(name))).toEqual([]);
    expect(Object.keys(PLATFORM_PROVIDED).filter((name) => name in defaulted)).toEqual([]);
  });

  it('sets none of the settings Flex Consumption rejects', () => {
    const flexRejects = [
      'FUNCTIONS_WORKER_RUNTIME',
      'FUNCTIONS_EXTENSION_VERSION',
      'WEBSITE_NODE_DEFAULT_VERSION',
      'WEBSITE_RUN_FROM_PACKAGE',
      'WEBSITE_CONTENTSHARE',
      'WEBSITE_CONTENTAZUREFILECONNECTIONSTRING',
      'SCM_DO_BUILD_DURING_DEPLOYMENT',
    ];
    expect([...bicepSettings().keys()].filter((name) => flexRejects.includes(name))).toEqual([]);
  });
});
