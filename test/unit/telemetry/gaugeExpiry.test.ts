/**
 * Gauges report what an instance saw only while it is fresh (src/telemetry/metrics.ts). The outbox
 * alert (infra/app/alerts.bicep: the maximum of `directory.outbox.oldest_age` per department over
 * every instance's reports, above 300 s) clears once the backlog drained on another instance, even
 * though the instance that saw the backlog never drains that department again; and it does not
 * fire for a backlog that was young when an instance last read it and was drained elsewhere.
 */
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { SummaryReader } from '../../../functions/shared/metricsSummary';
import { DirectoryMetrics, GAUGE_WINDOW_MS, MetricNames } from '../../../src/telemetry/metrics';

const MINUTE = 60_000;
/** The alert's threshold (alerts.bicep, outboxLag). */
const ALERT_SECONDS = 300;

let now = Date.parse('2026-11-27T12:00:00Z');
const clock = () => now;

/** One worker instance: its own metrics and the reader its exporter would collect with. */
function instance(options: { gaugeWindowMs?: number } = {}) {
  const reader = new SummaryReader();
  const provider = new MeterProvider({ readers: [reader] });
  const metrics = new DirectoryMetrics({ now: clock, meterProvider: () => provider, ...options });
  return { metrics, reader };
}
type Instance = ReturnType<typeof instance>;

/** What one export of the instance reports for `name`, by attribute value. */
async function reported(
  { reader }: Instance,
  name: string,
  attribute: string,
): Promise<Map<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const found = new Map<string, number>();
  for (const metric of resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)) {
    if (metric.descriptor.name !== name) continue;
    for (const point of metric.dataPoints) {
      found.set(String(point.attributes[attribute] ?? ''), point.value as number);
    }
  }
  return found;
}

/** The alert's condition for a department: the largest age any instance reports now. */
async function alertFires(instances: Instance[], department: string): Promise<boolean> {
  const ages = await Promise.all(
    instances.map(async (i) =>
      (await reported(i, MetricNames.outboxOldestAge, 'department')).get(department),
    ),
  );
  const reports = ages.filter((age): age is number => age !== undefined);
  return reports.length > 0 && Math.max(...reports) > ALERT_SECONDS;
}

/**
 * A's drain read a stalled backlog (its oldest row 7 minutes old) and then lost the department
 * (its lease, its invocation); B drained the department to the end a minute later.
 */
async function stallDrainedElsewhere(a: Instance, b: Instance): Promise<void> {
  a.metrics.observeOutbox('Sales', 4, now - 7 * MINUTE);
  now += MINUTE;
  b.metrics.observeOutbox('Sales', 0);
  now += MINUTE;
}

it('clears the outbox alert once the instance that saw the backlog stops reporting it', async () => {
  const a = instance();
  const b = instance();
  await stallDrainedElsewhere(a, b);
  // A reports what it read: a row 7 minutes old. The alert fires, as it did when A read it.
  expect((await reported(a, MetricNames.outboxOldestAge, 'department')).get('Sales')).toBe(420);
  expect(await alertFires([a, b], 'Sales')).toBe(true);

  // Past the window A's observation is no longer reported; B's drain says 0: the alert clears.
  now += GAUGE_WINDOW_MS - 2 * MINUTE + 1;
  expect((await reported(a, MetricNames.outboxOldestAge, 'department')).has('Sales')).toBe(false);
  expect((await reported(a, MetricNames.outboxPending, 'department')).has('Sales')).toBe(false);
  expect((await reported(b, MetricNames.outboxOldestAge, 'department')).get('Sales')).toBe(0);
  expect(await alertFires([a, b], 'Sales')).toBe(false);
});

it('would keep firing if an instance reported what it saw for as long as it lives', async () => {
  // The behaviour before gauges expired: the same story never resolves the alert.
  const a = instance({ gaugeWindowMs: Number.POSITIVE_INFINITY });
  const b = instance({ gaugeWindowMs: Number.POSITIVE_INFINITY });
  await stallDrainedElsewhere(a, b);
  now += GAUGE_WINDOW_MS;
  expect(await alertFires([a, b], 'Sales')).toBe(true);
});

it('raises no alert for a young backlog that one instance handed over and another drained', async () => {
  // An import's backlog: A's drain read rows 30 s old, ran out of its invocation's budget and
  // handed over through a nudge, which B's worker received; B drained to the end 40 s later.
  const a = instance();
  const b = instance();
  a.metrics.observeOutbox('Sales', 120, now - 30_000);
  now += 40_000;
  b.metrics.observeOutbox('Sales', 0);
  // No row was ever older than 70 s. A's last read must not turn into an age that grows with
  // the clock (it reached 300 s after 4.5 minutes and fired until the window ended).
  for (let minute = 1; minute <= 10; minute++) {
    now += MINUTE;
    expect({ minute, fires: await alertFires([a, b], 'Sales') }).toEqual({ minute, fires: false });
  }
});

it('reports a backlog that is still being read with the age of each read', async () => {
  const a = instance();
  const oldest = now;
  for (let read = 0; read < 4; read++) {
    a.metrics.observeOutbox('Ops', 2, oldest);
    now += 5 * MINUTE;
  }
  // Read last 5 minutes ago, when it was 15 minutes old (the sweep reads it every 5 minutes).
  expect((await reported(a, MetricNames.outboxOldestAge, 'department')).get('Ops')).toBe(900);
  expect(await alertFires([a], 'Ops')).toBe(true);
});

it('lets the poison-queue and log-backlog gauges expire the same way', async () => {
  const a = instance();
  a.metrics.observePoisonQueue('index-updates-poison', 3);
  a.metrics.recordLogFlush(7, []);
  now += MINUTE;
  expect((await reported(a, MetricNames.poisonLength, 'queue')).get('index-updates-poison')).toBe(
    3,
  );
  expect((await reported(a, MetricNames.logBatchesWaiting, 'queue')).get('')).toBe(7);

  now += GAUGE_WINDOW_MS;
  expect((await reported(a, MetricNames.poisonLength, 'queue')).size).toBe(0);
  expect((await reported(a, MetricNames.logBatchesWaiting, 'queue')).size).toBe(0);
});
