// Role assignments: what the app's managed identity (and, optionally, the deploying user) may do.
// Each assignment is named guid(scope, principal, role) so redeploying is idempotent.
param storageAccountName string
param appInsightsName string

@description('Key Vault holding the storage key; empty when table SAS is disabled.')
param keyVaultName string = ''

@description('Principal id of the app\'s user-assigned managed identity.')
param appPrincipalId string

@description('Principal id of the deploying user; empty to skip its assignments.')
param userPrincipalId string = ''

@allowed(['User', 'ServicePrincipal', 'Group'])
param userPrincipalType string = 'User'

// Built-in role definition ids (https://learn.microsoft.com/azure/role-based-access-control/built-in-roles).
// The home account is the host's AzureWebJobsStorage, for which the Functions documentation names
// Blob Data Owner (data accounts get Blob Data Contributor: dataRbac.bicep).
// Storage Blob Data Owner: blobs and containers, including the host's leases/secrets, the Flex
// deployment package, and user delegation keys for blob SAS.
var storageBlobDataOwner = 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'
// Storage Queue Data Contributor: send, peek, receive and delete queue messages (triggers, poison
// queues, Durable task hub queues).
var storageQueueDataContributor = '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
// Storage Table Data Contributor: entities, and creating/deleting tables (per-day login tables,
// Durable history).
var storageTableDataContributor = '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'
// Monitoring Metrics Publisher: Entra-authenticated Application Insights ingestion.
var monitoringMetricsPublisher = '3913510d-42f4-4e42-8a64-420c390055eb'
// Key Vault Secrets User: read secret values (the STORAGE_ACCOUNT_KEY Key Vault reference).
var keyVaultSecretsUser = '4633458b-17de-408a-b874-0445c86b69e6'

var storageRoles = [storageBlobDataOwner, storageQueueDataContributor, storageTableDataContributor]

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' existing = {
  name: storageAccountName
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: appInsightsName
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = if (!empty(keyVaultName)) {
  name: keyVaultName
}

resource appStorageRoles 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for roleId in storageRoles: {
    name: guid(storage.id, appPrincipalId, roleId)
    scope: storage
    properties: {
      principalId: appPrincipalId
      principalType: 'ServicePrincipal'
      roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roleId)
    }
  }
]

resource appMetricsPublisher 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(appInsights.id, appPrincipalId, monitoringMetricsPublisher)
  scope: appInsights
  properties: {
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', monitoringMetricsPublisher)
  }
}

resource appSecretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(keyVaultName)) {
  name: guid(vault.id, appPrincipalId, keyVaultSecretsUser)
  scope: vault
  properties: {
    principalId: appPrincipalId
    principalType: 'ServicePrincipal'
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', keyVaultSecretsUser)
  }
}

// The deploying user gets the same data roles, to run the app locally against this account
// (DefaultAzureCredential picks up `az login`) and to inspect data. It does not get the key.
resource userStorageRoles 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for roleId in storageRoles: if (!empty(userPrincipalId)) {
    name: guid(storage.id, userPrincipalId, roleId)
    scope: storage
    properties: {
      principalId: userPrincipalId
      principalType: userPrincipalType
      roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roleId)
    }
  }
]
