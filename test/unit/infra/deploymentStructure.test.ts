/**
 * What the bicep compiler and azd would check, read from the files: modules and their
 * parameters line up, azd's parameters and service tag match, and the Function App is a
 * Flex Consumption app with the monitoring and Key Vault set-up the design needs.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  allBicepFiles,
  BicepFile,
  INFRA_DIR,
  objectEntries,
  objectLiterals,
  readRepoFile,
  valueAt,
} from './bicep';
import { SMOKE_CHECKS } from '../../../tools/smoke/checks';

const main = new BicepFile('main.bicep');
const api = new BicepFile('app/api.bicep');

describe('bicep modules', () => {
  it('deploys at subscription scope and creates the resource group', () => {
    expect(main.text).toMatch(/^targetScope = 'subscription'$/m);
    expect(main.resourcesOfType('Microsoft.Resources/resourceGroups')).toHaveLength(1);
    for (const module of main.modules()) {
      expect(`${module.symbol}: ${valueAt(module.body, 'scope')}`).toBe(`${module.symbol}: rg`);
    }
  });

  it.each(main.modules().map((m) => [m.symbol, m.path]))(
    'module %s (%s) exists and is given exactly the parameters it declares',
    (_symbol, modulePath) => {
      const relative = path.posix.normalize(modulePath);
      expect(fs.existsSync(path.join(INFRA_DIR, relative))).toBe(true);
      const declaredParams = new BicepFile(relative).params();
      const module = main.modules().find((m) => m.path === modulePath)!;
      const passed = [...objectKeys(valueAt(module.body, 'params'))];
      const unknown = passed.filter((name) => !declaredParams.some((p) => p.name === name));
      const missing = declaredParams
        .filter((p) => p.defaultText === undefined && !passed.includes(p.name))
        .map((p) => p.name);
      expect({ unknown, missing }).toEqual({ unknown: [], missing: [] });
    },
  );

  it('uses only module outputs that the module declares', () => {
    const problems: string[] = [];
    for (const module of main.modules()) {
      const outputs = [
        ...new BicepFile(path.posix.normalize(module.path)).text.matchAll(/^output\s+(\w+)/gm),
      ].map((m) => m[1]!);
      for (const use of main.text.matchAll(
        new RegExp(`\\b${module.symbol}\\.outputs\\.(\\w+)`, 'g'),
      )) {
        if (!outputs.includes(use[1]!))
          problems.push(`${module.symbol}.outputs.${use[1]} is not declared`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('uses only abbreviations listed in abbreviations.json', () => {
    const abbreviations = JSON.parse(readRepoFile('infra/abbreviations.json')) as Record<
      string,
      string
    >;
    const used = [...main.text.matchAll(/\babbrs\.(\w+)/g)].map((m) => m[1]!);
    expect(used.filter((name) => !(name in abbreviations))).toEqual([]);
  });

  it('pins an API version on every resource and uses no module registry', () => {
    for (const file of allBicepFiles()) {
      for (const resource of file.resources())
        expect(resource.apiVersion).toMatch(/^\d{4}-\d{2}-\d{2}/);
      for (const module of file.modules()) expect(module.path).toMatch(/^\.\//);
    }
  });
});

function objectKeys(objectText: string | undefined): string[] {
  return objectText
    ? objectLiterals(objectText).flatMap((body) => [...objectEntries(body).keys()])
    : [];
}

describe('azd wiring', () => {
  const azureYaml = readRepoFile('azure.yaml');
  const parameters = (
    JSON.parse(readRepoFile('infra/main.parameters.json')) as {
      parameters: Record<string, { value: unknown }>;
    }
  ).parameters;

  it('declares one function service "api" in TypeScript, deployed from the built package', () => {
    const service = /^services:\n {2}(\w+):\n((?: {4}.*\n)+)/m.exec(azureYaml);
    expect(service?.[1]).toBe('api');
    const fields = Object.fromEntries(
      [...(service?.[2] ?? '').matchAll(/^ {4}(\w+):[ \t]*(\S*)$/gm)].map((m) => [m[1], m[2]]),
    );
    // Zip deploy of what `npm run package` builds, without a remote build (docs/deploy.md).
    expect(fields).toEqual({
      project: '.',
      language: 'ts',
      host: 'function',
      dist: '.package/app',
      remoteBuild: 'false',
      hooks: '',
    });
    const hook = /^ {6}prepackage:\n((?: {8}.*\n)+)/m.exec(service?.[2] ?? '')?.[1] ?? '';
    expect(hook).toMatch(/^ {8}shell: sh$/m);
    expect(hook).toMatch(/^ {8}run: npm run package$/m);
  });

  it('requires the azd version whose .funcignore handling the package relies on', () => {
    expect(azureYaml).toMatch(/^requiredVersions:\n {2}azd: '>= 1\.23\.13'$/m);
  });

  it('smoke-checks the app after every deployment, and fails the deployment when a check fails', () => {
    const hook =
      /^hooks:\n(?: {2}#.*\n)* {2}postdeploy:\n((?: {4}.*\n)+)/m.exec(azureYaml)?.[1] ?? '';
    expect(hook).toMatch(/^ {4}shell: sh$/m);
    // A failing hook fails `azd deploy` / `azd up` only when continueOnError is false.
    expect(hook).toMatch(/^ {4}continueOnError: false$/m);
    const script = /^ {4}run: \|\n((?: {6}.*\n)+)/m.exec(hook)?.[1] ?? '';
    const lines = script
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    expect(lines[0]).toBe('set -eu');
    // The smoke check is the last command, so its exit code is the hook's.
    expect(lines.at(-1)).toMatch(/^npm run -s smoke -- --base-url "\$AZURE_FUNCTION_APP_URL"/);
    expect(readRepoFile('package.json')).toContain(
      '"smoke": "node -r @swc-node/register tools/smoke.ts"',
    );
    // Every azd value it uses is an output of main.bicep (or the azd environment's own value).
    const outputs = [...main.text.matchAll(/^output\s+(\w+)/gm)].map((m) => m[1]!);
    const used = [...new Set([...script.matchAll(/\$\{?(AZURE_\w+)/g)].map((m) => m[1]!))];
    expect(used.filter((name) => !outputs.includes(name))).toEqual([]);
    expect(used).toEqual(expect.arrayContaining(['AZURE_FUNCTION_APP_URL']));
    // Optional extras only: a key or token that cannot be had must not stop the check.
    for (const line of lines.filter((l) => l.includes('$(az '))) expect(line).toContain('|| true');
  });

  it('tags the Function App with the azd service name', () => {
    const apiModule = main.modules().find((m) => m.path === './app/api.bicep')!;
    expect(valueAt(apiModule.body, 'params.tags')).toBe(
      "union(tags, { 'azd-service-name': 'api' })",
    );
    const site = api.resourcesOfType('Microsoft.Web/sites')[0]!;
    expect(valueAt(site.body, 'tags')).toBe('tags');
    expect(main.variable('tags')).toBe("{ 'azd-env-name': environmentName }");
  });

  it('maps azd environment values onto parameters main.bicep declares, and covers the required ones', () => {
    expect(parameters).toMatchObject({
      environmentName: { value: '${AZURE_ENV_NAME}' },
      location: { value: '${AZURE_LOCATION}' },
      principalId: { value: '${AZURE_PRINCIPAL_ID}' },
      // azd exports the kind of the signed-in principal: ServicePrincipal in CI.
      principalType: { value: '${AZURE_PRINCIPAL_TYPE=User}' },
    });
    const declared = main.params();
    const required = declared.filter((p) => p.defaultText === undefined).map((p) => p.name);
    expect(required.filter((name) => !(name in parameters))).toEqual([]);
    expect(
      Object.keys(parameters).filter((name) => !declared.some((p) => p.name === name)),
    ).toEqual([]);
  });
});

describe('docs/deploy.md', () => {
  const doc = (): string => readRepoFile('docs/deploy.md');

  it('lists exactly the excluded paths of infra/app/auth-settings.json, with the matching rule', () => {
    const json = JSON.parse(readRepoFile('infra/app/auth-settings.json')) as {
      globalValidation: { excludedPaths: string[] };
    };
    const rows = [...doc().matchAll(/^\| `(\/api[^`]*)` +\|/gm)].map((m) => m[1]!);
    expect(rows.sort()).toEqual([...json.globalValidation.excludedPaths].sort());
    expect(doc()).toContain('one ending in `/*` matches\nevery path below it');
  });

  it('counts one entry point per functions/*.ts file', () => {
    const files = fs
      .readdirSync(path.join(INFRA_DIR, '..', 'functions'))
      .filter((f) => f.endsWith('.ts'));
    const stated = /the (\d+)\s+`dist\/functions\/\*\.js` entry points/.exec(doc())?.[1];
    expect(Number(stated)).toBe(files.length);
  });

  it('describes every check of the postdeploy smoke check', () => {
    const section = (doc().split('## After deployment: the postdeploy smoke check')[1] ?? '').split(
      '\n## ',
    )[0]!;
    expect(section).not.toBe('');
    const documented = [...section.matchAll(/^\| `([\w-]+)` +\|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...SMOKE_CHECKS]);
  });

  it('answers a policy that denies shared-key access with enableTableSas=false', () => {
    expect(doc()).toMatch(
      /policy that denies shared-key access[\s\S]{0,400}`enableTableSas=false`/,
    );
    expect(main.text).toMatch(/param enableTableSas bool = true/);
    expect(main.raw).toMatch(
      /@description\('[^\n]*denies shared-key access[^\n]*'\)\nparam enableTableSas/,
    );
  });

  it('states the parameter defaults main.bicep has', () => {
    const doc = readRepoFile('docs/deploy.md');
    const rows = [...doc.matchAll(/^\| `(\w+)`\s*\| `([^`]*)`\s*\|/gm)];
    expect(rows.length).toBeGreaterThan(5);
    const wrong = rows.flatMap(([, name, documented]) => {
      const actual = main.param(name!).defaultText?.replace(/^'(.*)'$/, '$1');
      return actual === documented
        ? []
        : [`${name}: docs say ${documented}, main.bicep has ${actual}`];
    });
    expect(wrong).toEqual([]);
  });
});

describe('Function App on Flex Consumption', () => {
  const plan = api.resourcesOfType('Microsoft.Web/serverfarms')[0]!;
  const site = api.resourcesOfType('Microsoft.Web/sites')[0]!;

  it('runs on an FC1 FlexConsumption Linux plan', () => {
    expect(valueAt(plan.body, 'sku.name')).toBe("'FC1'");
    expect(valueAt(plan.body, 'sku.tier')).toBe("'FlexConsumption'");
    expect(valueAt(plan.body, 'properties.reserved')).toBe('true');
    expect(valueAt(site.body, 'kind')).toBe("'functionapp,linux'");
    expect(valueAt(site.body, 'properties.httpsOnly')).toBe('true');
  });

  it('deploys from a blob container with the user-assigned identity', () => {
    const deployment = 'properties.functionAppConfig.deployment.storage';
    expect(valueAt(site.body, `${deployment}.type`)).toBe("'blobContainer'");
    expect(valueAt(site.body, `${deployment}.value`)).toContain('${deploymentContainerName}');
    expect(valueAt(site.body, `${deployment}.authentication.type`)).toBe("'UserAssignedIdentity'");
    expect(valueAt(site.body, `${deployment}.authentication.userAssignedIdentityResourceId`)).toBe(
      'identityId',
    );
    expect(valueAt(site.body, 'identity.type')).toBe("'UserAssigned'");
  });

  it('runs Node.js 22, the version Flex Consumption has GA, admitted by package.json engines', () => {
    expect(valueAt(site.body, 'properties.functionAppConfig.runtime.name')).toBe("'node'");
    expect(valueAt(site.body, 'properties.functionAppConfig.runtime.version')).toBe('nodeVersion');
    const nodeVersion = main.param('nodeVersion');
    expect(nodeVersion.defaultText).toBe("'22'");
    expect(api.param('nodeVersion').defaultText).toBe("'22'");
    // 24 stays out until it is GA on Flex (asDeployed.test.ts checks the recorded catalogue).
    expect(nodeVersion.allowed).toEqual(['22']);
    expect(api.param('nodeVersion').allowed).toEqual(['22']);
    const engines = (JSON.parse(readRepoFile('package.json')) as { engines: { node: string } })
      .engines.node;
    const [, min, maxExclusive] = /^>=(\d+)\S* <(\d+)/.exec(engines) ?? [];
    for (const major of nodeVersion.allowed!) {
      expect(Number(major)).toBeGreaterThanOrEqual(Number(min));
      expect(Number(major)).toBeLessThan(Number(maxExclusive));
    }
    // The Node that npm scripts run on (the pinned `node` devDependency) is the default major;
    // CI also runs the e2e suite on Node 24 (.ci/run), ready for when Flex has it GA.
    const pkg = JSON.parse(readRepoFile('package.json')) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies.node?.split('.')[0]).toBe('22');
    const ci = readRepoFile('.ci/run');
    expect(/^NODE_24=node@(24\.\d+\.\d+)$/m.exec(ci)?.[1]).toBeDefined();
  });

  it('takes the scale-out limit and instance memory from parameters', () => {
    const scale = 'properties.functionAppConfig.scaleAndConcurrency';
    expect(valueAt(site.body, `${scale}.maximumInstanceCount`)).toBe('maximumInstanceCount');
    expect(valueAt(site.body, `${scale}.instanceMemoryMB`)).toBe('instanceMemoryMB');
    expect(main.param('instanceMemoryMB').allowed).toEqual(['512', '2048', '4096']);
    expect(main.param('maximumInstanceCount').type).toBe('int');
    // Flex Consumption takes any limit from 1 (the old floor of 40 is gone), up to 1000.
    for (const file of [main, api]) {
      expect(file.text).toMatch(
        /@minValue\(1\)\s*@maxValue\(1000\)\s*(@description\([^\n]*\)\s*)?param maximumInstanceCount int/,
      );
    }
  });

  it('keeps always-ready instances for the "durable" group, one by default, from a parameter', () => {
    const scale = 'properties.functionAppConfig.scaleAndConcurrency';
    const alwaysReady = valueAt(site.body, `${scale}.alwaysReady`) ?? '';
    // FunctionsAlwaysReadyConfig: { name, instanceCount }; "durable" is the Durable triggers' group.
    expect(alwaysReady).toMatch(/name:\s*'durable'/);
    expect(alwaysReady).toMatch(/instanceCount:\s*durableAlwaysReadyInstances/);
    expect(main.param('durableAlwaysReadyInstances').defaultText).toBe('1');
    expect(main.param('durableAlwaysReadyInstances').type).toBe('int');
    const apiModule = main.modules().find((m) => m.path === './app/api.bicep')!;
    expect(valueAt(apiModule.body, 'params.durableAlwaysReadyInstances')).toBe(
      'durableAlwaysReadyInstances',
    );
  });

  it('ingests telemetry only with Entra tokens', () => {
    const monitoring = new BicepFile('app/monitoring.bicep');
    const appInsights = monitoring.resourcesOfType('Microsoft.Insights/components')[0]!;
    expect(valueAt(appInsights.body, 'properties.DisableLocalAuth')).toBe('true');
    expect(valueAt(appInsights.body, 'properties.WorkspaceResourceId')).toBe('workspace.id');
  });
});

describe('Key Vault for the SAS signing key', () => {
  const keyVault = new BicepFile('app/keyvault.bicep');

  it('is created only when table SAS is enabled', () => {
    const module = main.modules().find((m) => m.path === './app/keyvault.bicep')!;
    expect(module.condition).toBe('enableTableSas');
  });

  it('authorizes with Azure RBAC and stores the active account key from listKeys()', () => {
    const vault = keyVault.resourcesOfType('Microsoft.KeyVault/vaults').find((r) => !r.existing)!;
    expect(valueAt(vault.body, 'properties.enableRbacAuthorization')).toBe('true');
    const secret = keyVault.resourcesOfType('Microsoft.KeyVault/vaults/secrets')[0]!;
    expect(valueAt(secret.body, 'properties.value')).toMatch(/^storage\.listKeys\(\)\.keys\[/);
    expect(keyVault.param('activeStorageKey').allowed).toEqual(['key1', 'key2']);
    expect(keyVault.text).toMatch(
      /^output storageKeySecretUri string = storageKeySecret\.properties\.secretUri$/m,
    );
  });

  it('never outputs the key itself', () => {
    for (const file of allBicepFiles()) {
      const outputs = [...file.text.matchAll(/^output .*$/gm)].map((m) => m[0]);
      expect(outputs.filter((line) => /listKeys|\.value\b/.test(line))).toEqual([]);
    }
  });

  it('documents rotation and the identity limits in docs/deploy.md', () => {
    const doc = readRepoFile('docs/deploy.md');
    expect(doc).toMatch(/rotat/i);
    expect(doc).toContain('activeStorageKey');
    expect(doc).toContain('azd up');
    expect(doc).toContain('az deployment sub create');
  });
});
