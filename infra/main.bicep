// Employee directory on Azure Functions (Flex Consumption) with a home storage account and, with
// dataAccountCount, data accounts the departments spread over (docs/accounts.md).
// `azd up` deploys this file; `az deployment sub create -f infra/main.bicep` works too
// (docs/deploy.md). Modules live in ./app, one concern each.
targetScope = 'subscription'

@minLength(1)
@maxLength(64)
@description('azd environment name; names the resource group and seeds every resource name.')
param environmentName string

@minLength(1)
@description('Region of every resource: one that offers the Flex Consumption plan, where plan creation fails otherwise. The list is the one of Microsoft\'s Flex Consumption azd template (Azure-Samples/functions-quickstart-typescript-azd infra/main.bicep) without its canary region; `az functionapp list-flexconsumption-locations` gives the current one (docs/deploy.md).')
// Recorded with its source in test/fixtures/infra/flex-consumption.json, which the infra tests compare.
@allowed([
  'australiaeast'
  'australiasoutheast'
  'brazilsouth'
  'canadacentral'
  'centralindia'
  'centralus'
  'eastasia'
  'eastus'
  'eastus2'
  'francecentral'
  'germanywestcentral'
  'italynorth'
  'japaneast'
  'koreacentral'
  'northcentralus'
  'northeurope'
  'norwayeast'
  'southafricanorth'
  'southcentralus'
  'southeastasia'
  'southindia'
  'spaincentral'
  'swedencentral'
  'uaenorth'
  'uksouth'
  'ukwest'
  'westcentralus'
  'westeurope'
  'westus'
  'westus2'
  'westus3'
])
@metadata({ azd: { type: 'location' } })
param location string

@description('Object id of the deploying user or service principal. When set, it gets data access to the storage account (to run the app locally against Azure or inspect data). Leave empty to skip.')
param principalId string = ''

@allowed(['User', 'ServicePrincipal', 'Group'])
@description('Kind of principal principalId names. azd sets AZURE_PRINCIPAL_TYPE (ServicePrincipal when it runs as one, e.g. in CI), and main.parameters.json passes it; a role assignment declared with the wrong type is refused.')
param principalType string = 'User'

@description('Resource group name; defaults to rg-<environmentName>.')
param resourceGroupName string = ''

@description('Function app name; defaults to func-api-<token>.')
param functionAppName string = ''

@allowed(['22'])
@description('Node.js major version of the Functions runtime: the versions generally available on Flex Consumption (test/fixtures/infra/flex-consumption.json records the catalogue). 24 is in preview there, and ARM accepts a version missing from the regional catalogue without an error; the app then fails at host start. docs/runtime.md says how to admit 24 once it is GA.')
param nodeVersion string = '22'

@minValue(1)
@maxValue(1000)
@description('Flex Consumption: the most instances the app scales out to (1-1000).')
param maximumInstanceCount int = 100

@allowed([512, 2048, 4096])
@description('Flex Consumption: memory of each instance, in MB.')
param instanceMemoryMB int = 2048

@minValue(0)
@maxValue(20)
@description('Flex Consumption: always-ready instances of the "durable" per-function scaling group (orchestrators, activities), as Microsoft recommends for Durable Functions. 0 turns them off (no baseline cost; orchestrations then start from a cold instance).')
param durableAlwaysReadyInstances int = 1

@allowed([
  'Standard_LRS'
  'Standard_ZRS'
  'Standard_GRS'
  'Standard_RAGRS'
  'Standard_GZRS'
  'Standard_RAGZRS'
])
@description('Replication of the storage account.')
param storageSkuName string = 'Standard_LRS'

@minValue(0)
@maxValue(16)
@description('Data storage accounts besides the home account (docs/accounts.md): each gets the tables, containers, lifecycle rule and roles of the home account, and the app reads them from DATA_ACCOUNTS=DATA1,... with identity-based DATA<n>__* settings. New departments spread over them by rendezvous hashing; 0 keeps everything in the home account.')
param dataAccountCount int = 0

@description('Browser origins (e.g. https://directory.contoso.com) allowed to call the API and to use SAS URLs against blob and table storage. Empty: no CORS rules.')
param allowedCorsOrigins array = []

@minValue(1)
@maxValue(3650)
@description('Days log blobs (logs/ container) are kept before the lifecycle rule deletes them.')
param logRetentionDays int = 30

@minValue(1)
@maxValue(3650)
@description('Days of per-day LoginAttemptsYYYYMMDD tables kept by the cleanup timer (LOGIN_RETENTION_DAYS).')
param loginRetentionDays int = 60

@minValue(1)
@maxValue(10074)
@description('Longest SAS lifetime the app issues, in minutes (SAS_MAX_MINUTES, at most 7 days less 6 minutes: a user delegation key lives at most 7 days); also the storage account SAS expiration policy.')
param sasMaxMinutes int = 60

@allowed(['entity', 'blob'])
@description('Where organisation-wide last-name index entries live (LASTNAME_INDEX_MODE).')
param lastNameIndexMode string = 'entity'

@description('Issue table SAS tokens. Table user delegation SAS is in preview and REST-only (no JS SDK support, and no stored access policies), so this keeps shared-key access enabled and stores the account key in Key Vault. false: shared-key access off, no Key Vault, the table SAS endpoints answer 501 — the setting to use where a policy denies shared-key access to storage accounts (docs/deploy.md, "The storage key").')
param enableTableSas bool = true

@allowed(['key1', 'key2'])
@description('Which storage account key Key Vault holds for signing SAS tokens; switch it when rotating keys (docs/deploy.md).')
param activeStorageKey string = 'key1'

@minValue(1)
@maxValue(365)
@description('Storage account key expiration policy: Azure flags keys older than this many days.')
param storageKeyExpirationDays int = 90

@minLength(36)
@maxLength(36)
@description('Application (client) id of the Microsoft Entra app registration of this API (docs/deploy.md, "App registration"). App Service authentication accepts only access tokens issued for it.')
param authClientId string

@minLength(36)
@maxLength(36)
@description('Tenant (directory) id whose access tokens the API accepts; defaults to the tenant of the deployment.')
param authTenantId string = tenant().tenantId

@description('Changes the Key Vault\'s name: a deleted vault keeps its name reserved for its soft-delete retention (7 days), so after `azd down` the next `azd up` needs another. The postdown hook of azure.yaml sets AZURE_KEY_VAULT_NAME_SEED to a new value after every `azd down`, and main.parameters.json passes it (docs/deploy.md, "Again after azd down"). Empty: kv-<resource token>.')
param keyVaultNameSeed string = ''

@description('DNS suffix of App Service default host names (the web console\'s origin for storage CORS). Empty: the one of the cloud deployed to (environment().name; environment() has no App Service suffix). Set it for a cloud not listed in appServiceDomainSuffixes.')
param appServiceDomainSuffix string = ''

@description('Create the Azure Monitor alert rules on the app metrics (infra/app/alerts.bicep, docs/operations.md): oldest outbox row older than 5 minutes, poison messages present, drains failing. Off by default.')
param enableAlerts bool = false

@description('Resource id of an action group the alert rules notify (e-mail, webhook...); empty: the alerts fire in Azure Monitor without notifying anyone.')
param alertActionGroupId string = ''

var abbrs = loadJsonContent('./abbreviations.json')
var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))
var tags = { 'azd-env-name': environmentName }
var appName = !empty(functionAppName) ? functionAppName : '${abbrs.webSitesFunctions}api-${resourceToken}'
// App Service's default host name suffix per cloud: environment() gives storage's, Key Vault's
// and others, not App Service's. Another cloud sets appServiceDomainSuffix.
var appServiceDomainSuffixes = {
  AzureCloud: 'azurewebsites.net'
  AzureUSGovernment: 'azurewebsites.us'
  AzureChinaCloud: 'chinacloudsites.cn'
}
var appDomainSuffix = !empty(appServiceDomainSuffix) ? appServiceDomainSuffix : appServiceDomainSuffixes[environment().name]
// The web console (docs/console.md) is served by the app itself at /api/console/ and reads table
// and blob storage directly with SAS URLs, so storage CORS always admits the app's own origin.
var consoleOrigin = 'https://${appName}.${appDomainSuffix}'
// A soft-deleted vault keeps its name: a new seed (set after `azd down`) gives a new name.
var keyVaultName = '${abbrs.keyVaultVaults}${empty(keyVaultNameSeed) ? resourceToken : toLower(uniqueString(resourceToken, keyVaultNameSeed))}'
// Flex Consumption reads the app package from this blob container.
var deploymentContainerName = toLower('app-package-${take(appName, 32)}-${take(resourceToken, 7)}')
// The storage account's SAS policy takes a "D.HH:MM:SS" period.
var sasExpirationPeriod = '${sasMaxMinutes / 1440}.${padLeft(string((sasMaxMinutes % 1440) / 60), 2, '0')}:${padLeft(string(sasMaxMinutes % 60), 2, '0')}:00'

// Issuer of the tenant's v2.0 access tokens (the app registration asks for v2.0 tokens, so their
// `iss` is this URL; environment() keeps it right in sovereign clouds).
var authOpenIdIssuer = '${environment().authentication.loginEndpoint}${authTenantId}/v2.0'

resource rg 'Microsoft.Resources/resourceGroups@2022-09-01' = {
  name: !empty(resourceGroupName) ? resourceGroupName : '${abbrs.resourcesResourceGroups}${environmentName}'
  location: location
  tags: tags
}

module identity './app/identity.bicep' = {
  name: 'identity'
  scope: rg
  params: {
    name: '${abbrs.managedIdentityUserAssignedIdentities}api-${resourceToken}'
    location: location
    tags: tags
  }
}

module monitoring './app/monitoring.bicep' = {
  name: 'monitoring'
  scope: rg
  params: {
    workspaceName: '${abbrs.operationalInsightsWorkspaces}${resourceToken}'
    appInsightsName: '${abbrs.insightsComponents}${resourceToken}'
    location: location
    tags: tags
  }
}

module alerts './app/alerts.bicep' = if (enableAlerts) {
  name: 'alerts'
  scope: rg
  params: {
    appInsightsName: monitoring.outputs.appInsightsName
    location: location
    tags: tags
    actionGroupId: alertActionGroupId
  }
}

module storage './app/storage.bicep' = {
  name: 'storage'
  scope: rg
  params: {
    name: '${abbrs.storageStorageAccounts}${resourceToken}'
    location: location
    tags: tags
    skuName: storageSkuName
    allowSharedKeyAccess: enableTableSas
    allowedCorsOrigins: union([consoleOrigin], allowedCorsOrigins)
    logRetentionDays: logRetentionDays
    deploymentContainerName: deploymentContainerName
    sasExpirationPeriod: sasExpirationPeriod
    keyExpirationDays: storageKeyExpirationDays
  }
}

// Data accounts: the same storage, by the home account's module, without queues or the package.
module dataStorage './app/storage.bicep' = [
  for i in range(0, dataAccountCount): {
    name: 'dataStorage${i + 1}'
    scope: rg
    params: {
      name: '${abbrs.storageStorageAccounts}d${i + 1}${resourceToken}'
      location: location
      tags: tags
      role: 'data'
      skuName: storageSkuName
      allowSharedKeyAccess: enableTableSas
      allowedCorsOrigins: union([consoleOrigin], allowedCorsOrigins)
      logRetentionDays: logRetentionDays
      deploymentContainerName: deploymentContainerName
      sasExpirationPeriod: sasExpirationPeriod
      keyExpirationDays: storageKeyExpirationDays
    }
  }
]

module keyVault './app/keyvault.bicep' = if (enableTableSas) {
  name: 'keyvault'
  scope: rg
  params: {
    name: keyVaultName
    location: location
    tags: tags
    storageAccountName: storage.outputs.name
    activeStorageKey: activeStorageKey
  }
}

module rbac './app/rbac.bicep' = {
  name: 'rbac'
  scope: rg
  params: {
    storageAccountName: storage.outputs.name
    appInsightsName: monitoring.outputs.appInsightsName
    keyVaultName: enableTableSas ? keyVault.outputs.name : ''
    appPrincipalId: identity.outputs.principalId
    userPrincipalId: principalId
    userPrincipalType: principalType
  }
}

module dataRbac './app/dataRbac.bicep' = [
  for i in range(0, dataAccountCount): {
    name: 'dataRbac${i + 1}'
    scope: rg
    params: {
      storageAccountName: dataStorage[i].outputs.name
      appPrincipalId: identity.outputs.principalId
      userPrincipalId: principalId
      userPrincipalType: principalType
    }
  }
]

module dataKeys './app/dataKey.bicep' = [
  for i in range(0, enableTableSas ? dataAccountCount : 0): {
    name: 'dataKey${i + 1}'
    scope: rg
    params: {
      keyVaultName: keyVault.outputs.name
      storageAccountName: dataStorage[i].outputs.name
      connectionName: 'DATA${i + 1}'
      activeStorageKey: activeStorageKey
    }
  }
]

module api './app/api.bicep' = {
  name: 'api'
  scope: rg
  // The identity needs its storage and Key Vault roles before the host first starts.
  dependsOn: [rbac, dataRbac]
  params: {
    name: appName
    planName: '${abbrs.webServerFarms}${resourceToken}'
    location: location
    tags: union(tags, { 'azd-service-name': 'api' })
    identityId: identity.outputs.id
    identityClientId: identity.outputs.clientId
    storageAccountName: storage.outputs.name
    deploymentContainerName: deploymentContainerName
    appInsightsConnectionString: monitoring.outputs.connectionString
    storageKeySecretUri: enableTableSas ? keyVault.outputs.storageKeySecretUri : ''
    dataAccounts: [
      for i in range(0, dataAccountCount): {
        name: 'DATA${i + 1}'
        accountName: dataStorage[i].outputs.name
        keySecretUri: enableTableSas ? dataKeys[i].outputs.keySecretUri : ''
      }
    ]
    nodeVersion: nodeVersion
    maximumInstanceCount: maximumInstanceCount
    instanceMemoryMB: instanceMemoryMB
    durableAlwaysReadyInstances: durableAlwaysReadyInstances
    allowedCorsOrigins: allowedCorsOrigins
    loginRetentionDays: loginRetentionDays
    sasMaxMinutes: sasMaxMinutes
    lastNameIndexMode: lastNameIndexMode
    authClientId: authClientId
    authOpenIdIssuer: authOpenIdIssuer
  }
}

output AZURE_LOCATION string = location
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_RESOURCE_GROUP string = rg.name
output SERVICE_API_NAME string = api.outputs.name
output AZURE_FUNCTION_APP_NAME string = api.outputs.name
output AZURE_FUNCTION_APP_URL string = api.outputs.defaultUrl
output AZURE_STORAGE_ACCOUNT_NAME string = storage.outputs.name
output AZURE_DATA_STORAGE_ACCOUNT_NAMES array = [for i in range(0, dataAccountCount): dataStorage[i].outputs.name]
output AZURE_KEY_VAULT_NAME string = enableTableSas ? keyVault.outputs.name : ''
output AZURE_MANAGED_IDENTITY_CLIENT_ID string = identity.outputs.clientId
// The postdeploy smoke check asks for a token for api://<this>; azd keeps a prompted authClientId
// in config.json (infra.parameters), not in the environment the hook sees, so it is output here.
output AZURE_AUTH_CLIENT_ID string = authClientId
