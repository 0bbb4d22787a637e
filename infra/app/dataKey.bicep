// The account key of one data account in the app's Key Vault (keyvault.bicep), for the table SAS
// that account signs (docs/accounts.md "SAS"): read through the `<NAME>__accountKey` Key Vault
// reference, as STORAGE_ACCOUNT_KEY is for the home account.
@description('The Key Vault of keyvault.bicep.')
param keyVaultName string

@description('Data account whose key is stored.')
param storageAccountName string

@description('Connection name of the account (DATA1, ...): names the secret.')
param connectionName string

@allowed(['key1', 'key2'])
@description('Which account key is stored; switch it to rotate keys (docs/deploy.md).')
param activeStorageKey string = 'key1'

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' existing = {
  name: storageAccountName
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource keySecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'storage-account-key-${toLower(connectionName)}'
  properties: {
    // listKeys() returns key1 then key2.
    value: storage.listKeys().keys[activeStorageKey == 'key1' ? 0 : 1].value
    contentType: 'Storage account ${storageAccountName} ${activeStorageKey}'
  }
}

// Versionless: the app follows the newest secret version after a rotation.
output keySecretUri string = keySecret.properties.secretUri
