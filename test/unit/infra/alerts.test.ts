/**
 * The alert rules (infra/app/alerts.bicep): off by default behind `enableAlerts`, an optional
 * action group, and one log search rule over Application Insights per condition that means
 * trouble, each on a metric the app exports under its agreed name (docs/operations.md,
 * docs/telemetry.md) with the agreed threshold.
 */
import { BicepFile, objectEntries, readRepoFile, valueAt } from './bicep';

const main = new BicepFile('main.bicep');
const alerts = new BicepFile('app/alerts.bicep');
const rules = alerts.resourcesOfType('Microsoft.Insights/scheduledQueryRules');

/** The one condition of a rule: its query, threshold, operator, aggregation, window. */
function condition(symbol: string) {
  const rule = rules.find((r) => r.symbol === symbol);
  if (!rule) throw new Error(`alerts.bicep has no rule "${symbol}"`);
  const allOf = valueAt(rule.body, 'properties.criteria.allOf') ?? '';
  const first = objectEntries(allOf.slice(allOf.indexOf('{') + 1, allOf.lastIndexOf('}')));
  return {
    query: (first.get('query') ?? '').replace(/^'(.*)'$/s, '$1'),
    threshold: first.get('threshold'),
    operator: first.get('operator'),
    timeAggregation: first.get('timeAggregation'),
    windowSize: valueAt(rule.body, 'properties.windowSize'),
    scopes: valueAt(rule.body, 'properties.scopes'),
    actions: valueAt(rule.body, 'properties.actions'),
    autoMitigate: valueAt(rule.body, 'properties.autoMitigate'),
  };
}

describe('alert rules', () => {
  it('are off by default and take an optional action group', () => {
    expect(main.param('enableAlerts')).toMatchObject({ type: 'bool', defaultText: 'false' });
    expect(main.param('alertActionGroupId')).toMatchObject({ type: 'string', defaultText: "''" });
    const module = main.modules().find((m) => m.path === './app/alerts.bicep');
    expect(module?.condition).toBe('enableAlerts');
    expect(valueAt(module!.body, 'params.actionGroupId')).toBe('alertActionGroupId');
    expect(valueAt(module!.body, 'params.appInsightsName')).toBe(
      'monitoring.outputs.appInsightsName',
    );
    expect(alerts.variable('actions')).toMatch(
      /actionGroups: empty\(actionGroupId\) \? \[\] : \[actionGroupId\]/,
    );
  });

  it('query the application insights of the app and resolve themselves', () => {
    expect(rules.map((r) => r.symbol).sort()).toEqual(
      ['drainFailures', 'outboxLag', 'poisonMessages'].sort(),
    );
    for (const rule of rules) {
      const c = condition(rule.symbol);
      expect(c.scopes).toBe('[appInsights.id]');
      expect(c.actions).toBe('actions');
      expect(c.autoMitigate).toBe('true');
      expect(c.query).toMatch(/^customMetrics \| where name == "directory\.[a-z_.]+"/);
    }
  });

  it('fire when the oldest outbox row is older than 5 minutes, per department', () => {
    const c = condition('outboxLag');
    expect(c.query).toContain('name == "directory.outbox.oldest_age"');
    expect(c.query).toContain('customDimensions["department"]');
    expect([c.operator, c.threshold, c.timeAggregation]).toEqual([
      "'GreaterThan'",
      '300',
      "'Maximum'",
    ]);
  });

  it('fire when a poison queue holds messages, per queue', () => {
    const c = condition('poisonMessages');
    expect(c.query).toContain('name == "directory.queue.poison.length"');
    expect(c.query).toContain('customDimensions["queue"]');
    expect([c.operator, c.threshold, c.timeAggregation]).toEqual([
      "'GreaterThan'",
      '0',
      "'Maximum'",
    ]);
  });

  it('fire when drain rounds failed within 15 minutes', () => {
    const c = condition('drainFailures');
    expect(c.query).toContain('name == "directory.drain.rounds"');
    expect(c.query).toContain('tostring(customDimensions["outcome"]) == "failed"');
    expect([c.operator, c.threshold, c.timeAggregation]).toEqual(["'GreaterThan'", '0', "'Total'"]);
    expect(c.windowSize).toBe("'PT15M'");
  });

  it('are documented: the parameters in docs/deploy.md, each rule in docs/operations.md', () => {
    const deploy = readRepoFile('docs/deploy.md');
    expect(deploy).toMatch(/^\| `enableAlerts` +\| `false` +\|/m);
    expect(deploy).toMatch(/^\| `alertActionGroupId` +\| `` +\|/m);
    const operations = readRepoFile('docs/operations.md');
    for (const metric of [
      'directory.outbox.oldest_age',
      'directory.queue.poison.length',
      'directory.drain.rounds',
    ]) {
      expect(operations).toContain(metric);
    }
    expect(operations).toContain('infra/app/alerts.bicep');
  });
});
