/**
 * Seams for bindings beyond the trigger. An input provider supplies the value of an extra input
 * binding (a durable driver would provide `durableClient` here); an output handler delivers the
 * value a function set on an output binding (the host ships one for storage queues). HTTP
 * outputs are written by the HTTP trigger itself.
 */
import type { RpcTypedData } from '../core/types';
import type { HostFunction, NamedBinding } from '../functions';

/** Supplies the value of one input binding for an invocation. */
export interface InputBindingProvider {
  /** Binding type, lower-cased (`durableclient`). */
  readonly type: string;
  /** Checks the binding at startup; throws with a message naming the problem. */
  prepare?(fn: HostFunction, input: NamedBinding): void;
  /** The value for one invocation. */
  provide(fn: HostFunction, input: NamedBinding): Promise<RpcTypedData | undefined>;
}

/** Handles what a function wrote to one output binding. */
export interface OutputBindingHandler {
  /** Binding type, lower-cased (`queue`). */
  readonly type: string;
  /** Checks the binding at startup; throws with a message naming the problem. */
  prepare?(fn: HostFunction, output: NamedBinding): void;
  /** Delivers the value a function set; a failure fails the invocation, as in Azure. */
  deliver(fn: HostFunction, output: NamedBinding, value: RpcTypedData): Promise<void>;
}

/** Binding types the trigger drivers handle themselves. */
export const TRIGGER_OWNED_OUTPUTS = new Set(['http']);

/** The binding type of `binding`, lower case (e.g. `queue`, `httptrigger`). */
export function bindingType(binding: NamedBinding): string {
  return String(binding.binding.type ?? '').toLowerCase();
}
