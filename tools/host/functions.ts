/**
 * A registered function as the host sees it: its trigger binding, its extra input bindings and
 * its output bindings, taken from the metadata the app registered.
 */
import type { RegisteredFunction } from './core/registry';
import type { RpcBindingInfo } from './core/types';

/** A binding with its name. */
export interface NamedBinding {
  name: string;
  binding: RpcBindingInfo;
}

/** One function of the app as the host runs it: its name, bindings and callback. */
export interface HostFunction {
  name: string;
  registration: RegisteredFunction;
  trigger: NamedBinding;
  /** The trigger's binding type, lower-cased (`httptrigger`, `queuetrigger`, ...). */
  triggerType: string;
  extraInputs: NamedBinding[];
  /** Output bindings, including `$return`. */
  outputs: NamedBinding[];
}

/** The name of the binding that carries a function's return value. */
export const RETURN_BINDING = '$return';

/** The binding-name trick of the library: trigger types all end in "Trigger". */
export function isTriggerType(type: string | null | undefined): boolean {
  return !!type && /trigger$/i.test(type);
}

/**
 * Splits a registration's bindings by role.
 *
 * @throws {Error} when the metadata has no trigger binding, or more than one.
 */
export function describeFunction(registration: RegisteredFunction): HostFunction {
  const name = registration.metadata.name;
  const entries = Object.entries(registration.metadata.bindings).map(([bindingName, binding]) => ({
    name: bindingName,
    binding,
  }));
  const triggers = entries.filter((entry) => isTriggerType(entry.binding.type));
  if (triggers.length !== 1) {
    throw new Error(
      `Function '${name}' must have exactly one trigger binding, found ${triggers.length}.`,
    );
  }
  const trigger = triggers[0]!;
  return {
    name,
    registration,
    trigger,
    triggerType: String(trigger.binding.type).toLowerCase(),
    extraInputs: entries.filter((entry) => entry !== trigger && entry.binding.direction === 'in'),
    outputs: entries.filter(
      (entry) => entry.binding.direction === 'out' || entry.binding.direction === 'inout',
    ),
  };
}

/** A string option of a binding (`queueName`, `schedule`, ...), if it is one. */
export function stringOption(binding: RpcBindingInfo, option: string): string | undefined {
  const value = binding[option];
  return typeof value === 'string' ? value : undefined;
}
