/**
 * The runner adds extra inputs, invokes, and delivers outputs through the binding seams; what it
 * cannot serve it reports at startup and fails loudly when used.
 */
import type {
  InputBindingProvider,
  OutputBindingHandler,
} from '../../../../tools/host/bindings/bindings';
import type { Invoker } from '../../../../tools/host/core/invoke';
import type {
  RpcInvocationRequest,
  RpcInvocationResponse,
  RpcTypedData,
} from '../../../../tools/host/core/types';
import { describeFunction } from '../../../../tools/host/functions';
import { FunctionRunner, outputValue } from '../../../../tools/host/runner';

const fn = describeFunction({
  metadata: {
    name: 'orders',
    bindings: {
      message: { type: 'queueTrigger', direction: 'in', queueName: 'orders' },
      client: { type: 'durableClient', direction: 'in' },
      $return: { type: 'queue', direction: 'out', queueName: 'out' },
      audit: { type: 'table', direction: 'out', tableName: 'Audit' },
    },
  },
  callback: () => undefined,
});

function fakeInvoker(
  response: RpcInvocationResponse,
  requests: Array<Partial<RpcInvocationRequest>>,
): Invoker {
  return {
    invoke: async (_fn, request) => {
      requests.push(request);
      return response;
    },
  };
}

test('bindings are sorted by role', () => {
  expect(fn.trigger.name).toBe('message');
  expect(fn.triggerType).toBe('queuetrigger');
  expect(fn.extraInputs.map((b) => b.name)).toEqual(['client']);
  expect(fn.outputs.map((b) => b.name)).toEqual(['$return', 'audit']);
});

test('unsupported bindings are warnings at startup', () => {
  const runner = new FunctionRunner(fakeInvoker({}, []), [], []);
  expect(runner.prepare(fn)).toEqual([
    expect.stringMatching(/input binding 'client' \(durableClient\) is not supported/),
    expect.stringMatching(/output binding '\$return' \(queue\) is not supported/),
    expect.stringMatching(/output binding 'audit' \(table\) is not supported/),
  ]);
});

test('extra inputs come from their provider; outputs go to their handler; unset outputs are skipped', async () => {
  const requests: Array<Partial<RpcInvocationRequest>> = [];
  const delivered: Array<[string, RpcTypedData]> = [];
  const provider: InputBindingProvider = {
    type: 'durableclient',
    provide: async () => ({ json: '{"taskHubName":"h"}' }),
  };
  const queueOutput: OutputBindingHandler = {
    type: 'queue',
    deliver: async (_fn, output, value) => {
      delivered.push([output.name, value]);
    },
  };
  const runner = new FunctionRunner(
    fakeInvoker({ returnValue: { json: '[1,2]' }, outputData: [] }, requests),
    [provider],
    [queueOutput],
  );
  expect(runner.prepare(fn)).toEqual([expect.stringMatching(/'audit'/)]);

  await runner.run(fn, { data: { string: 'hi' }, reason: 'test' });

  expect(requests[0]!.inputData).toEqual([
    { name: 'message', data: { string: 'hi' } },
    { name: 'client', data: { json: '{"taskHubName":"h"}' } },
  ]);
  expect(delivered).toEqual([['$return', { json: '[1,2]' }]]);
});

test('a value set on an unsupported output fails the invocation instead of being dropped', async () => {
  const runner = new FunctionRunner(
    fakeInvoker({ outputData: [{ name: 'audit', data: { json: '{}' } }] }, []),
    [{ type: 'durableclient', provide: async () => undefined }],
    [{ type: 'queue', deliver: async () => undefined }],
  );
  await expect(runner.run(fn, { data: { string: 'x' }, reason: 'test' })).rejects.toThrow(
    /set output binding 'audit' of type 'table', which the local host does not support/,
  );
});

test('an extra input without a provider fails the invocation clearly', async () => {
  const runner = new FunctionRunner(fakeInvoker({}, []), [], []);
  await expect(runner.run(fn, { data: { string: 'x' }, reason: 'test' })).rejects.toThrow(
    /cannot supply input binding 'client' of type 'durableClient'/,
  );
});

test('an output value of null, undefined or empty typed data counts as unset', () => {
  const output = fn.outputs[1]!;
  expect(outputValue({ outputData: [{ name: 'audit', data: {} }] }, output)).toBeUndefined();
  expect(outputValue({ outputData: [{ name: 'audit', data: null }] }, output)).toBeUndefined();
  expect(outputValue({ returnValue: undefined }, fn.outputs[0]!)).toBeUndefined();
});
