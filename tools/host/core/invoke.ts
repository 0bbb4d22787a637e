/**
 * Runs one invocation the way the Node.js worker does: the app's programming model converts the
 * RPC request into handler arguments, `preInvocation` hooks run, the handler runs, then
 * `postInvocation` hooks, and the model converts the result back into an RPC response. The host
 * never converts arguments itself, so what runs here is the library code that runs in Azure.
 */
import { randomUUID } from 'node:crypto';
import { describeError, type Logger } from '../log';
import { startInvocationSpan } from './invocationSpan';
import type { FunctionAppRegistry, RegisteredFunction } from './registry';
import type {
  CoreInvocationContext,
  HookContext,
  InvocationState,
  RpcInvocationRequest,
  RpcInvocationResponse,
  RpcLogCategory,
  RpcLogLevel,
} from './types';

/** The handler did not finish within host.json `functionTimeout`. */
export class FunctionTimeoutError extends Error {
  constructor(functionName: string, timeoutMs: number) {
    super(
      `Timeout value of ${formatDuration(timeoutMs)} was exceeded by function: Functions.${functionName}`,
    );
    this.name = 'FunctionTimeoutError';
  }
}

function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** What one invocation carries besides its trigger value. */
export interface InvokeOptions {
  /** Why the function runs, for the log line (`New queue message detected on 'x'.`). */
  reason: string;
}

/** Invokes registered functions as the Functions host would (hooks, bindings, result). */
export interface Invoker {
  /**
   * Invokes a registered function with an RPC-shaped request.
   *
   * @throws whatever the handler or a hook threw, or {@link FunctionTimeoutError}.
   */
  invoke(
    fn: RegisteredFunction,
    request: Omit<RpcInvocationRequest, 'invocationId' | 'functionId'>,
    options: InvokeOptions,
  ): Promise<RpcInvocationResponse>;
}

/** How to build an {@link Invoker}. */
export interface InvokerOptions {
  /** host.json `functionTimeout`; undefined = unbounded. */
  functionTimeoutMs?: number;
}

class HostInvocationContext implements CoreInvocationContext {
  state?: InvocationState;
  /** The library's `InvocationContext`, once `getArguments` has built it (for log hooks). */
  invocationContext: unknown;

  constructor(
    readonly invocationId: string,
    readonly request: RpcInvocationRequest,
    readonly metadata: RegisteredFunction['metadata'],
    private readonly write: (
      ctx: HostInvocationContext,
      level: RpcLogLevel,
      category: RpcLogCategory,
      message: string,
    ) => void,
  ) {}

  log(level: RpcLogLevel, category: RpcLogCategory, message: string): void {
    this.write(this, level, category, message);
  }
}

/** What every invocation of one app uses: its registry, the host's log, host.json's timeout. */
interface InvokerHost {
  registry: FunctionAppRegistry;
  logger: Logger;
  options: InvokerOptions;
}

/** Creates the invoker for an app's registry. */
export function createInvoker(
  registry: FunctionAppRegistry,
  logger: Logger,
  options: InvokerOptions = {},
): Invoker {
  const host: InvokerHost = { registry, logger, options };
  return { invoke: (fn, request, invokeOptions) => invoke(host, fn, request, invokeOptions) };
}

/**
 * One invocation from the host's side: its ids and trace span, the start and end log lines; what
 * runs in between is the worker's part ({@link runInvocation}).
 */
async function invoke(
  host: InvokerHost,
  fn: RegisteredFunction,
  partialRequest: Omit<RpcInvocationRequest, 'invocationId' | 'functionId'>,
  invokeOptions: InvokeOptions,
): Promise<RpcInvocationResponse> {
  const { registry, logger } = host;
  const model = registry.programmingModel;
  if (!model) throw new Error('The app registered no programming model.');
  const invocationId = randomUUID();
  const name = fn.metadata.name;
  const request: RpcInvocationRequest = {
    ...partialRequest,
    invocationId,
    functionId: fn.metadata.functionId ?? name,
  };
  const span = startInvocationSpan(fn.metadata, request);
  request.traceContext = span.traceContext;
  const started = Date.now();
  // One line per invocation by default (its end); the start only with --verbose / debug.
  logger.log(
    'debug',
    name,
    `Executing 'Functions.${name}' (Reason='${invokeOptions.reason}', Id=${invocationId})`,
  );

  try {
    const ctx = new HostInvocationContext(invocationId, request, fn.metadata, (...line) =>
      writeLog(host, ...line),
    );
    const response = await runInvocation(host, model, ctx, fn);
    logger.log(
      'information',
      name,
      `Executed 'Functions.${name}' (Succeeded, Id=${invocationId}, Duration=${Date.now() - started}ms)`,
    );
    span.end();
    return response;
  } catch (error) {
    span.end(error);
    logger.log(
      'error',
      name,
      `Executed 'Functions.${name}' (Failed, Id=${invocationId}, Duration=${Date.now() - started}ms)\n${describeError(error)}`,
    );
    throw error;
  }
}

/**
 * The worker's part: the model converts the request into arguments, `preInvocation` hooks run,
 * the handler (bounded by `functionTimeout`), `postInvocation` hooks, and the model converts the
 * result back (a failure of the handler is thrown after the post hooks saw it).
 */
async function runInvocation(
  host: InvokerHost,
  model: NonNullable<FunctionAppRegistry['programmingModel']>,
  ctx: HostInvocationContext,
  fn: RegisteredFunction,
): Promise<RpcInvocationResponse> {
  const { registry } = host;
  const invocationModel = await model.getInvocationModel(ctx);
  const { context, inputs: initialInputs } = await invocationModel.getArguments();
  ctx.invocationContext = context;

  // The library wraps these objects in its hook context classes, whose setters write back
  // into them: a preInvocation hook may replace the inputs or the handler.
  const hookData = {};
  const pre: HookContext & { inputs: unknown[]; functionCallback: typeof fn.callback } = {
    hookData,
    appHookData: registry.appHookData,
    invocationContext: context,
    inputs: initialInputs,
    functionCallback: fn.callback,
  };
  await inState(ctx, 'preInvocationHooks', () => runHooks(registry, 'preInvocation', pre));

  const post: HookContext & { inputs: unknown[]; result: unknown; error: unknown } = {
    hookData,
    appHookData: registry.appHookData,
    invocationContext: context,
    inputs: pre.inputs,
    result: null,
    error: null,
  };
  try {
    post.result = await inState(ctx, 'invocation', () =>
      withTimeout(
        fn.metadata.name,
        invocationModel.invokeFunction(context, pre.inputs, pre.functionCallback),
        host.options.functionTimeoutMs,
      ),
    );
  } catch (error) {
    post.error = error;
  }

  await inState(ctx, 'postInvocationHooks', () => runHooks(registry, 'postInvocation', post));
  if (post.error !== null && post.error !== undefined) throw post.error;
  return invocationModel.getResponse(context, post.result);
}

/** Runs `work` with the invocation in `state` (what the library's log checks), then none. */
async function inState<T>(
  ctx: HostInvocationContext,
  state: InvocationState,
  work: () => Promise<T>,
): Promise<T> {
  ctx.state = state;
  try {
    return await work();
  } finally {
    ctx.state = undefined;
  }
}

async function runHooks(
  registry: FunctionAppRegistry,
  hookName: 'preInvocation' | 'postInvocation',
  context: HookContext,
): Promise<void> {
  for (const hook of registry.hooks(hookName)) await hook(context);
}

/** `work`, or {@link FunctionTimeoutError} once `timeoutMs` passes (undefined: unbounded). */
async function withTimeout<T>(
  name: string,
  work: Promise<T>,
  timeoutMs: number | undefined,
): Promise<T> {
  if (timeoutMs === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FunctionTimeoutError(name, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A log line of the app: through the `log` hooks, then to the host's log under the function. */
function writeLog(
  host: InvokerHost,
  ctx: HostInvocationContext,
  level: RpcLogLevel,
  category: RpcLogCategory,
  message: string,
): void {
  const final = runLogHooks(host, ctx, level, category, message);
  const source = category === 'user' ? ctx.metadata.name : `${ctx.metadata.name}:system`;
  host.logger.log(final.level, source, final.message);
}

/** The `log` hooks, which may change a line's level and message (a failing one is reported). */
function runLogHooks(
  { registry, logger }: InvokerHost,
  ctx: HostInvocationContext,
  level: RpcLogLevel,
  category: RpcLogCategory,
  message: string,
): { level: RpcLogLevel; message: string } {
  const hooks = registry.hooks('log');
  if (hooks.length === 0) return { level, message };
  const init: HookContext & { level: RpcLogLevel; message: string } = {
    hookData: {},
    appHookData: registry.appHookData,
    level,
    message,
    category,
    invocationContext: ctx.invocationContext,
  };
  for (const hook of hooks) {
    try {
      void hook(init);
    } catch (error) {
      logger.warn(`A log hook failed: ${describeError(error)}`);
    }
  }
  return { level: init.level, message: init.message };
}
