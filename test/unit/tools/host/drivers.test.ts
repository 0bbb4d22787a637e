/**
 * Assigning functions to trigger drivers: extensions claim first, durable triggers are accepted
 * without running, unknown triggers are warned about, driver refusals become startup problems.
 */
import {
  assignDrivers,
  createAcceptingDriver,
  DURABLE_TRIGGER_TYPES,
  type TriggerDriver,
} from '../../../../tools/host/drivers';
import { describeFunction, type HostFunction } from '../../../../tools/host/functions';

function fn(name: string, type: string, retry = false): HostFunction {
  return describeFunction({
    metadata: {
      name,
      bindings: { trigger: { type, direction: 'in' } },
      ...(retry
        ? { retryOptions: { maxRetryCount: 3, retryStrategy: 'fixedDelay' as const } }
        : {}),
    },
    callback: () => undefined,
  });
}

function driver(types: string[], added: string[], refuse?: string): TriggerDriver {
  return {
    triggerTypes: types,
    add(f) {
      if (f.name === refuse) throw new Error(`Function '${f.name}': refused`);
      added.push(f.name);
    },
    describe: () => '',
    start: async () => undefined,
    stop: async () => undefined,
  };
}

test('the first driver claiming a trigger type gets the function', () => {
  const byExtension: string[] = [];
  const builtIn: string[] = [];
  const result = assignDrivers(
    [fn('orchestrate', 'orchestrationTrigger'), fn('tick', 'timerTrigger')],
    [
      driver(['orchestrationtrigger'], byExtension),
      driver(['timertrigger'], builtIn),
      createAcceptingDriver(DURABLE_TRIGGER_TYPES, 'not run'),
    ],
    () => [],
  );
  expect(byExtension).toEqual(['orchestrate']);
  expect(builtIn).toEqual(['tick']);
  expect(result.problems).toEqual([]);
});

test('durable triggers without a durable driver are accepted and listed', () => {
  const accepting = createAcceptingDriver(DURABLE_TRIGGER_TYPES, 'not run locally');
  const activity = fn('step', 'activityTrigger');
  const result = assignDrivers([activity], [accepting], () => []);
  expect(result.driverOf.get(activity)).toBe(accepting);
  expect(accepting.describe(activity)).toBe('activityTrigger (not run locally)');
  expect(accepting.runOnce).toBeUndefined();
});

test('unknown trigger types and retry policies are warnings; a driver refusal is a problem', () => {
  const result = assignDrivers(
    [fn('blob', 'blobTrigger'), fn('retried', 'queueTrigger', true), fn('bad', 'queueTrigger')],
    [driver(['queuetrigger'], [], 'bad')],
    (f) => [`bindings of ${f.name}`],
  );
  expect(result.warnings).toEqual([
    "Function 'blob': no local driver for trigger type 'blobTrigger'; it will not run.",
    expect.stringMatching(/'retried': its retry policy is not applied/),
    'bindings of retried',
  ]);
  expect(result.problems).toEqual(["Function 'bad': refused"]);
  expect([...result.driverOf.keys()].map((f) => f.name)).toEqual(['retried']);
});
