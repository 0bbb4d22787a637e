import { startFaultProxy } from '../../../tools/faultProxy';
import { loadFixtureAppInJest } from '../../fixtures/durableapp/harness/loadInJest';
import { startTestRuntime, waitForEnd } from './support/testRuntime';
const shim = loadFixtureAppInJest();
it('measures', async () => {
  const proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
  const test = await startTestRuntime(shim, { connectionString: proxy.connectionString, tuning: { maxPollIntervalMs: 1000 } });
  for (const n of [5, 50, 200]) {
    proxy.resetCounts();
    const t0 = Date.now();
    const r = await test.startViaStarter('HelloSequence', { names: ['a', 'b'], numbers: Array.from({ length: n }, (_, i) => i) });
    const { body } = await waitForEnd(JSON.parse(r.body).statusQueryGetUri, 120_000);
    const ms = Date.now() - t0;
    const hist = await (await fetch(JSON.parse(r.body).statusQueryGetUri + '&showHistory=true')).json() as { historyEvents: unknown[] };
    await new Promise((res) => setTimeout(res, 1500));
    const c = proxy.counts();
    console.log(`fanout=${n} status=${body.runtimeStatus} ms=${ms} requestsDuringRun+1.5sIdle=${c.requests} byService=${JSON.stringify((c as unknown as {byService?: unknown}).byService ?? '')} events=${hist.historyEvents.length}`);
  }
  proxy.resetCounts();
  await new Promise((res) => setTimeout(res, 10_000));
  console.log(`idle 10s requests=${proxy.counts().requests}`);
  await test.stop(); await proxy.stop();
}, 300_000);
