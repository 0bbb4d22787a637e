/**
 * The storage account bicep declares exactly the tables, queues and containers the code uses
 * (src/config/index.ts defaults), with the security settings and rules the design relies on.
 */
import { loadConfig } from '../../../src/config';
import { poisonQueueName } from '../../../src/storage/keys/queues';
import {
  allBicepFiles,
  BicepFile,
  objectLiterals,
  readRepoFile,
  stringLiterals,
  valueAt,
  type ResourceDeclaration,
} from './bicep';

const config = loadConfig({ AzureWebJobsStorage: 'UseDevelopmentStorage=true' });
const storage = new BicepFile('app/storage.bicep');

const TYPES = {
  table: 'Microsoft.Storage/storageAccounts/tableServices/tables',
  queue: 'Microsoft.Storage/storageAccounts/queueServices/queues',
  container: 'Microsoft.Storage/storageAccounts/blobServices/containers',
} as const;
type Kind = keyof typeof TYPES;

/** Declared in infra but not named by src/config/index.ts, each with its reason. */
const INFRA_ONLY: Record<Kind, Record<string, string>> = {
  table: {},
  queue: {},
  container: {
    // Name computed in main.bicep (app-package-<app>-<token>).
    '${deploymentContainerName}': 'Flex Consumption reads the app package from this container',
  },
};

/** Names declared by one resource: the literals of its loop array, or its name expression. */
function declaredNames(file: BicepFile, resource: ResourceDeclaration): string[] {
  if (resource.loopSource) {
    const names = stringLiterals(file.variable(resource.loopSource));
    const nameExpression = valueAt(resource.body, 'name');
    if (nameExpression !== resource.loopVariable) {
      throw new Error(
        `infra/${file.relativePath}: resource ${resource.symbol} loops over ${resource.loopSource} but is named "${nameExpression}"; name it by the loop variable so its names can be checked`,
      );
    }
    return names;
  }
  const name = valueAt(resource.body, 'name') ?? '';
  return [/^'[^'$]*'$/.test(name) ? name.slice(1, -1) : `\${${name}}`];
}

/** Every name of one kind declared anywhere under infra/, with the file that declares it. */
function declared(kind: Kind): Map<string, string> {
  const names = new Map<string, string>();
  for (const file of allBicepFiles()) {
    for (const resource of file.resourcesOfType(TYPES[kind])) {
      for (const name of declaredNames(file, resource)) names.set(name, file.relativePath);
    }
  }
  return names;
}

function usedByCode(kind: Kind): string[] {
  if (kind === 'table') {
    // The per-day LoginAttemptsYYYYMMDD tables are created and dropped at runtime by the timer.
    const { loginAttemptsPrefix: _perDayTablesPrefix, ...tables } = config.tables;
    return Object.values(tables);
  }
  if (kind === 'queue') {
    return Object.values(config.queues).flatMap((queue) => [queue, poisonQueueName(queue)]);
  }
  return Object.values(config.containers);
}

describe('storage resources declared in bicep', () => {
  it.each(['table', 'queue', 'container'] as const)(
    'declares every %s name the code uses (config defaults; each queue with its -poison queue)',
    (kind) => {
      const names = declared(kind);
      const missing = usedByCode(kind).filter((name) => !names.has(name));
      expect(
        missing.map(
          (name) =>
            `${kind} "${name}" is used by src/config/index.ts defaults but no ${TYPES[kind]} in infra/ declares it (add it to infra/app/storage.bicep)`,
        ),
      ).toEqual([]);
    },
  );

  it.each(['table', 'queue', 'container'] as const)(
    'declares no %s the code does not use, except the listed infra-only ones',
    (kind) => {
      const used = new Set(usedByCode(kind));
      const extra = [...declared(kind)].filter(
        ([name]) => !used.has(name) && !(name in INFRA_ONLY[kind]),
      );
      expect(
        extra.map(
          ([name, file]) =>
            `infra/${file} declares ${kind} "${name}" that src/config/index.ts does not name (remove it, or list it with a reason in INFRA_ONLY)`,
        ),
      ).toEqual([]);
    },
  );

  it('declares the Flex Consumption deployment container, named app-package-*', () => {
    expect(declared('container').get('${deploymentContainerName}')).toBe('app/storage.bicep');
    expect(new BicepFile('main.bicep').variable('deploymentContainerName')).toMatch(
      /^toLower\('app-package-/,
    );
  });

  it('documents what is created at runtime instead of declared', () => {
    const doc = readRepoFile('docs/deploy.md');
    expect(doc).toContain(`${config.tables.loginAttemptsPrefix}YYYYMMDD`);
    expect(doc).toMatch(/task hub/i);
  });
});

describe('storage account settings', () => {
  const account = storage
    .resourcesOfType('Microsoft.Storage/storageAccounts')
    .find((r) => !r.existing)!;

  it.each([
    ['kind', "'StorageV2'"],
    ['properties.minimumTlsVersion', "'TLS1_2'"],
    ['properties.allowBlobPublicAccess', 'false'],
    ['properties.supportsHttpsTrafficOnly', 'true'],
    ['properties.allowSharedKeyAccess', 'allowSharedKeyAccess'],
  ])('sets %s to %s', (property, value) => {
    expect(valueAt(account.body, property)).toBe(value);
  });

  it('allows shared-key access only when table SAS is enabled', () => {
    const main = new BicepFile('main.bicep');
    const storageModule = main.modules().find((m) => m.path === './app/storage.bicep')!;
    expect(valueAt(storageModule.body, 'params.allowSharedKeyAccess')).toBe('enableTableSas');
    expect(main.param('enableTableSas').defaultText).toBe('true');
  });

  it('keeps every container private', () => {
    for (const container of storage.resourcesOfType(TYPES.container)) {
      expect(`${container.symbol}: ${valueAt(container.body, 'properties.publicAccess')}`).toBe(
        `${container.symbol}: 'None'`,
      );
    }
  });

  it('has CORS rules on the blob and table services for the browser SAS flows', () => {
    const rule = storage.variable('corsRule');
    expect(stringLiterals(valueAt(rule, 'allowedMethods') ?? '')).toEqual(
      expect.arrayContaining(['GET', 'PUT', 'OPTIONS', 'HEAD']),
    );
    expect(stringLiterals(valueAt(rule, 'allowedHeaders') ?? '')).toEqual(
      expect.arrayContaining(['x-ms-*', 'content-type']),
    );
    expect(stringLiterals(valueAt(rule, 'exposedHeaders') ?? '')).toContain('x-ms-*');
    expect(valueAt(rule, 'allowedOrigins')).toBe('allowedCorsOrigins');
    expect(valueAt(rule, 'maxAgeInSeconds')).toMatch(/^\d+$/);
    // A rule with no origin is invalid, so there is no rule without origins.
    expect(storage.variable('corsRules')).toBe('empty(allowedCorsOrigins) ? [] : [corsRule]');
    for (const service of [
      'Microsoft.Storage/storageAccounts/blobServices',
      'Microsoft.Storage/storageAccounts/tableServices',
    ]) {
      const [resource] = storage.resourcesOfType(service);
      expect(`${service}: ${valueAt(resource!.body, 'properties.cors.corsRules')}`).toBe(
        `${service}: corsRules`,
      );
    }
  });

  it("admits the web console's origin (the Function App's own host) beside allowedCorsOrigins", () => {
    const main = new BicepFile('main.bicep');
    // The cloud's App Service suffix (azurewebsites.net in the public cloud: asDeployed.test.ts).
    expect(main.variable('consoleOrigin')).toBe("'https://${appName}.${appDomainSuffix}'");
    const storageModule = main.modules().find((m) => m.path === './app/storage.bicep')!;
    expect(valueAt(storageModule.body, 'params.allowedCorsOrigins')).toBe(
      'union([consoleOrigin], allowedCorsOrigins)',
    );
  });

  /** The lifecycle rules of the account's management policy, by name. */
  function lifecycleRules(): Map<string, string> {
    const [policy] = storage.resourcesOfType(
      'Microsoft.Storage/storageAccounts/managementPolicies',
    );
    expect(policy).toBeDefined();
    expect(valueAt(policy!.body, 'name')).toBe("'default'");
    const rules = objectLiterals(valueAt(policy!.body, 'properties.policy.rules') ?? '');
    return new Map(rules.map((rule) => [valueAt(`{${rule}}`, 'name') ?? '', `{${rule}}`]));
  }

  it('deletes log blobs after logRetentionDays with a lifecycle rule on the logs container', () => {
    const rule = lifecycleRules().get("'delete-old-logs'")!;
    expect(rule).toBeDefined();
    expect(valueAt(rule, 'enabled')).toBe('true');
    expect(stringLiterals(valueAt(rule, 'definition.filters.prefixMatch') ?? '')).toEqual([
      `${config.containers.logs}/`,
    ]);
    expect(
      valueAt(rule, 'definition.actions.baseBlob.delete.daysAfterModificationGreaterThan'),
    ).toBe('logRetentionDays');
    expect(storage.param('logRetentionDays').type).toBe('int');
  });

  it('deletes every snapshot in the photos container (a write SAS can take them), never a base blob', () => {
    const rule = lifecycleRules().get("'delete-photo-snapshots'")!;
    expect(rule).toBeDefined();
    expect(valueAt(rule, 'enabled')).toBe('true');
    expect(stringLiterals(valueAt(rule, 'definition.filters.prefixMatch') ?? '')).toEqual([
      `${config.containers.photos}/`,
    ]);
    expect(stringLiterals(valueAt(rule, 'definition.filters.blobTypes') ?? '')).toEqual([
      'blockBlob',
    ]);
    expect(valueAt(rule, 'definition.actions.snapshot.delete.daysAfterCreationGreaterThan')).toBe(
      '0',
    );
    // Only the app knows which photo version is current: no rule touches photo base blobs.
    expect(valueAt(rule, 'definition.actions.baseBlob')).toBeUndefined();
    for (const [name, other] of lifecycleRules()) {
      const prefixes = stringLiterals(valueAt(other, 'definition.filters.prefixMatch') ?? '');
      const coversPhotos =
        prefixes.length === 0 ||
        prefixes.some((prefix) => `${config.containers.photos}/`.startsWith(prefix));
      if (coversPhotos) {
        expect(`${name}: ${valueAt(other, 'definition.actions.baseBlob')}`).toBe(
          `${name}: undefined`,
        );
      }
    }
  });
});

describe('data accounts (docs/accounts.md)', () => {
  const main = new BicepFile('main.bicep');
  const modules = main.modules().filter((m) => m.path === './app/storage.bicep');
  const [home, data] = modules;

  it('deploys dataAccountCount data accounts (default 0) by the home account’s module', () => {
    expect(main.param('dataAccountCount').defaultText).toBe('0');
    expect(modules).toHaveLength(2);
    expect(main.raw).toMatch(
      /module dataStorage '\.\/app\/storage\.bicep' = \[\s*for i in range\(0, dataAccountCount\):/,
    );
    expect(valueAt(home!.body, 'params.role')).toBeUndefined();
    expect(valueAt(data!.body, 'params.role')).toBe("'data'");
    expect(storage.param('role').defaultText).toBe("'home'");
  });

  it('gives each the same settings, tables, containers, CORS and lifecycle rule', () => {
    for (const param of [
      'location',
      'tags',
      'skuName',
      'allowSharedKeyAccess',
      'allowedCorsOrigins',
      'logRetentionDays',
      'sasExpirationPeriod',
      'keyExpirationDays',
    ]) {
      expect(`${param}: ${valueAt(data!.body, `params.${param}`)}`).toBe(
        `${param}: ${valueAt(home!.body, `params.${param}`)}`,
      );
    }
    // Unconditional in storage.bicep: every account has them.
    for (const symbol of ['tables', 'containers', 'lifecycle', 'blobService', 'tableService']) {
      expect(`${symbol}: ${storage.resource(symbol).condition}`).toBe(`${symbol}: undefined`);
    }
  });

  it('keeps the queues, the deployment package and the placement table in the home account', () => {
    for (const symbol of ['queues', 'deploymentContainer', 'homeTables']) {
      expect(`${symbol}: ${storage.resource(symbol).condition}`).toBe(`${symbol}: role == 'home'`);
    }
    expect(stringLiterals(storage.variable('homeTableNames'))).toEqual([config.tables.placements]);
  });

  it('names the data accounts to the app: DATA1, DATA2, ... with their storage accounts', () => {
    const api = main.modules().find((m) => m.path === './app/api.bicep')!;
    const accounts = valueAt(api.body, 'params.dataAccounts') ?? '';
    expect(accounts).toMatch(/for i in range\(0, dataAccountCount\)/);
    expect(accounts).toContain("name: 'DATA${i + 1}'");
    expect(accounts).toContain('accountName: dataStorage[i].outputs.name');
  });
});
