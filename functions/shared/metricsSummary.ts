/**
 * The one-line metrics summary the local host prints on demand (`--metrics-summary`, then
 * `kill -USR2 <pid>`): every instrument of the app's meter, per attribute set, from a pull reader
 * attached beside the exporter (or alone, with no exporter).
 */
import {
  AggregationTemporality,
  DataPointType,
  InstrumentType,
  MetricReader,
  type MetricData,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { METER_NAME } from '../../src/telemetry/metrics';

/**
 * `select` for every instrument but the observable gauges, which are delta: a collection reports
 * only what the gauges' callbacks observed this time (as the Azure Monitor exporter selects), so
 * a figure the app stopped reporting (src/telemetry/metrics.ts: older than its window) disappears
 * instead of being repeated from an earlier collection, as cumulative gauges would.
 */
export function gaugesAsObserved(
  select: (type: InstrumentType) => AggregationTemporality,
): (type: InstrumentType) => AggregationTemporality {
  return (type) =>
    type === InstrumentType.OBSERVABLE_GAUGE ? AggregationTemporality.DELTA : select(type);
}

/** A reader that exports nothing: the summary collects from it when asked. */
export class SummaryReader extends MetricReader {
  constructor() {
    super({
      aggregationTemporalitySelector: gaugesAsObserved(() => AggregationTemporality.CUMULATIVE),
    });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

function attributesText(attributes: Record<string, unknown>): string {
  const pairs = Object.entries(attributes).map(([key, value]) => `${key}=${String(value)}`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

const round = (value: number): string => String(Math.round(value * 10) / 10);

function metricText(metric: MetricData): string[] {
  const name = metric.descriptor.name;
  const unit = metric.descriptor.unit ? ` ${metric.descriptor.unit}` : '';
  return metric.dataPoints.map((point) => {
    const label = `${name}${attributesText(point.attributes)}`;
    if (metric.dataPointType === DataPointType.HISTOGRAM) {
      const value = point.value as { count: number; sum?: number; max?: number };
      const mean = value.count > 0 && value.sum !== undefined ? value.sum / value.count : 0;
      return `${label}=n:${value.count},mean:${round(mean)},max:${round(value.max ?? 0)}${unit}`;
    }
    return `${label}=${round(point.value as number)}${unit}`;
  });
}

/**
 * One line: `metrics: name{attr=v}=value ...`, histograms as count, mean and max; only the app's
 * meter ({@link METER_NAME}), in name order.
 */
export function formatMetricsSummary(metrics: ResourceMetrics): string {
  const parts = metrics.scopeMetrics
    .filter((scope) => scope.scope.name === METER_NAME)
    .flatMap((scope) => scope.metrics)
    .sort((a, b) => a.descriptor.name.localeCompare(b.descriptor.name))
    .flatMap(metricText);
  return `metrics: ${parts.length === 0 ? '(none recorded yet)' : parts.join(' ')}`;
}

/** Collects from the reader and formats the line. */
export async function metricsSummary(reader: SummaryReader): Promise<string> {
  const { resourceMetrics } = await reader.collect();
  return formatMetricsSummary(resourceMetrics);
}
