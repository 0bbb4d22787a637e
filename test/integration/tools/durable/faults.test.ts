/**
 * The local durable runtime over a storage connection that fails: 500/503 answers, dropped
 * connections, held requests, and resets after storage applied a write (the client cannot tell
 * whether its episode commit, inbox write or message happened). Orchestrations still complete
 * with the right output, and no activity result is lost.
 */
import { startFaultProxy, type FaultProxy } from '../../../../tools/faultProxy/faultProxy';
import { callCount, resetFixtureControl } from '../../../fixtures/durableapp/control';
import { loadFixtureAppInJest } from '../../../fixtures/durableapp/harness/loadInJest';
import { startTestRuntime, waitForEnd, type TestRuntime } from './support/testRuntime';

const shim = loadFixtureAppInJest();

describe('local durable runtime: storage faults', () => {
  let proxy: FaultProxy;
  let test: TestRuntime;

  beforeAll(async () => {
    proxy = await startFaultProxy({ target: JSON.parse(process.env.TEST_AZURITE_PORTS!) });
    test = await startTestRuntime(shim, { connectionString: proxy.connectionString });
  });
  afterAll(async () => {
    await test.stop();
    await proxy.stop();
  });
  beforeEach(() => resetFixtureControl());

  it('completes concurrent orchestrations while 10% of storage requests fail', async () => {
    proxy.setFaults({
      rate: 0.1,
      kinds: ['500', '503', '503-retry-after', 'reset', 'reset-after', 'timeout'],
      timeoutMs: 500,
      seed: 20240601,
    });
    const runs = ['p', 'q', 'r'].map((tag, i) => ({
      input: { names: [`${tag}1`, `${tag}2`] as [string, string], numbers: [i, i + 1, i + 2] },
      total: 2 * (3 * i + 3),
    }));
    const started = await Promise.all(
      runs.map(async (run) => {
        // The start request goes through the faulty storage too; a failed start is retried.
        for (let attempt = 1; ; attempt += 1) {
          const response = await test
            .startViaStarter('HelloSequence', run.input)
            .catch((error: unknown) => ({ status: 0, body: String(error) }));
          if (response.status === 202) return JSON.parse(response.body) as Record<string, string>;
          if (attempt === 5)
            throw new Error(`Could not start: ${response.status} ${response.body}`);
        }
      }),
    );
    const ends = await Promise.all(started.map((urls) => waitForEnd(urls.statusQueryGetUri!)));
    proxy.setFaults(null);

    ends.forEach(({ body }, i) => {
      expect(body.runtimeStatus).toBe('Completed');
      expect(body.output).toEqual({
        greetings: [`Hello, ${runs[i]!.input.names[0]}!`, `Hello, ${runs[i]!.input.names[1]}!`],
        total: runs[i]!.total,
      });
    });
    // At-least-once: every activity ran, none was skipped.
    for (const run of runs) {
      for (const name of run.input.names)
        expect(callCount('Greet', name)).toBeGreaterThanOrEqual(1);
    }
    expect(proxy.counts().faultsInjected).toBeGreaterThan(0);
  });
});
