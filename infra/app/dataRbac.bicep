// Role assignments on one data account (docs/accounts.md): the app's managed identity (and,
// optionally, the deploying user) get the data roles a data account needs, fewer than the home
// account's: a data account holds tables and blobs of the directory, no queue, no host storage.
// Each assignment is named guid(scope, principal, role) so redeploying is idempotent.
param storageAccountName string

@description('Principal id of the app\'s user-assigned managed identity.')
param appPrincipalId string

@description('Principal id of the deploying user; empty to skip its assignments.')
param userPrincipalId string = ''

@allowed(['User', 'ServicePrincipal', 'Group'])
param userPrincipalType string = 'User'

// Built-in role definition ids (https://learn.microsoft.com/azure/role-based-access-control/built-in-roles).
// Storage Blob Data Contributor: photos, logs, last-name blobs; it includes generateUserDelegationKey
// (user delegation keys for blob SAS). Owner's extra rights (blob ACLs, tags) are not used here.
var storageBlobDataContributor = 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
// Storage Table Data Contributor: entities, and creating/dropping the per-day login tables.
var storageTableDataContributor = '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'

// No queue role: the app never uses a data account's queues (triggers stay in the home account).
var storageRoles = [storageBlobDataContributor, storageTableDataContributor]

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' existing = {
  name: storageAccountName
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
