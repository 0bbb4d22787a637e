// A storage account of the app. The home account (role 'home'): the directory's tables, queues
// and blob containers, the Functions host's own storage, the Flex Consumption deployment package,
// the Durable Functions task hub and the placement table. A data account (role 'data', main.bicep
// `dataAccountCount`, docs/accounts.md): the same tables, containers and lifecycle rule for the
// departments and keys placed there; no queues (triggers stay in the home account), no package.
//
// Declared here: every table, queue (with its -poison queue) and container the code uses, under
// the default names of src/config/index.ts (test/unit/infra checks both directions). Created at runtime
// instead, and therefore not declared:
// - the per-day LoginAttemptsYYYYMMDD tables (the cleanup timer creates tomorrow's and drops
//   expired ones; dropping a table is the pattern);
// - the Durable Functions task hub (DirectoryHub* tables, directoryhub-* queues and containers),
//   created by the extension;
// - the Functions host's azure-webjobs-hosts / azure-webjobs-secrets containers.
param name string
param location string
param tags object = {}

@allowed(['home', 'data'])
@description('home: the app\'s own account (AzureWebJobsStorage); data: one of the data accounts of DATA_ACCOUNTS.')
param role string = 'home'

@description('Replication of the account.')
param skuName string = 'Standard_LRS'

@description('Shared-key access signs the table SAS tokens (table user delegation SAS is a REST-only preview without stored access policies). The app itself never uses the key for data access.')
param allowSharedKeyAccess bool

@description('Browser origins allowed to use SAS URLs against blob and table storage. Empty: no CORS rules.')
param allowedCorsOrigins array = []

@description('Days after their last modification that blobs under logs/ are deleted.')
param logRetentionDays int

@description('Blob container Flex Consumption deploys the app package to.')
param deploymentContainerName string

@description('Longest lifetime expected of a key-signed SAS ("D.HH:MM:SS"); longer ones are logged.')
param sasExpirationPeriod string

@description('Keys older than this many days are flagged for rotation.')
param keyExpirationDays int

// Tables the code reads and writes (src/config/index.ts `tables`, except the per-day login tables).
var tableNames = [
  'Employees'
  'EmployeesArchive'
  'EmployeeIndex'
  'EmployeeExpenses'
  'MessageStats'
  'AccessLog'
  'OperationsStatus'
]

// Tables only the home account holds: which account holds each department (src/accounts/).
var homeTableNames = [
  'Placements'
]

// Queues (src/config/index.ts `queues`) and the poison queue the host moves a message to after
// maxDequeueCount failed attempts (host.json).
var queueNames = [
  'archive-requests'
  'archive-requests-poison'
  'index-updates'
  'index-updates-poison'
  'log-batches'
  'log-batches-poison'
]

// Blob containers (src/config/index.ts `containers`).
var containerNames = [
  'lastname-index'
  'photos'
  'logs'
]

// Browser SAS flows: a page gets a SAS URL from the API, then reads the table partition or
// reads/uploads the photo blob directly. Table requests also send the OData version headers.
var corsRule = {
  allowedOrigins: allowedCorsOrigins
  allowedMethods: ['GET', 'PUT', 'OPTIONS', 'HEAD']
  allowedHeaders: ['x-ms-*', 'content-type', 'accept', 'dataserviceversion', 'maxdataserviceversion']
  exposedHeaders: ['x-ms-*', 'etag', 'content-length', 'content-type']
  maxAgeInSeconds: 3600
}
var corsRules = empty(allowedCorsOrigins) ? [] : [corsRule]

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: name
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: { name: skuName }
  properties: {
    accessTier: 'Hot'
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    allowBlobPublicAccess: false
    allowSharedKeyAccess: allowSharedKeyAccess
    // The portal and CLI default to Entra authorization, like the app.
    defaultToOAuthAuthentication: true
    publicNetworkAccess: 'Enabled'
    networkAcls: {
      bypass: 'AzureServices'
      defaultAction: 'Allow'
    }
    sasPolicy: {
      sasExpirationPeriod: sasExpirationPeriod
      expirationAction: 'Log'
    }
    keyPolicy: {
      keyExpirationPeriodInDays: keyExpirationDays
    }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {
  parent: storage
  name: 'default'
  properties: {
    cors: { corsRules: corsRules }
  }
}

resource containers 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = [
  for containerName in containerNames: {
    parent: blobService
    name: containerName
    properties: { publicAccess: 'None' }
  }
]

resource deploymentContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = if (role == 'home') {
  parent: blobService
  name: deploymentContainerName
  properties: { publicAccess: 'None' }
}

resource tableService 'Microsoft.Storage/storageAccounts/tableServices@2023-05-01' = {
  parent: storage
  name: 'default'
  properties: {
    cors: { corsRules: corsRules }
  }
}

resource tables 'Microsoft.Storage/storageAccounts/tableServices/tables@2023-05-01' = [
  for tableName in tableNames: {
    parent: tableService
    name: tableName
  }
]

resource homeTables 'Microsoft.Storage/storageAccounts/tableServices/tables@2023-05-01' = [
  for tableName in homeTableNames: if (role == 'home') {
    parent: tableService
    name: tableName
  }
]

resource queueService 'Microsoft.Storage/storageAccounts/queueServices@2023-05-01' = {
  parent: storage
  name: 'default'
}

resource queues 'Microsoft.Storage/storageAccounts/queueServices/queues@2023-05-01' = [
  for queueName in queueNames: if (role == 'home') {
    parent: queueService
    name: queueName
  }
]

// Log blobs are written once per hour prefix and read by time window; old ones are deleted by
// the platform instead of by the app (no listing, no per-blob delete requests). The prefix is the
// whole container, so the pipeline's own blobs under logs/_pipeline/ (tag ledgers, staged
// batches) age out the same way.
// Photo snapshots: the app never takes one, but a photo write SAS's create (c) permission does
// (docs/security.md). The app deletes each version with its snapshots; this rule is the backstop
// for snapshots of a version it keeps (the current or archived photo) or could not delete. Base
// blobs stay the app's: only it knows which version is current.
resource lifecycle 'Microsoft.Storage/storageAccounts/managementPolicies@2023-05-01' = {
  parent: storage
  name: 'default'
  properties: {
    policy: {
      rules: [
        {
          name: 'delete-old-logs'
          enabled: true
          type: 'Lifecycle'
          definition: {
            filters: {
              blobTypes: ['blockBlob', 'appendBlob']
              prefixMatch: ['logs/']
            }
            actions: {
              baseBlob: {
                delete: { daysAfterModificationGreaterThan: logRetentionDays }
              }
            }
          }
        }
        {
          name: 'delete-photo-snapshots'
          enabled: true
          type: 'Lifecycle'
          definition: {
            filters: {
              blobTypes: ['blockBlob']
              prefixMatch: ['photos/']
            }
            actions: {
              snapshot: {
                delete: { daysAfterCreationGreaterThan: 0 }
              }
            }
          }
        }
      ]
    }
  }
  dependsOn: [containers]
}

output name string = storage.name
output id string = storage.id
