/**
 * The alert rules (infra/app/alerts.bicep): off by default behind `enableAlerts`, an optional
 * action group, and one log search rule over Application Insights per condition that means
 * trouble, each on a metric the app exports under its agreed name (docs/operations.md,
 * docs/telemetry.md) with the agreed threshold.
 */
import path from 'node:path';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type InstrumentType,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { DirectoryMetrics, MetricNames } from '../../../src/telemetry/metrics';
import { BicepFile, objectEntries, readRepoFile, REPO_ROOT, valueAt } from './bicep';

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

/**
 * The Azure Monitor exporter the app's distro sends metrics with, loaded from its installed build:
 * its temporality choice and its conversion of collected metrics into the envelopes Application
 * Insights stores in `customMetrics`. (Its package exposes neither as API, hence the paths.)
 */
const EXPORTER_DIST = path.join(
  REPO_ROOT,
  'node_modules/@azure/monitor-opentelemetry-exporter/dist/commonjs',
);
interface ExportedPoint {
  name: string;
  value: number;
  count?: number;
  min?: number;
  max?: number;
  stdDev?: number;
}
interface Envelope {
  data: { baseData: { metrics: ExportedPoint[] } };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const exporterMetricUtils = require(path.join(EXPORTER_DIST, 'utils/metricUtils.js')) as {
  resourceMetricsToEnvelope(
    metrics: ResourceMetrics,
    ikey: string,
    isStatsbeat: boolean,
  ): Envelope[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const exporterModule = require(path.join(EXPORTER_DIST, 'export/metric.js')) as {
  AzureMonitorMetricExporter: {
    prototype: { selectAggregationTemporality(type: InstrumentType): AggregationTemporality };
  };
};

/** A reader that collects with the exporter's temporality, as its periodic reader does. */
class ExporterTemporalityReader extends MetricReader {
  constructor() {
    super({
      aggregationTemporalitySelector: (type) =>
        exporterModule.AzureMonitorMetricExporter.prototype.selectAggregationTemporality(type),
    });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** `customMetrics` columns filled from each field of an exported data point. */
const COLUMNS_OF_FIELD: Record<keyof Omit<ExportedPoint, 'name'>, string[]> = {
  value: ['value'],
  count: ['valueCount'],
  min: ['valueMin'],
  max: ['valueMax'],
  stdDev: ['valueStdDev'],
};

describe('alert rules query what the Azure Monitor exporter sends', () => {
  /** The data points the exporter makes of one collection of the app's metrics, by metric name. */
  async function exportedPoints(): Promise<Map<string, ExportedPoint[]>> {
    const now = Date.parse('2026-12-07T10:00:00Z');
    const reader = new ExporterTemporalityReader();
    const provider = new MeterProvider({ readers: [reader] });
    const metrics = new DirectoryMetrics({ now: () => now, meterProvider: () => provider });
    metrics.observeOutbox('Sales', 3, now - 400_000);
    metrics.observePoisonQueue('index-updates', 2);
    metrics.recordDrainRound('failed', 12);
    metrics.recordDrainRound('failed', 15);
    const { resourceMetrics } = await reader.collect();
    const envelopes = exporterMetricUtils.resourceMetricsToEnvelope(resourceMetrics, 'ikey', false);
    const byName = new Map<string, ExportedPoint[]>();
    for (const point of envelopes.flatMap((e) => e.data.baseData.metrics)) {
      byName.set(point.name, [...(byName.get(point.name) ?? []), point]);
    }
    await provider.shutdown();
    return byName;
  }

  it('reads counters with the delta temporality, so a window total counts only its own rounds', () => {
    const select = exporterModule.AzureMonitorMetricExporter.prototype.selectAggregationTemporality;
    expect(select('COUNTER' as InstrumentType)).toBe(AggregationTemporality.DELTA);
  });

  it.each([
    ['outboxLag', MetricNames.outboxOldestAge],
    ['poisonMessages', MetricNames.poisonLength],
    ['drainFailures', MetricNames.drainRounds],
  ])('%s reads only customMetrics columns the exporter fills for %s', async (symbol, metric) => {
    const points = (await exportedPoints()).get(metric) ?? [];
    expect(points.length).toBeGreaterThan(0);
    const filled = new Set(
      points.flatMap((point) =>
        (Object.keys(COLUMNS_OF_FIELD) as (keyof typeof COLUMNS_OF_FIELD)[])
          .filter((field) => point[field] !== undefined)
          .flatMap((field) => COLUMNS_OF_FIELD[field]),
      ),
    );
    const { query } = condition(symbol);
    const read = [
      ...new Set([...query.matchAll(/\bvalue(?:Sum|Count|Min|Max|StdDev)?\b/g)].map((m) => m[0])),
    ];
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((column) => !filled.has(column))).toEqual([]);
  });

  it('sees the values the app reported through those columns', async () => {
    const points = await exportedPoints();
    // A gauge's point carries its value (the age as observed); a counter's the rounds of the
    // interval (two failed).
    expect(points.get(MetricNames.outboxOldestAge)?.map((p) => p.value)).toEqual([400]);
    expect(points.get(MetricNames.poisonLength)?.map((p) => p.value)).toEqual([2]);
    expect(points.get(MetricNames.drainRounds)?.map((p) => p.value)).toEqual([2]);
  });
});
