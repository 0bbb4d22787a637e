// Key Vault holding the storage account key that signs SAS tokens.
//
// Why a key at all: table user delegation SAS is a REST-only preview (the SDK cannot sign one) and
// takes no stored access policy, so a partition-scoped table SAS (the valet-key pattern) must be
// signed with the account key. The app reads the key only through a Key Vault reference
// (STORAGE_ACCOUNT_KEY app setting) resolved with its managed identity; nobody pastes it into
// settings, and the vault's access log records every read.
// Its own data access never uses the key (AzureWebJobsStorage__credential = managedidentity).
param name string
param location string
param tags object = {}

@description('Storage account whose key is stored.')
param storageAccountName string

@allowed(['key1', 'key2'])
@description('Which account key is stored; switch it to rotate keys (docs/deploy.md).')
param activeStorageKey string = 'key1'

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' existing = {
  name: storageAccountName
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    tenantId: subscription().tenantId
    sku: {
      family: 'A'
      name: 'standard'
    }
    // Access by Azure RBAC role assignments (rbac.bicep), not access policies.
    enableRbacAuthorization: true
    enableSoftDelete: true
    softDeleteRetentionInDays: 7
    publicNetworkAccess: 'Enabled'
  }
}

resource storageKeySecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'storage-account-key'
  properties: {
    // listKeys() returns key1 then key2.
    value: storage.listKeys().keys[activeStorageKey == 'key1' ? 0 : 1].value
    contentType: 'Storage account ${storageAccountName} ${activeStorageKey}'
  }
}

output name string = vault.name
// Versionless: the app follows the newest secret version after a rotation.
output storageKeySecretUri string = storageKeySecret.properties.secretUri
