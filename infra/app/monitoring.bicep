// Log Analytics workspace + workspace-based Application Insights. Local (instrumentation key)
// authentication is disabled: telemetry is accepted only with an Entra token, which the app gets
// from its managed identity (APPLICATIONINSIGHTS_AUTHENTICATION_STRING, Monitoring Metrics
// Publisher role in rbac.bicep).
param workspaceName string
param appInsightsName string
param location string
param tags object = {}

@minValue(30)
@maxValue(730)
param retentionInDays int = 30

resource workspace 'Microsoft.OperationalInsights/workspaces@2022-10-01' = {
  name: workspaceName
  location: location
  tags: tags
  properties: {
    retentionInDays: retentionInDays
    sku: { name: 'PerGB2018' }
  }
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' = {
  name: appInsightsName
  location: location
  tags: tags
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: workspace.id
    DisableLocalAuth: true
  }
}

output appInsightsName string = appInsights.name
output connectionString string = appInsights.properties.ConnectionString
