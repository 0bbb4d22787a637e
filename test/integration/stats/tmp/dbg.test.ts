import { MessageStats } from '../../../../src/stats/messageStats';
import { startFaultProxy } from '../../../../tools/faultProxy';
import { testClients, uniqueTableName } from '../../../support/storage';
it('dbg', async () => {
  const proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
  const t = uniqueTableName('D');
  const flaky = new MessageStats(testClients(proxy.connectionString).table(t));
  const at = new Date('2026-09-01T05:00:00Z');
  await flaky.record('Flaky', '000006', { at });
  proxy.setFaults({ rate: 0.3, kinds: ['reset-after', '503', 'reset'], seed: 7 });
  for (let i = 0; i < 30; i++) {
    try { await flaky.record('Flaky', '000006', { at }); } catch (err) { console.log(i, (err as Error).message, ((err as {cause?: {request?: {method: string, url: string}}}).cause?.request?.url), proxy.counts()); throw err; }
  }
  await proxy.stop();
});
