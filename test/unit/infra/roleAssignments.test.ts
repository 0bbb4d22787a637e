/**
 * Role assignments use the documented built-in role ids, idempotent names, and give the app's
 * identity exactly the data roles the functions, the host and the SAS feature need.
 */
import { BicepFile, objectEntries, valueAt, type ResourceDeclaration } from './bicep';

const rbac = new BicepFile('app/rbac.bicep');

/** Built-in role ids as published in "Azure built-in roles". */
const BUILT_IN_ROLES: Record<string, { variable: string; id: string }> = {
  'Storage Blob Data Owner': {
    variable: 'storageBlobDataOwner',
    id: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b',
  },
  'Storage Queue Data Contributor': {
    variable: 'storageQueueDataContributor',
    id: '974c5e8b-45b9-4653-ba55-5f855dd0fb88',
  },
  'Storage Table Data Contributor': {
    variable: 'storageTableDataContributor',
    id: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3',
  },
  'Monitoring Metrics Publisher': {
    variable: 'monitoringMetricsPublisher',
    id: '3913510d-42f4-4e42-8a64-420c390055eb',
  },
  'Key Vault Secrets User': {
    variable: 'keyVaultSecretsUser',
    id: '4633458b-17de-408a-b874-0445c86b69e6',
  },
};

/** Built-in roles a data account's assignments may use (dataRbac.bicep), by the same rule. */
const DATA_ACCOUNT_ROLES: Record<string, { variable: string; id: string }> = {
  'Storage Blob Data Contributor': {
    variable: 'storageBlobDataContributor',
    id: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
  },
  'Storage Table Data Contributor': BUILT_IN_ROLES['Storage Table Data Contributor']!,
};

const assignments = rbac.resourcesOfType('Microsoft.Authorization/roleAssignments');

/** Role variables an assignment grants: its loop array's items, or its single role. */
function rolesOf(assignment: ResourceDeclaration): string[] {
  const roleArgument = /roleDefinitions',\s*(\w+)\)/.exec(
    valueAt(assignment.body, 'properties.roleDefinitionId') ?? '',
  )?.[1];
  if (assignment.loopSource && roleArgument === assignment.loopVariable) {
    return rbac
      .variable(assignment.loopSource)
      .replace(/^\[|\]$/g, '')
      .split(/[\s,]+/)
      .filter(Boolean);
  }
  return roleArgument ? [roleArgument] : [];
}

/** (scope, role) pairs granted to one principal expression. */
function grants(principal: string): string[] {
  return assignments
    .filter((a) => valueAt(a.body, 'properties.principalId') === principal)
    .flatMap((a) => rolesOf(a).map((role) => `${valueAt(a.body, 'scope')}: ${role}`))
    .sort();
}

describe('role assignments', () => {
  it.each(Object.entries(BUILT_IN_ROLES))(
    'declares %s with its documented id, commented with the role name',
    (roleName, { variable, id }) => {
      expect(rbac.variable(variable)).toBe(`'${id}'`);
      const declaration = rbac.raw.indexOf(`var ${variable} =`);
      const commentAbove = rbac.raw.slice(0, declaration).split('\n').slice(-4).join('\n');
      expect(commentAbove).toContain(`// ${roleName}`);
    },
  );

  it('names every assignment guid(scope, principal, role) after its own scope, principal and role', () => {
    expect(assignments.length).toBeGreaterThan(0);
    const wrong = assignments.flatMap((assignment) => {
      const name = valueAt(assignment.body, 'name') ?? '';
      const scope = valueAt(assignment.body, 'scope');
      const principal = valueAt(assignment.body, 'properties.principalId');
      const role = /roleDefinitions',\s*(\w+)\)/.exec(
        valueAt(assignment.body, 'properties.roleDefinitionId') ?? '',
      )?.[1];
      const expected = `guid(${scope}.id, ${principal}, ${role})`;
      return name === expected
        ? []
        : [`${assignment.symbol}: name is ${name}, expected ${expected}`];
    });
    expect(wrong).toEqual([]);
  });

  it('builds role definition ids with subscriptionResourceId and sets a principal type', () => {
    for (const assignment of assignments) {
      const properties = objectEntries(valueAt(assignment.body, 'properties')!.slice(1, -1));
      expect(properties.get('roleDefinitionId')).toMatch(
        /^subscriptionResourceId\('Microsoft\.Authorization\/roleDefinitions', \w+\)$/,
      );
      expect(properties.get('principalType')).toBeDefined();
    }
  });

  it('gives the app identity storage data, telemetry publishing and secret reading, nothing else', () => {
    expect(grants('appPrincipalId')).toEqual(
      [
        'appInsights: monitoringMetricsPublisher',
        'storage: storageBlobDataOwner',
        'storage: storageQueueDataContributor',
        'storage: storageTableDataContributor',
        'vault: keyVaultSecretsUser',
      ].sort(),
    );
  });

  it('grants the Key Vault role only when a vault exists, and the user roles only when a user is given', () => {
    const bySymbol = new Map(assignments.map((a) => [a.symbol, a]));
    expect(bySymbol.get('appSecretsUser')?.condition).toBe('!empty(keyVaultName)');
    expect(rbac.resource('vault').condition).toBe('!empty(keyVaultName)');
    const userRoles = assignments.filter(
      (a) => valueAt(a.body, 'properties.principalId') === 'userPrincipalId',
    );
    expect(userRoles.length).toBeGreaterThan(0);
    for (const assignment of userRoles)
      expect(assignment.condition).toBe('!empty(userPrincipalId)');
    expect(rbac.param('userPrincipalId').defaultText).toBe("''");
  });

  it('scopes every assignment to a resource of this deployment (no subscription-wide roles)', () => {
    const existing = new Set(
      rbac
        .resources()
        .filter((r) => r.existing)
        .map((r) => r.symbol),
    );
    for (const assignment of assignments) {
      expect(existing.has(valueAt(assignment.body, 'scope') ?? '')).toBe(true);
    }
  });

  it('passes the app identity principal and the deploying user from main.bicep', () => {
    const main = new BicepFile('main.bicep');
    const rbacModule = main.modules().find((m) => m.path === './app/rbac.bicep')!;
    expect(valueAt(rbacModule.body, 'params.appPrincipalId')).toBe('identity.outputs.principalId');
    expect(valueAt(rbacModule.body, 'params.userPrincipalId')).toBe('principalId');
  });
});

describe('role assignments on the data accounts (docs/accounts.md)', () => {
  const dataRbac = new BicepFile('app/dataRbac.bicep');
  const dataAssignments = dataRbac.resourcesOfType('Microsoft.Authorization/roleAssignments');
  const rolesIn = (assignment: ResourceDeclaration): string[] =>
    dataRbac
      .variable(assignment.loopSource!)
      .replace(/^\[|\]$/g, '')
      .split(/[\s,]+/)
      .filter(Boolean);

  it.each(Object.entries(DATA_ACCOUNT_ROLES))(
    'declares %s with its documented id, commented with the role name',
    (roleName, { variable, id }) => {
      expect(dataRbac.variable(variable)).toBe(`'${id}'`);
      const declaration = dataRbac.raw.indexOf(`var ${variable} =`);
      const commentAbove = dataRbac.raw.slice(0, declaration).split('\n').slice(-4).join('\n');
      expect(commentAbove).toContain(`// ${roleName}`);
    },
  );

  it('gives the app identity (and the deploying user, when given) blob and table data roles only: no queue role, Blob Data Contributor rather than Owner', () => {
    // A data account holds tables and blobs (no queue: triggers stay in the home account, and
    // readConnection never needs a data account's queue). Blob Data Contributor includes
    // generateUserDelegationKey, all the blob SAS need.
    for (const principal of ['appPrincipalId', 'userPrincipalId']) {
      const granted = dataAssignments
        .filter((a) => valueAt(a.body, 'properties.principalId') === principal)
        .flatMap((a) => rolesIn(a).map((role) => `${valueAt(a.body, 'scope')}: ${role}`));
      expect(granted.sort()).toEqual(
        ['storage: storageBlobDataContributor', 'storage: storageTableDataContributor'].sort(),
      );
    }
    const ids = dataRbac.text.match(
      /'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'/g,
    );
    expect((ids ?? []).map((id) => id.slice(1, -1)).sort()).toEqual(
      Object.values(DATA_ACCOUNT_ROLES)
        .map((role) => role.id)
        .sort(),
    );
    for (const forbidden of ['Storage Blob Data Owner', 'Storage Queue Data Contributor']) {
      expect(dataRbac.text).not.toContain(BUILT_IN_ROLES[forbidden]!.id);
    }
  });

  it("gives the home account, the host's storage, blob owner, queue and table roles", () => {
    // Blob Data Owner is what the Functions documentation names for AzureWebJobsStorage with an
    // identity; the queues are the triggers' and the Durable task hub's.
    expect(
      rbac
        .variable('storageRoles')
        .replace(/^\[|\]$/g, '')
        .split(/[\s,]+/)
        .filter(Boolean)
        .sort(),
    ).toEqual(
      ['storageBlobDataOwner', 'storageQueueDataContributor', 'storageTableDataContributor'].sort(),
    );
  });

  it('names each assignment guid(scope, principal, role), on an existing account of this deployment', () => {
    for (const assignment of dataAssignments) {
      const principal = valueAt(assignment.body, 'properties.principalId');
      expect(valueAt(assignment.body, 'name')).toBe(
        `guid(storage.id, ${principal}, ${assignment.loopVariable})`,
      );
      expect(valueAt(assignment.body, 'scope')).toBe('storage');
    }
    expect(dataRbac.resource('storage').existing).toBe(true);
    const user = dataAssignments.find(
      (a) => valueAt(a.body, 'properties.principalId') === 'userPrincipalId',
    );
    expect(user?.condition).toBe('!empty(userPrincipalId)');
  });

  it('is deployed once per data account from main.bicep, with the app identity and the user', () => {
    const main = new BicepFile('main.bicep');
    const module = main.modules().find((m) => m.path === './app/dataRbac.bicep')!;
    expect(main.raw).toMatch(
      /module dataRbac '\.\/app\/dataRbac\.bicep' = \[\s*for i in range\(0, dataAccountCount\):/,
    );
    expect(valueAt(module.body, 'params.appPrincipalId')).toBe('identity.outputs.principalId');
    expect(valueAt(module.body, 'params.userPrincipalId')).toBe('principalId');
    expect(valueAt(module.body, 'params.storageAccountName')).toBe('dataStorage[i].outputs.name');
  });
});
