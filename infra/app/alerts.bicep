// Azure Monitor alert rules on the app's OpenTelemetry metrics (docs/operations.md, names in
// docs/telemetry.md): log search alerts over Application Insights' customMetrics table, where the
// Azure Monitor exporter writes each metric with its attributes in customDimensions. Deployed only
// with enableAlerts=true (main.bicep). Each rule resolves itself once the condition clears.
//
// The rules read the `value` column only: for a gauge or a counter the exporter sends one `value`
// with count 1 per export and no min or max, so valueMax/valueMin may stay empty. Counters are
// exported as deltas (each point counts its own interval), so a window's total of `value` is what
// happened in the window. test/unit/infra/alerts.test.ts runs the installed exporter to check it.
param appInsightsName string
param location string
param tags object = {}

@description('Resource id of the action group the rules notify; empty: they fire in Azure Monitor without notifying anyone.')
param actionGroupId string = ''

resource appInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: appInsightsName
}

var actions = {
  actionGroups: empty(actionGroupId) ? [] : [actionGroupId]
}

// Oldest pending outbox row older than 5 minutes, per department: the index drains do not keep up
// (directory.outbox.oldest_age, seconds, sampled at each drain and sweep).
resource outboxLag 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = {
  name: 'alert-outbox-oldest-age-${appInsightsName}'
  location: location
  tags: tags
  kind: 'LogAlert'
  properties: {
    displayName: 'Index outbox: oldest row older than 5 minutes'
    description: 'directory.outbox.oldest_age > 300 s in a department: its index drain is behind or failing (docs/operations.md).'
    severity: 2
    enabled: true
    scopes: [appInsights.id]
    evaluationFrequency: 'PT5M'
    windowSize: 'PT5M'
    criteria: {
      allOf: [
        {
          query: 'customMetrics | where name == "directory.outbox.oldest_age" | extend department = tostring(customDimensions["department"]) | project timestamp, department, oldestAgeSeconds = value'
          timeAggregation: 'Maximum'
          metricMeasureColumn: 'oldestAgeSeconds'
          dimensions: [
            {
              name: 'department'
              operator: 'Include'
              values: ['*']
            }
          ]
          operator: 'GreaterThan'
          threshold: 300
          failingPeriods: {
            numberOfEvaluationPeriods: 1
            minFailingPeriodsToAlert: 1
          }
        }
      ]
    }
    autoMitigate: true
    actions: actions
  }
}

// Messages in a poison queue: work that failed maxDequeueCount times waits for a replay
// (directory.queue.poison.length, sampled by the timers).
resource poisonMessages 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = {
  name: 'alert-poison-messages-${appInsightsName}'
  location: location
  tags: tags
  kind: 'LogAlert'
  properties: {
    displayName: 'Poison messages present'
    description: 'directory.queue.poison.length > 0: inspect and replay them from the console or POST /api/operations/poison/{queue}/replay once the cause is fixed (docs/operations.md).'
    severity: 2
    enabled: true
    scopes: [appInsights.id]
    evaluationFrequency: 'PT15M'
    windowSize: 'PT15M'
    criteria: {
      allOf: [
        {
          query: 'customMetrics | where name == "directory.queue.poison.length" | extend queue = tostring(customDimensions["queue"]) | project timestamp, queue, poisonMessages = value'
          timeAggregation: 'Maximum'
          metricMeasureColumn: 'poisonMessages'
          dimensions: [
            {
              name: 'queue'
              operator: 'Include'
              values: ['*']
            }
          ]
          operator: 'GreaterThan'
          threshold: 0
          failingPeriods: {
            numberOfEvaluationPeriods: 1
            minFailingPeriodsToAlert: 1
          }
        }
      ]
    }
    autoMitigate: true
    actions: actions
  }
}

// Drain rounds that failed in the last 15 minutes (directory.drain.rounds, outcome=failed).
resource drainFailures 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = {
  name: 'alert-drain-failures-${appInsightsName}'
  location: location
  tags: tags
  kind: 'LogAlert'
  properties: {
    displayName: 'Index drains failing'
    description: 'directory.drain.rounds with outcome=failed > 0 in 15 minutes: outbox drains throw (storage faults, a bug); the host log has the errors (docs/operations.md).'
    severity: 1
    enabled: true
    scopes: [appInsights.id]
    evaluationFrequency: 'PT5M'
    windowSize: 'PT15M'
    criteria: {
      allOf: [
        {
          query: 'customMetrics | where name == "directory.drain.rounds" and tostring(customDimensions["outcome"]) == "failed" | project timestamp, failedRounds = value'
          timeAggregation: 'Total'
          metricMeasureColumn: 'failedRounds'
          operator: 'GreaterThan'
          threshold: 0
          failingPeriods: {
            numberOfEvaluationPeriods: 1
            minFailingPeriodsToAlert: 1
          }
        }
      ]
    }
    autoMitigate: true
    actions: actions
  }
}

output ruleNames array = [outboxLag.name, poisonMessages.name, drainFailures.name]
