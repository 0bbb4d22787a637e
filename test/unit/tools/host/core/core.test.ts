/**
 * The host's `@azure/functions-core`: the registry, the module interception, and the invocation
 * sequence (programming model, hooks, timeout) that mirrors the Node.js worker.
 */
import { createCoreApi, installCoreModule } from '../../../../../tools/host/core/coreModule';
import { createInvoker, FunctionTimeoutError } from '../../../../../tools/host/core/invoke';
import {
  Disposable,
  FunctionAppRegistry,
  RegistrationError,
} from '../../../../../tools/host/core/registry';
import type {
  CoreInvocationContext,
  FunctionCallback,
  HookContext,
  ProgrammingModel,
} from '../../../../../tools/host/core/types';
import { createLogger } from '../../../../../tools/host/log';

const metadata = (name: string) => ({
  name,
  bindings: { trigger: { type: 'queueTrigger', direction: 'in' as const } },
});

describe('registry', () => {
  test('refuses a second function with the same id, and any registration once locked', () => {
    const registry = new FunctionAppRegistry();
    const handle = registry.registerFunction(metadata('a'), () => undefined);
    expect(() => registry.registerFunction(metadata('a'), () => undefined)).toThrow(
      new RegistrationError('A function with id "a" has already been registered.'),
    );
    handle.dispose();
    registry.registerFunction(metadata('a'), () => undefined);
    registry.lock();
    expect(() => registry.registerFunction(metadata('b'), () => undefined)).toThrow(
      /only be registered during app startup/,
    );
    expect(registry.functions().map((f) => f.metadata.name)).toEqual(['a']);
  });

  test('an unknown hook name is a RangeError flagged as a system error (the library relies on it)', () => {
    const registry = new FunctionAppRegistry();
    let error: unknown;
    try {
      registry.registerHook('onSunrise', () => undefined);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect((error as { isAzureFunctionsSystemError: boolean }).isAzureFunctionsSystemError).toBe(
      true,
    );
  });

  test('hooks run in order and can be disposed', () => {
    const registry = new FunctionAppRegistry();
    const first = (): void => undefined;
    const second = (): void => undefined;
    const handle = registry.registerHook('preInvocation', first);
    registry.registerHook('preInvocation', second);
    expect(registry.hooks('preInvocation')).toEqual([first, second]);
    Disposable.from(handle).dispose();
    expect(registry.hooks('preInvocation')).toEqual([second]);
  });
});

describe('core module', () => {
  test("require('@azure/functions-core') returns the host's API while installed", () => {
    const api = createCoreApi(new FunctionAppRegistry(), () => undefined);
    // Node's own module loader (jest's require is a different implementation).
    const NodeModule = jest.requireActual<typeof import('node:module')>(
      'node:module',
    ) as unknown as {
      new (id: string): { paths: string[]; require(id: string): unknown };
      _nodeModulePaths(dir: string): string[];
    };
    const loader = new NodeModule(__filename);
    loader.paths = NodeModule._nodeModulePaths(__dirname);
    const nodeRequire = (id: string): unknown => loader.require(id);
    const uninstall = installCoreModule(api);
    try {
      expect(nodeRequire('@azure/functions-core')).toBe(api);
      expect(nodeRequire('node:path')).toBe(jest.requireActual('node:path'));
    } finally {
      uninstall();
    }
    expect(() => nodeRequire('@azure/functions-core')).toThrow(/Cannot find module/);
  });

  test('setProgrammingModel and registerFunction reach the registry', () => {
    const registry = new FunctionAppRegistry();
    const api = createCoreApi(registry, () => undefined);
    const model = { name: 'm', version: '1', getInvocationModel: jest.fn() };
    api.setProgrammingModel(model);
    api.registerFunction(metadata('x'), () => undefined);
    expect(api.getProgrammingModel()).toBe(model);
    expect(registry.functions()).toHaveLength(1);
    expect(typeof api.log).toBe('function');
  });
});

/** A programming model that passes the trigger's string through and returns the result as JSON. */
function echoModel(seen: CoreInvocationContext[]): ProgrammingModel {
  return {
    name: 'echo',
    version: '1',
    getInvocationModel(ctx) {
      seen.push(ctx);
      return {
        getArguments: async () => ({
          context: { id: ctx.invocationId },
          inputs: [ctx.request.inputData?.[0]?.data?.string],
        }),
        invokeFunction: async (context, inputs, callback: FunctionCallback) =>
          callback(...inputs, context),
        getResponse: async (_context, result) => ({
          invocationId: ctx.invocationId,
          returnValue: { json: JSON.stringify(result) },
        }),
      };
    },
  };
}

describe('invocation', () => {
  const logger = createLogger({ level: 'none' });
  const request = { inputData: [{ name: 'trigger', data: { string: 'in' } }] };

  test('runs the handler through the model, with pre-invocation hooks able to replace inputs and handler', async () => {
    const registry = new FunctionAppRegistry();
    const seen: CoreInvocationContext[] = [];
    registry.programmingModel = echoModel(seen);
    registry.registerFunction(metadata('f'), (input) => `handled ${String(input)}`);
    registry.registerHook('preInvocation', (ctx: HookContext) => {
      ctx.inputs = ['replaced'];
    });
    const post: unknown[] = [];
    registry.registerHook('postInvocation', (ctx: HookContext) => {
      post.push(ctx.result);
    });

    const response = await createInvoker(registry, logger).invoke(
      registry.functions()[0]!,
      request,
      { reason: 'test' },
    );

    expect(response.returnValue).toEqual({ json: '"handled replaced"' });
    expect(post).toEqual(['handled replaced']);
    expect(seen[0]!.metadata.name).toBe('f');
    expect(seen[0]!.request.functionId).toBe('f');
    expect(seen[0]!.invocationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a handler error reaches post-invocation hooks, then the caller', async () => {
    const registry = new FunctionAppRegistry();
    registry.programmingModel = echoModel([]);
    registry.registerFunction(metadata('f'), () => {
      throw new Error('boom');
    });
    const errors: unknown[] = [];
    registry.registerHook('postInvocation', (ctx: HookContext) => {
      errors.push(ctx.error);
    });
    await expect(
      createInvoker(registry, logger).invoke(registry.functions()[0]!, request, { reason: 'test' }),
    ).rejects.toThrow('boom');
    expect(errors).toEqual([new Error('boom')]);
  });

  test('functionTimeout fails an invocation that runs too long', async () => {
    const registry = new FunctionAppRegistry();
    registry.programmingModel = echoModel([]);
    registry.registerFunction(metadata('slow'), () => new Promise((r) => setTimeout(r, 1_000)));
    const invoker = createInvoker(registry, logger, { functionTimeoutMs: 50 });
    await expect(
      invoker.invoke(registry.functions()[0]!, request, { reason: 'test' }),
    ).rejects.toThrow(new FunctionTimeoutError('slow', 50));
  });

  test('context logs go through log hooks, which may rewrite them', async () => {
    const lines: string[] = [];
    const registry = new FunctionAppRegistry();
    registry.programmingModel = {
      ...echoModel([]),
      getInvocationModel(ctx) {
        return {
          getArguments: async () => ({ context: {}, inputs: [] }),
          invokeFunction: async () => ctx.log('information', 'user', 'secret=abc'),
          getResponse: async () => ({}),
        };
      },
    };
    registry.registerFunction(metadata('logs'), () => undefined);
    registry.registerHook('log', (ctx: HookContext) => {
      ctx.message = String(ctx.message).replace(/secret=\w+/, 'secret=***');
    });
    const capture = createLogger({
      level: 'information',
      stdout: (line) => lines.push(line),
      stderr: (line) => lines.push(line),
    });
    await createInvoker(registry, capture).invoke(registry.functions()[0]!, request, {
      reason: 'test',
    });
    expect(lines.some((line) => line.endsWith('[logs] secret=***'))).toBe(true);
    expect(lines.some((line) => line.includes('secret=abc'))).toBe(false);
  });
});
