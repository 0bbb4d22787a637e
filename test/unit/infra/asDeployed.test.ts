/**
 * What `azd up` would get wrong although the bicep validates (issue 47): versions and regions
 * Flex Consumption does not offer, azd variables the docs name that never reach a parameter, a
 * second `azd up` after `azd down`, the prompted client id the smoke check needs, cloud-specific
 * host names, and the key rotation of every account. Microsoft's lists are recorded with their
 * sources in test/fixtures/infra/flex-consumption.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../../src/config/settingErrors';
import { readConnection } from '../../../src/config/accountSettings';
import { BicepFile, allBicepFiles, readRepoFile, REPO_ROOT, valueAt } from './bicep';

const main = new BicepFile('main.bicep');
const api = new BicepFile('app/api.bicep');
const keyVault = new BicepFile('app/keyvault.bicep');
const azureYaml = readRepoFile('azure.yaml');

interface FlexFixture {
  recorded: string;
  nodeVersions: { ga: { version: string; endOfLife: string }[]; preview: string[] };
  regions: { list: string[]; leftOut: Record<string, string> };
}
const flex = JSON.parse(readRepoFile('test/fixtures/infra/flex-consumption.json')) as FlexFixture;

/** main.parameters.json: parameter → the azd variable its value names (`${NAME}` or `${NAME=default}`). */
const parameterVariables = new Map(
  Object.entries(
    (
      JSON.parse(readRepoFile('infra/main.parameters.json')) as {
        parameters: Record<string, { value: unknown }>;
      }
    ).parameters,
  ).flatMap(([parameter, { value }]) => {
    const match = typeof value === 'string' ? /^\$\{(\w+)(?:=[^}]*)?\}$/.exec(value) : null;
    return match ? [[parameter, match[1]!] as const] : [];
  }),
);

/** The script of an azure.yaml hook (`hooks.<hook>.run`). */
function hookScript(hook: string): string {
  const header = `\n  ${hook}:\n`;
  const start = azureYaml.indexOf(header);
  if (start === -1) return '';
  const block: string[] = [];
  for (const line of azureYaml.slice(start + header.length).split('\n')) {
    if (!/^ {4}/.test(line) && line !== '') break;
    block.push(line);
  }
  return /^ {4}run: \|\n((?: {6}.*\n?)+)/m.exec(block.join('\n'))?.[1] ?? '';
}

/** The docs a user follows: README.md and docs/*.md. */
function docs(): { file: string; text: string }[] {
  const files = [
    'README.md',
    ...fs
      .readdirSync(path.join(REPO_ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return files.map((file) => ({ file, text: readRepoFile(file) }));
}

/** Decorator text of `param <name>` in main.bicep (comments stripped). */
function decoratorsOf(name: string): string {
  const at = main.text.search(new RegExp(`^param ${name}\\b`, 'm'));
  const before = main.text.slice(0, at);
  return before.slice(before.lastIndexOf('\nparam ') + 1);
}

describe('Node.js versions Flex Consumption offers', () => {
  const ga = flex.nodeVersions.ga
    .filter((stack) => stack.endOfLife > flex.recorded)
    .map((stack) => stack.version);

  it.each([
    ['main.bicep', main],
    ['app/api.bicep', api],
  ])('%s admits only versions generally available on Flex, and defaults to one', (_file, bicep) => {
    const nodeVersion = bicep.param('nodeVersion');
    expect(nodeVersion.allowed?.length).toBeGreaterThan(0);
    expect(nodeVersion.allowed!.filter((version) => !ga.includes(version))).toEqual([]);
    expect(nodeVersion.allowed!.filter((v) => flex.nodeVersions.preview.includes(v))).toEqual([]);
    expect(nodeVersion.allowed).toContain(nodeVersion.defaultText?.replace(/'/g, ''));
  });

  it('documents the deployable versions, and how to admit 24 once it is GA, in docs/runtime.md', () => {
    const runtime = readRepoFile('docs/runtime.md');
    expect(runtime).toContain('test/fixtures/infra/flex-consumption.json');
    expect(runtime).toMatch(/Node(?:\.js)? 24[^\n]*(?:\n[^\n]+)*preview/);
    expect(runtime).toMatch(/when (?:Node(?:\.js)? )?24 is GA/i);
  });
});

describe('regions', () => {
  it('offers for location exactly the regions of Microsoft’s Flex Consumption azd template (bar its canary)', () => {
    const location = main.param('location');
    const expected = flex.regions.list.filter((region) => !(region in flex.regions.leftOut));
    expect(location.allowed).toEqual(expected);
    // azd still prompts for it as a location (filtered by the allowed list).
    expect(decoratorsOf('location')).toMatch(/@metadata\(\{ azd: \{ type: 'location' \} \}\)/);
    expect(parameterVariables.get('location')).toBe('AZURE_LOCATION');
  });
});

describe('azd variables the docs tell users to set', () => {
  /** Variables azure.yaml's hooks read from the azd environment instead of a parameter. */
  const HOOK_VARIABLES = ['SMOKE_TOKEN', 'SMOKE_FUNCTION_KEY'];

  const documented = docs().flatMap(({ file, text }) =>
    [
      ...text.matchAll(/azd env set\s+([A-Z][A-Z0-9_]*)(?:[ \t]+("[^"\n]*"|'[^'\n]*'|[^\s`]+))?/g),
    ].map((match) => ({ file, name: match[1]!, value: match[2]?.replace(/^["']|["']$/g, '') })),
  );

  it('finds them', () => {
    expect(documented.map((d) => d.name)).toEqual(
      expect.arrayContaining(['DATA_ACCOUNT_COUNT', 'AZURE_AUTH_CLIENT_ID', 'AZURE_LOCATION']),
    );
  });

  it('maps each one through main.parameters.json onto a parameter main.bicep declares (or a hook reads it)', () => {
    const declared = new Set(main.params().map((p) => p.name));
    const reaching = new Map([...parameterVariables].map(([parameter, name]) => [name, parameter]));
    const lost = documented.flatMap(({ file, name }) => {
      if (HOOK_VARIABLES.includes(name)) {
        return azureYaml.includes(`\${${name}`) ? [] : [`${file}: ${name} is read by no hook`];
      }
      const parameter = reaching.get(name);
      if (parameter === undefined) return [`${file}: azd env set ${name} reaches no parameter`];
      return declared.has(parameter) ? [] : [`${file}: ${name} maps to undeclared ${parameter}`];
    });
    expect(lost).toEqual([]);
  });

  it('shows values the parameter accepts (azd silently drops a value it cannot convert)', () => {
    const reaching = new Map([...parameterVariables].map(([parameter, name]) => [name, parameter]));
    const wrong = documented.flatMap(({ file, name, value }) => {
      const parameter = reaching.get(name);
      if (!parameter || value === undefined || /^[$<]/.test(value)) return [];
      const declaration = main.param(parameter);
      const decorators = decoratorsOf(parameter);
      const problems: string[] = [];
      if (declaration.type === 'int') {
        const min = /@minValue\((\d+)\)/.exec(decorators)?.[1];
        const max = /@maxValue\((\d+)\)/.exec(decorators)?.[1];
        if (!/^\d+$/.test(value)) problems.push('is not a whole number');
        else if (min !== undefined && Number(value) < Number(min)) problems.push(`is below ${min}`);
        else if (max !== undefined && Number(value) > Number(max)) problems.push(`is above ${max}`);
      }
      if (declaration.type === 'bool' && !/^(true|false)$/.test(value)) problems.push('is no bool');
      if (declaration.allowed && !declaration.allowed.includes(value))
        problems.push(`is not one of ${declaration.allowed.join(', ')}`);
      return problems.map((p) => `${file}: azd env set ${name} ${value}: ${p}`);
    });
    expect(wrong).toEqual([]);
  });

  it('maps every scalar optional parameter the deploy guide lists, and nothing undeclared', () => {
    const declared = main.params();
    const listed = [...readRepoFile('docs/deploy.md').matchAll(/^\| `(\w+)`\s*\| `[^`]*`\s*\|/gm)]
      .map((m) => m[1]!)
      .filter((name) => declared.some((p) => p.name === name && p.type !== 'array'))
      // One value is admitted: nothing to choose.
      .filter((name) => (main.param(name).allowed?.length ?? 2) > 1);
    expect(listed.filter((name) => !parameterVariables.has(name))).toEqual([]);
    expect(
      [...parameterVariables.keys()].filter((n) => !declared.some((p) => p.name === n)),
    ).toEqual([]);
  });

  it('no longer claims that azd env set does not reach bicep parameters', () => {
    const stale = docs().filter(({ text }) =>
      /`azd env set`\s+(?:does not reach|is not enough)/.test(text),
    );
    expect(stale.map((d) => d.file)).toEqual([]);
  });
});

describe('a second azd up after azd down', () => {
  it('names the Key Vault from a seed that azd down renews, since a soft-deleted vault keeps its name', () => {
    const module = main.modules().find((m) => m.path === './app/keyvault.bicep')!;
    expect(valueAt(module.body, 'params.name')).toBe('keyVaultName');
    expect(main.variable('keyVaultName')).toMatch(/\bkeyVaultNameSeed\b/);
    expect(main.param('keyVaultNameSeed').defaultText).toBe("''");
    const seedVariable = parameterVariables.get('keyVaultNameSeed');
    expect(seedVariable).toBe('AZURE_KEY_VAULT_NAME_SEED');
    // After every `azd down`, a new value (the time of the down) for the next `azd up`.
    const lines = hookScript('postdown')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    expect(lines[0]).toBe('set -eu');
    expect(lines).toContain(`azd env set ${seedVariable} "$(date -u +%Y%m%d%H%M%S)"`);
    expect(azureYaml).toMatch(/^ {2}postdown:\n {4}shell: sh\n {4}continueOnError: false\n/m);
  });

  it('keeps purge protection off, so azd down --purge can free the name at once', () => {
    const vault = keyVault.resourcesOfType('Microsoft.KeyVault/vaults').find((r) => !r.existing)!;
    expect(valueAt(vault.body, 'properties.enablePurgeProtection')).toBeUndefined();
    expect(valueAt(vault.body, 'properties.softDeleteRetentionInDays')).toBe('7');
  });

  it('declares no other resource whose deleted name stays reserved', () => {
    // Resource types that keep a deleted resource's name until it is purged.
    const reserving = [
      'Microsoft.KeyVault/vaults',
      'Microsoft.KeyVault/managedHSMs',
      'Microsoft.AppConfiguration/configurationStores',
      'Microsoft.CognitiveServices/accounts',
      'Microsoft.ApiManagement/service',
    ];
    const found = allBicepFiles().flatMap((file) =>
      file
        .resources()
        .filter((r) => !r.existing && reserving.includes(r.type))
        .map((r) => `${file.relativePath}: ${r.type}`),
    );
    expect(found).toEqual(['app/keyvault.bicep: Microsoft.KeyVault/vaults']);
  });

  it('is walked in docs/deploy.md, with what azd down --purge does', () => {
    const doc = readRepoFile('docs/deploy.md');
    const section = (doc.split('### Again after `azd down`')[1] ?? '').split('\n## ')[0]!;
    expect(section).not.toBe('');
    expect(section).toContain('AZURE_KEY_VAULT_NAME_SEED');
    expect(section).toContain('azd down --purge');
    expect(section).toContain('postdown');
  });
});

describe('the client id the postdeploy smoke check asks a token for', () => {
  it('is an output, so it reaches the hook however authClientId was given (azd keeps a prompted one in config.json)', () => {
    expect(main.text).toMatch(/^output AZURE_AUTH_CLIENT_ID string = authClientId$/m);
    const script = hookScript('postdeploy');
    expect(script).toContain('api://$AZURE_AUTH_CLIENT_ID');
    // No stand-in value: a missing id fails the hook (set -u) instead of skipping the `me` check.
    expect(script).not.toMatch(/AZURE_AUTH_CLIENT_ID:-/);
  });
});

describe('cloud-specific host names', () => {
  const SUFFIXES =
    /core\.windows\.net|azurewebsites\.(?:net|us)|chinacloud(?:api|sites)\.cn|usgovcloudapi\.net/;

  it('are not written into the bicep but for the per-cloud App Service table', () => {
    const found = allBicepFiles().flatMap((file) => {
      const allowed =
        file.relativePath === 'main.bicep' ? file.variable('appServiceDomainSuffixes') : '';
      const text = allowed ? file.text.replace(allowed, '') : file.text;
      return text
        .split('\n')
        .filter((line) => SUFFIXES.test(line))
        .map((line) => `${file.relativePath}: ${line.trim()}`);
    });
    expect(found).toEqual([]);
    expect(main.variable('appServiceDomainSuffixes')).toMatch(/AzureCloud: 'azurewebsites\.net'/);
    expect(main.variable('consoleOrigin')).toBe("'https://${appName}.${appDomainSuffix}'");
    expect(api.variable('storageSuffix')).toBe('environment().suffixes.storage');
  });

  it('are not written into src/ but as the public-cloud default of a setting, and the connection-string format’s own default', () => {
    /** Files and the one line each may hold, with why. */
    const allowed: Record<string, RegExp> = {
      // The default of STORAGE_ENDPOINT_SUFFIX (infra sets the cloud's own).
      'src/config/accountSettings.ts':
        /^export const PUBLIC_CLOUD_STORAGE_SUFFIX = 'core\.windows\.net';$/,
      // A connection string without EndpointSuffix names the public cloud (the format's rule).
      'src/storage/clients.ts':
        /^const suffix = parts\.get\('endpointsuffix'\) \?\? 'core\.windows\.net';$/,
    };
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
        const relative = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(relative);
        else if (entry.name.endsWith('.ts')) {
          for (const line of readRepoFile(relative).split('\n')) {
            const code = line.trim();
            if (/^(\/\/|\/\*|\*)/.test(code) || !SUFFIXES.test(code)) continue;
            if (allowed[relative]?.test(code)) continue;
            found.push(`${relative}: ${code}`);
          }
        }
      }
    };
    walk('src');
    walk('functions');
    expect(found).toEqual([]);
  });

  it('builds the URIs of an account named by __accountName with STORAGE_ENDPOINT_SUFFIX', () => {
    const env = { DATA1__accountName: 'stdata1', DATA1__credential: 'managedidentity' };
    expect(readConnection(env, 'DATA1', false)).toMatchObject({
      tableServiceUri: 'https://stdata1.table.core.windows.net',
      blobServiceUri: 'https://stdata1.blob.core.windows.net',
    });
    const gov = readConnection(
      { ...env, STORAGE_ENDPOINT_SUFFIX: 'core.usgovcloudapi.net' },
      'DATA1',
      false,
    );
    expect(gov).toMatchObject({
      tableServiceUri: 'https://stdata1.table.core.usgovcloudapi.net',
      queueServiceUri: 'https://stdata1.queue.core.usgovcloudapi.net',
      blobServiceUri: 'https://stdata1.blob.core.usgovcloudapi.net',
    });
    expect(() =>
      readConnection({ ...env, STORAGE_ENDPOINT_SUFFIX: 'https://x.net/' }, 'DATA1', false),
    ).toThrow(ConfigError);
    // Set in Azure to the cloud's own suffix.
    expect(api.variable('storageSettings')).toContain('STORAGE_ENDPOINT_SUFFIX: storageSuffix');
  });
});

describe('account keys', () => {
  const rotation = (
    readRepoFile('docs/deploy.md').split('### Rotating the account keys')[1] ?? ''
  ).split('\n### ')[0]!;

  it('are rotated in every account the deployment has: the home account and each data account', () => {
    expect(rotation).not.toBe('');
    // The shell helper the steps use: a loop over the accounts the deployment outputs.
    const script = /```sh\n([\s\S]*?)```/.exec(rotation)?.[1] ?? '';
    const outputs = [...main.text.matchAll(/^output\s+(\w+)/gm)].map((m) => m[1]!);
    for (const output of ['AZURE_STORAGE_ACCOUNT_NAME', 'AZURE_DATA_STORAGE_ACCOUNT_NAMES']) {
      expect(outputs).toContain(output);
      expect(script).toMatch(new RegExp(`\\$\\{?${output}\\b`));
    }
    expect(script).toMatch(
      /for account in \$\(accounts\); do\n\s+az storage account keys renew [^\n]*--account-name "\$account"/,
    );
    expect(rotation).toMatch(/--key secondary/);
    expect(rotation).toMatch(/--key primary/);
  });

  it('say why tables keep the key: table user delegation SAS is a REST-only preview', () => {
    const stale = [
      ...docs(),
      ...allBicepFiles().map((f) => ({ file: `infra/${f.relativePath}`, text: f.raw })),
    ].filter(({ text }) => /no\s+user\s+delegation\s+SAS/i.test(text));
    expect(stale.map((d) => d.file)).toEqual([]);
    const doc = readRepoFile('docs/deploy.md');
    expect(doc).toMatch(/user delegation SAS[^.]*(?:\n[^\n]+)*?public preview/i);
  });
});
