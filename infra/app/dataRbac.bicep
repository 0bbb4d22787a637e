// Role assignments on one data account (docs/accounts.md): the app's managed identity (and,
// optionally, the deploying user) get the same storage data roles as on the home account.
// Each assignment is named guid(scope, principal, role) so redeploying is idempotent.
param storageAccountName string

@description('Principal id of the app\'s user-assigned managed identity.')
param appPrincipalId string

@description('Principal id of the deploying user; empty to skip its assignments.')
param userPrincipalId string = ''

@allowed(['User', 'ServicePrincipal', 'Group'])
param userPrincipalType string = 'User'

// Built-in role definition ids (https://learn.microsoft.com/azure/role-based-access-control/built-in-roles).
// Storage Blob Data Owner: photos, logs, last-name blobs, and user delegation keys for blob SAS.
var storageBlobDataOwner = 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'
// Storage Queue Data Contributor: the same roles as the home account (no queue is used today).
var storageQueueDataContributor = '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
// Storage Table Data Contributor: entities, and creating/dropping the per-day login tables.
var storageTableDataContributor = '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'

var storageRoles = [storageBlobDataOwner, storageQueueDataContributor, storageTableDataContributor]

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
