// The Function App on the Flex Consumption plan (Linux, Node.js), running as its user-assigned
// managed identity.
//
// App settings: every setting src/config/index.ts reads is either set below (the `*Settings` variables,
// all merged into the appsettings resource) or deliberately left to its default and listed with
// the reason in infra/settings-defaulted.json. Flex Consumption takes the runtime and version from
// functionAppConfig, so FUNCTIONS_WORKER_RUNTIME, FUNCTIONS_EXTENSION_VERSION,
// WEBSITE_NODE_DEFAULT_VERSION and WEBSITE_RUN_FROM_PACKAGE must not be set.
param name string
param planName string
param location string
param tags object = {}

@description('Resource id of the user-assigned managed identity the app runs as.')
param identityId string

@description('Client id of that identity (AzureWebJobsStorage__clientId, AAD telemetry).')
param identityClientId string

param storageAccountName string

@description('Blob container Flex Consumption deploys the app package to.')
param deploymentContainerName string

param appInsightsConnectionString string

@description('Key Vault secret URI of the storage account key; empty when table SAS is disabled.')
param storageKeySecretUri string = ''

@description('The data accounts (docs/accounts.md): each `{name, accountName, keySecretUri}` — its connection name (DATA1, ...), storage account, and the Key Vault secret of its key (empty without table SAS).')
param dataAccounts array = []

@allowed(['22'])
@description('Node.js major version: those generally available on Flex Consumption (main.bicep).')
param nodeVersion string = '22'

@minValue(1)
@maxValue(1000)
param maximumInstanceCount int = 100

@allowed([512, 2048, 4096])
param instanceMemoryMB int = 2048

@minValue(0)
@maxValue(20)
@description('Always-ready instances of the "durable" scaling group; 0 = none.')
param durableAlwaysReadyInstances int = 1

@description('Browser origins allowed to call the API.')
param allowedCorsOrigins array = []

param loginRetentionDays int = 60
param sasMaxMinutes int = 60

@allowed(['entity', 'blob'])
param lastNameIndexMode string = 'entity'

@description('Application (client) id of the Microsoft Entra app registration that represents this API.')
param authClientId string

@description('OpenID Connect issuer whose access tokens App Service authentication accepts: the v2.0 endpoint of the tenant.')
param authOpenIdIssuer string

// The cloud's storage suffix (core.windows.net, core.usgovcloudapi.net, core.chinacloudapi.cn...).
var storageSuffix = environment().suffixes.storage

// 16 MiB photo + 64 KiB of headroom; tools/host reads the same setting locally.
var requestBodyLimitBytes = 16 * 1024 * 1024 + 64 * 1024

// Identity-based host storage (AzureWebJobsStorage__*): triggers, Durable Functions and the app's
// own clients (src/storage/clients.ts) use the managed identity; there is no connection string.
var storageSettings = {
  AzureWebJobsStorage__credential: 'managedidentity'
  AzureWebJobsStorage__clientId: identityClientId
  AzureWebJobsStorage__blobServiceUri: 'https://${storageAccountName}.blob.${storageSuffix}'
  AzureWebJobsStorage__queueServiceUri: 'https://${storageAccountName}.queue.${storageSuffix}'
  AzureWebJobsStorage__tableServiceUri: 'https://${storageAccountName}.table.${storageSuffix}'
  // The app builds a connection's URIs from `<name>__accountName` with it (the host cannot: it
  // assumes the public cloud), e.g. for a data account added by hand.
  STORAGE_ENDPOINT_SUFFIX: storageSuffix
}

// Data accounts (DATA_ACCOUNTS=DATA1,...): identity-based connections the app resolves as the host
// resolves a connection, with the key that signs their table SAS from Key Vault (docs/accounts.md).
var dataAccountSettings = reduce(
  dataAccounts,
  empty(dataAccounts) ? {} : { DATA_ACCOUNTS: join(map(dataAccounts, account => account.name), ',') },
  (settings, account) => union(settings, {
    '${account.name}__credential': 'managedidentity'
    '${account.name}__clientId': identityClientId
    '${account.name}__blobServiceUri': 'https://${account.accountName}.blob.${storageSuffix}'
    '${account.name}__queueServiceUri': 'https://${account.accountName}.queue.${storageSuffix}'
    '${account.name}__tableServiceUri': 'https://${account.accountName}.table.${storageSuffix}'
  }, empty(account.keySecretUri) ? {} : {
    '${account.name}__accountKey': '@Microsoft.KeyVault(SecretUri=${account.keySecretUri})'
  })
)

// Application Insights accepts telemetry only with an Entra token of this identity.
var monitoringSettings = {
  APPLICATIONINSIGHTS_CONNECTION_STRING: appInsightsConnectionString
  APPLICATIONINSIGHTS_AUTHENTICATION_STRING: 'ClientId=${identityClientId};Authorization=AAD'
}

// SAS issuing: table SAS need the account key (table user delegation SAS is a REST-only preview
// without stored access policies), resolved from Key Vault by the platform with
// keyVaultReferenceIdentity. Blob SAS are signed with it too when present, otherwise with a user
// delegation key (docs/deploy.md, "The storage key"). Without the key the table SAS endpoints
// answer 501.
var sasSettings = {
  STORAGE_ACCOUNT_NAME: storageAccountName
  SAS_MAX_MINUTES: string(sasMaxMinutes)
}
var sasKeySettings = empty(storageKeySecretUri) ? {} : {
  STORAGE_ACCOUNT_KEY: '@Microsoft.KeyVault(SecretUri=${storageKeySecretUri})'
}

// The host refuses a request body past this many bytes while it streams in (its default is
// 100 MiB): the largest the API takes is a 16 MiB photo, so nothing larger is ever buffered.
var hostSettings = {
  FUNCTIONS_REQUEST_BODY_SIZE_LIMIT: string(requestBodyLimitBytes)
}

// Tunables chosen at deployment (main.bicep parameters).
var directorySettings = {
  LOGIN_RETENTION_DAYS: string(loginRetentionDays)
  LASTNAME_INDEX_MODE: lastNameIndexMode
}

resource plan 'Microsoft.Web/serverfarms@2024-04-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: {
    name: 'FC1'
    tier: 'FlexConsumption'
  }
  properties: {
    // Linux.
    reserved: true
  }
}

resource functionApp 'Microsoft.Web/sites@2024-04-01' = {
  name: name
  location: location
  tags: tags
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identityId}': {} }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: identityId
    siteConfig: {
      minTlsVersion: '1.2'
      cors: { allowedOrigins: allowedCorsOrigins }
    }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: 'https://${storageAccountName}.blob.${storageSuffix}/${deploymentContainerName}'
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identityId
          }
        }
      }
      scaleAndConcurrency: {
        maximumInstanceCount: maximumInstanceCount
        instanceMemoryMB: instanceMemoryMB
        // Flex Consumption scales Durable triggers (orchestrators, activities, entities) as one
        // group, "durable"; an always-ready instance there keeps the task hub's queues polled, so
        // an orchestration does not wait for a cold start at each step.
        alwaysReady: durableAlwaysReadyInstances > 0 ? [
          {
            name: 'durable'
            instanceCount: durableAlwaysReadyInstances
          }
        ] : []
      }
      runtime: {
        name: 'node'
        version: nodeVersion
      }
    }
  }
}

resource appSettings 'Microsoft.Web/sites/config@2024-04-01' = {
  parent: functionApp
  name: 'appsettings'
  properties: union(storageSettings, dataAccountSettings, monitoringSettings, sasSettings, sasKeySettings, hostSettings, directorySettings)
}

// App Service authentication ("Easy Auth") in front of every HTTP function. The platform validates
// the caller's Entra ID access token (or the session of /.auth/login/aad, which the web console
// uses), answers 401 itself when there is none (only the anonymous routes are let through), strips
// any x-ms-client-principal header a client sent and passes the validated principal to the app in
// that header; WEBSITE_AUTH_ENABLED=True tells the app it may trust it (docs/security.md).
//
// Everything but the identity provider comes from auth-settings.json, the one source of the
// excludedPaths (the anonymous routes: functions/health.ts, openapi.ts, console.ts), the 401
// answer and the token store setting; the local Azure-mode front reads the same file, and
// test/unit/infra/authentication.test.ts checks it against the routes the app registers. The
// identity provider needs the deployment's parameters, so it is added here.
var authSettingsFromFile = loadJsonContent('auth-settings.json')
var authIdentityProvider = {
  identityProviders: {
    azureActiveDirectory: {
      enabled: true
      registration: {
        clientId: authClientId
        openIdIssuer: authOpenIdIssuer
      }
      validation: {
        // v2.0 access tokens carry the client id as audience, v1.0 tokens the application id URI.
        allowedAudiences: [
          authClientId
          'api://${authClientId}'
        ]
      }
    }
  }
}

resource authSettings 'Microsoft.Web/sites/config@2024-04-01' = {
  parent: functionApp
  name: 'authsettingsV2'
  // Two config writes to one site at once can conflict or leave one of them unapplied
  // (Azure/azure-dev#3125): the authentication settings go after the app settings.
  dependsOn: [appSettings]
  properties: union(authSettingsFromFile, authIdentityProvider)
}

output name string = functionApp.name
output defaultUrl string = 'https://${functionApp.properties.defaultHostName}'
