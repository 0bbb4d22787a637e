/**
 * The slice of the `@azure/functions-core` contract that `@azure/functions` (and
 * `durable-functions` through it) uses. In Azure the Node.js worker supplies this module; the
 * local host supplies it instead (see `coreModule.ts`). Field names and shapes follow the
 * worker's published types, which mirror the host's gRPC messages.
 */

export type RpcLogLevel =
  'trace' | 'debug' | 'information' | 'warning' | 'error' | 'critical' | 'none';
/** The category of an RPC log line. */
export type RpcLogCategory = 'user' | 'system' | 'customMetric';

/** An RPC string that may be null. */
export interface RpcNullableString {
  value?: string | null;
}

/** An RPC timestamp (seconds and nanoseconds). */
export interface RpcTimestamp {
  seconds?: number | null;
  nanos?: number | null;
}

/** The SameSite policy of an RPC cookie. */
export type RpcHttpCookieSameSite = 'none' | 'lax' | 'strict' | 'explicitNone';

/** A cookie of an RPC HTTP response. */
export interface RpcHttpCookie {
  name?: string | null;
  value?: string | null;
  domain?: RpcNullableString | null;
  path?: RpcNullableString | null;
  expires?: { value?: RpcTimestamp | null } | null;
  secure?: { value?: boolean | null } | null;
  httpOnly?: { value?: boolean | null } | null;
  sameSite?: RpcHttpCookieSameSite | null;
  maxAge?: { value?: number | null } | null;
}

/** An HTTP request or response as the RPC protocol carries it. */
export interface RpcHttpData {
  method?: string | null;
  url?: string | null;
  headers?: Record<string, string> | null;
  body?: RpcTypedData | null;
  params?: Record<string, string> | null;
  statusCode?: string | null;
  query?: Record<string, string> | null;
  enableContentNegotiation?: boolean | null;
  rawBody?: RpcTypedData | null;
  cookies?: RpcHttpCookie[] | null;
  nullableHeaders?: Record<string, RpcNullableString> | null;
  nullableParams?: Record<string, RpcNullableString> | null;
  nullableQuery?: Record<string, RpcNullableString> | null;
}

/** One value crossing the host/worker boundary; exactly one field is set. */
export interface RpcTypedData {
  string?: string | null;
  json?: string | null;
  bytes?: Uint8Array | null;
  stream?: Uint8Array | null;
  http?: RpcHttpData | null;
  int?: number | null;
  double?: number | null;
  collectionBytes?: { bytes?: Uint8Array[] | null } | null;
  collectionString?: { string?: string[] | null } | null;
  collectionDouble?: { double?: number[] | null } | null;
  collectionSint64?: { sint64?: number[] | null } | null;
}

/** The direction of an RPC binding. */
export type RpcBindingDirection = 'in' | 'out' | 'inout';

/** A binding as registered: `type` and `direction` plus the binding's own options. */
export interface RpcBindingInfo {
  type?: string | null;
  direction?: RpcBindingDirection | null;
  dataType?: 'undefined' | 'string' | 'binary' | 'stream' | null;
  [option: string]: unknown;
}

/** An RPC duration (seconds and nanoseconds). */
export interface RpcDuration {
  seconds?: number | null;
  nanos?: number | null;
}

/** The retry options a function declares. */
export interface RpcRetryOptions {
  maxRetryCount?: number | null;
  delayInterval?: RpcDuration | null;
  minimumInterval?: RpcDuration | null;
  maximumInterval?: RpcDuration | null;
  retryStrategy?: 'exponentialBackoff' | 'fixedDelay' | null;
}

/** What the app declared about one function: its name, bindings and retry. */
export interface FunctionMetadata {
  name: string;
  functionId?: string;
  bindings: Record<string, RpcBindingInfo>;
  retryOptions?: RpcRetryOptions;
}

/** A named value passed to or returned from an invocation. */
export interface RpcParameterBinding {
  name?: string | null;
  data?: RpcTypedData | null;
}

/** An exception as the RPC protocol carries it. */
export interface RpcException {
  source?: string | null;
  stackTrace?: string | null;
  message?: string | null;
}

/** One invocation request: the function, its trigger and input values. */
export interface RpcInvocationRequest {
  invocationId?: string | null;
  functionId?: string | null;
  inputData?: RpcParameterBinding[] | null;
  triggerMetadata?: Record<string, RpcTypedData> | null;
  traceContext?: {
    traceParent?: string | null;
    traceState?: string | null;
    attributes?: Record<string, string> | null;
  } | null;
  retryContext?: {
    retryCount?: number | null;
    maxRetryCount?: number | null;
    exception?: RpcException | null;
  } | null;
}

/** The answer to one invocation: its outputs, return value and result. */
export interface RpcInvocationResponse {
  invocationId?: string | null;
  outputData?: RpcParameterBinding[] | null;
  returnValue?: RpcTypedData | null;
}

/** Where an invocation is when a hook or the function runs. */
export type InvocationState = 'preInvocationHooks' | 'postInvocationHooks' | 'invocation';

/** What the host hands the programming model for one invocation. */
export interface CoreInvocationContext {
  invocationId: string;
  request: RpcInvocationRequest;
  metadata: FunctionMetadata;
  state?: InvocationState;
  log(level: RpcLogLevel, category: RpcLogCategory, message: string): void;
}

/** The arguments the programming model passes to a function. */
export interface InvocationArguments {
  context: unknown;
  inputs: unknown[];
}

/** A function callback as registered. */
export type FunctionCallback = (...args: unknown[]) => unknown;

/** The library's per-invocation conversion code: RPC data in, handler call, RPC data out. */
export interface InvocationModel {
  getArguments(): Promise<InvocationArguments>;
  invokeFunction(context: unknown, inputs: unknown[], callback: FunctionCallback): Promise<unknown>;
  getResponse(context: unknown, result: unknown): Promise<RpcInvocationResponse>;
}

/** The programming model the app registers (its name, version and invocation handling). */
export interface ProgrammingModel {
  name: string;
  version: string;
  getInvocationModel(
    coreContext: CoreInvocationContext,
  ): InvocationModel | Promise<InvocationModel>;
  getCapabilities?(
    defaultCapabilities: Record<string, string>,
  ): Record<string, string> | Promise<Record<string, string>>;
}

/** The hooks the programming model may register. */
export type HookName = 'appStart' | 'appTerminate' | 'preInvocation' | 'postInvocation' | 'log';

/** Data a hook shares between its calls. */
export type HookData = Record<string, unknown>;

/** The object a hook callback receives; the library wraps it in its own context classes. */
export type HookContext = { readonly hookData: HookData; readonly appHookData: HookData } & Record<
  string,
  unknown
>;

/** A registered hook. */
export type HookCallback = (context: HookContext) => void | Promise<void>;
