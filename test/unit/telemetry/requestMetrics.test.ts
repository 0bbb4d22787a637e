/**
 * The metrics the function adapters record (functions/shared): authorization refusals by rule,
 * before any storage read, and timer runs by outcome — read back from an in-memory reader.
 */
import { metrics } from '@opentelemetry/api';
import { InvocationContext, type Timer } from '@azure/functions';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { SummaryReader } from '../../../functions/shared/metricsSummary';
import { authorizedHandler } from '../../../functions/shared/route';
import { meteredTimer } from '../../../functions/shared/timerRuns';
import { admin } from '../../../src/identity/access';
import { MetricNames } from '../../../src/telemetry/metrics';
import { invokeHttp } from '../../support/invokeHttp';
import { employeePrincipal } from '../../support/principals';

const reader = new SummaryReader();

beforeAll(() => {
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});
afterAll(() => metrics.disable());

async function sums(name: string): Promise<Map<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const found = new Map<string, number>();
  for (const metric of resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)) {
    if (metric.descriptor.name !== name) continue;
    for (const point of metric.dataPoints) {
      found.set(JSON.stringify(point.attributes), point.value as number);
    }
  }
  return found;
}

it('counts refusals by the rule that refused, and nothing for an admitted caller', async () => {
  const handler = authorizedHandler({ access: admin, schemas: {} }, async () => ({
    status: 204,
  }));
  expect((await invokeHttp(handler, 'GET', {}, { principal: null })).status).toBe(401);
  const employee = employeePrincipal('Sales', '000001');
  expect((await invokeHttp(handler, 'GET', {}, { principal: employee })).status).toBe(403);
  expect((await invokeHttp(handler, 'GET', {}, { principal: employee })).status).toBe(403);
  expect((await invokeHttp(handler, 'GET', {})).status).toBe(204);

  const refusals = await sums(MetricNames.authRefusals);
  expect(refusals.get(JSON.stringify({ rule: 'signed-in' }))).toBe(1);
  expect(refusals.get(JSON.stringify({ rule: admin.description }))).toBe(2);
  expect([...refusals.values()].reduce((a, b) => a + b, 0)).toBe(3);
});

it('counts timer runs by outcome, passing a failure on', async () => {
  const timer = {} as Timer;
  const context = new InvocationContext();
  const ok = meteredTimer('sweepA', async () => undefined);
  const failing = meteredTimer('sweepA', async () => {
    throw new Error('storage down');
  });
  await ok(timer, context);
  await ok(timer, context);
  await expect(failing(timer, context)).rejects.toThrow('storage down');

  const runs = await sums(MetricNames.timerRuns);
  expect(runs.get(JSON.stringify({ timer: 'sweepA', outcome: 'succeeded' }))).toBe(2);
  expect(runs.get(JSON.stringify({ timer: 'sweepA', outcome: 'failed' }))).toBe(1);
});
