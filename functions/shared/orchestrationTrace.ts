/**
 * One request, one trace, through an orchestration too: the HTTP request that starts an
 * orchestration puts its `traceparent` beside the orchestration's input, the orchestrator hands
 * it on with every activity it calls, and each activity runs in a span continuing that trace
 * (src/telemetry/tracing.ts). The orchestrators and activities in src/ never see the field: it is
 * added and removed here, so their inputs (and the replay histories the tests pin) keep their
 * shape. Inputs that are not plain objects travel untouched, without a trace.
 */
import type { OrchestrationContext, OrchestrationHandler } from 'durable-functions';
import { continueTrace, withTraceparent } from '../../src/telemetry/tracing';

const FIELD = 'traceparent';

type PlainObject = Record<string, unknown>;

const isPlainObject = (value: unknown): value is PlainObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The input without its `traceparent`, and the `traceparent` (when it is a string). */
function splitTraceparent(input: unknown): { input: unknown; traceparent?: string } {
  if (!isPlainObject(input) || !(FIELD in input)) return { input };
  const { [FIELD]: traceparent, ...rest } = input;
  return typeof traceparent === 'string' ? { input: rest, traceparent } : { input: rest };
}

/** `input` with `traceparent` beside its fields (unchanged when it is not a plain object). */
function joinTraceparent(input: unknown, traceparent: string | undefined): unknown {
  return traceparent !== undefined && isPlainObject(input)
    ? { ...input, [FIELD]: traceparent }
    : input;
}

/** An orchestration's input with the active span's `traceparent`, for `startNew`. */
export function tracedInput(input: unknown): unknown {
  return isPlainObject(input) ? withTraceparent(input) : input;
}

/**
 * The orchestrator, seeing its input without the `traceparent`, and handing the `traceparent` on
 * to every activity it calls. Deterministic: the field comes from the orchestration's own input.
 */
export function tracedOrchestrator(orchestrator: OrchestrationHandler): OrchestrationHandler {
  return function* (context: OrchestrationContext) {
    const { input, traceparent } = splitTraceparent(context.df.getInput());
    if (traceparent === undefined) return yield* orchestrator(context);
    const df = new Proxy(context.df, {
      get(target, property) {
        if (property === 'getInput') return () => input;
        if (property === 'callActivity') {
          return (name: string, activityInput?: unknown) =>
            target.callActivity(name, joinTraceparent(activityInput, traceparent));
        }
        if (property === 'continueAsNew') {
          // The next execution keeps the trace: the field rides along with the new input.
          return (newInput: unknown) =>
            target.continueAsNew(joinTraceparent(newInput, traceparent));
        }
        if (property === 'callActivityWithRetry') {
          return (name: string, retry: never, activityInput?: unknown) =>
            target.callActivityWithRetry(name, retry, joinTraceparent(activityInput, traceparent));
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const traced = new Proxy(context, {
      get: (target, property) =>
        property === 'df' ? df : (Reflect.get(target, property, target) as unknown),
    });
    return yield* orchestrator(traced);
  };
}

/**
 * Runs an activity's work on its input without the `traceparent`, in a span continuing the
 * orchestration's trace.
 *
 * @throws whatever `work` throws.
 */
export function inActivityTrace<T>(
  name: string,
  input: unknown,
  work: (input: unknown) => Promise<T>,
): Promise<T> {
  const split = splitTraceparent(input);
  return continueTrace(
    name,
    split.traceparent,
    { 'faas.trigger': 'other', 'durable.activity': name },
    () => work(split.input),
  );
}
