/**
 * Runs a function for a trigger: adds the values of its extra input bindings, invokes it through
 * the app's programming model, then delivers its output bindings. Trigger drivers call this;
 * they only decide when a function runs and what its trigger value is.
 */
import type { InputBindingProvider, OutputBindingHandler } from './bindings/bindings';
import { bindingType, TRIGGER_OWNED_OUTPUTS } from './bindings/bindings';
import type { Invoker } from './core/invoke';
import type { RpcInvocationResponse, RpcParameterBinding, RpcTypedData } from './core/types';
import { RETURN_BINDING, type HostFunction, type NamedBinding } from './functions';

/** The trigger value of one invocation and its metadata. */
export interface TriggerValue {
  /** The trigger binding's value (`http`, `string`, `json`, ...). */
  data: RpcTypedData;
  /** Trigger metadata as the host names it (`DequeueCount`, ...). */
  metadata?: Record<string, RpcTypedData>;
  /** Why the function runs, for the log. */
  reason: string;
}

/** Runs functions through the invoker with their input and output bindings. */
export class FunctionRunner {
  readonly #inputs: Map<string, InputBindingProvider>;
  readonly #outputs: Map<string, OutputBindingHandler>;

  constructor(
    private readonly invoker: Invoker,
    inputs: InputBindingProvider[],
    outputs: OutputBindingHandler[],
  ) {
    this.#inputs = new Map(inputs.map((p) => [p.type, p]));
    this.#outputs = new Map(outputs.map((h) => [h.type, h]));
  }

  /** Adds a provider of extra input bindings (replacing one of the same type). */
  addInputProvider(provider: InputBindingProvider): void {
    this.#inputs.set(provider.type, provider);
  }

  /**
   * Checks a function's extra bindings at startup.
   *
   * @returns warnings for bindings the host cannot serve (they fail only when used).
   * @throws {Error} when a supported binding is misconfigured.
   */
  prepare(fn: HostFunction): string[] {
    const warnings: string[] = [];
    for (const input of fn.extraInputs) {
      const provider = this.#inputs.get(bindingType(input));
      if (provider) provider.prepare?.(fn, input);
      else
        warnings.push(
          `Function '${fn.name}': input binding '${input.name}' (${input.binding.type}) is not supported by the local host; invocations will fail.`,
        );
    }
    for (const output of fn.outputs) {
      const type = bindingType(output);
      if (TRIGGER_OWNED_OUTPUTS.has(type)) continue;
      const handler = this.#outputs.get(type);
      if (handler) handler.prepare?.(fn, output);
      else
        warnings.push(
          `Function '${fn.name}': output binding '${output.name}' (${output.binding.type}) is not supported by the local host; setting it fails the invocation.`,
        );
    }
    return warnings;
  }

  /**
   * Invokes a function and delivers its outputs.
   *
   * @returns the RPC response (HTTP drivers read their response from it).
   * @throws what the handler threw, or an error delivering an output.
   */
  async run(fn: HostFunction, trigger: TriggerValue): Promise<RpcInvocationResponse> {
    const inputData: RpcParameterBinding[] = [{ name: fn.trigger.name, data: trigger.data }];
    for (const input of fn.extraInputs) {
      const provider = this.#inputs.get(bindingType(input));
      if (!provider) {
        throw new Error(
          `Function '${fn.name}': the local host cannot supply input binding '${input.name}' of type '${input.binding.type}'.`,
        );
      }
      const data = await provider.provide(fn, input);
      if (data) inputData.push({ name: input.name, data });
    }

    const response = await this.invoker.invoke(
      fn.registration,
      { inputData, triggerMetadata: trigger.metadata ?? {} },
      { reason: trigger.reason },
    );

    for (const output of fn.outputs) {
      const type = bindingType(output);
      if (TRIGGER_OWNED_OUTPUTS.has(type)) continue;
      const value = outputValue(response, output);
      if (value === undefined) continue;
      const handler = this.#outputs.get(type);
      if (!handler) {
        throw new Error(
          `Function '${fn.name}' set output binding '${output.name}' of type '${output.binding.type}', which the local host does not support.`,
        );
      }
      await handler.deliver(fn, output, value);
    }
    return response;
  }
}

/** The value a function set on an output binding, if any. */
export function outputValue(
  response: RpcInvocationResponse,
  output: NamedBinding,
): RpcTypedData | undefined {
  const data =
    output.name === RETURN_BINDING
      ? response.returnValue
      : response.outputData?.find((binding) => binding.name === output.name)?.data;
  return data === null || data === undefined || Object.keys(data).length === 0 ? undefined : data;
}
