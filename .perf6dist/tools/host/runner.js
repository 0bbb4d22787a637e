"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FunctionRunner = void 0;
exports.outputValue = outputValue;
const bindings_1 = require("./bindings/bindings");
const functions_1 = require("./functions");
class FunctionRunner {
    invoker;
    #inputs;
    #outputs;
    constructor(invoker, inputs, outputs) {
        this.invoker = invoker;
        this.#inputs = new Map(inputs.map((p) => [p.type, p]));
        this.#outputs = new Map(outputs.map((h) => [h.type, h]));
    }
    /** Adds a provider of extra input bindings (replacing one of the same type). */
    addInputProvider(provider) {
        this.#inputs.set(provider.type, provider);
    }
    /**
     * Checks a function's extra bindings at startup.
     *
     * @returns warnings for bindings the host cannot serve (they fail only when used).
     * @throws {Error} when a supported binding is misconfigured.
     */
    prepare(fn) {
        const warnings = [];
        for (const input of fn.extraInputs) {
            const provider = this.#inputs.get((0, bindings_1.bindingType)(input));
            if (provider)
                provider.prepare?.(fn, input);
            else
                warnings.push(`Function '${fn.name}': input binding '${input.name}' (${input.binding.type}) is not supported by the local host; invocations will fail.`);
        }
        for (const output of fn.outputs) {
            const type = (0, bindings_1.bindingType)(output);
            if (bindings_1.TRIGGER_OWNED_OUTPUTS.has(type))
                continue;
            const handler = this.#outputs.get(type);
            if (handler)
                handler.prepare?.(fn, output);
            else
                warnings.push(`Function '${fn.name}': output binding '${output.name}' (${output.binding.type}) is not supported by the local host; setting it fails the invocation.`);
        }
        return warnings;
    }
    /**
     * Invokes a function and delivers its outputs.
     *
     * @returns the RPC response (HTTP drivers read their response from it).
     * @throws what the handler threw, or an error delivering an output.
     */
    async run(fn, trigger) {
        const inputData = [{ name: fn.trigger.name, data: trigger.data }];
        for (const input of fn.extraInputs) {
            const provider = this.#inputs.get((0, bindings_1.bindingType)(input));
            if (!provider) {
                throw new Error(`Function '${fn.name}': the local host cannot supply input binding '${input.name}' of type '${input.binding.type}'.`);
            }
            const data = await provider.provide(fn, input);
            if (data)
                inputData.push({ name: input.name, data });
        }
        const response = await this.invoker.invoke(fn.registration, { inputData, triggerMetadata: trigger.metadata ?? {} }, { reason: trigger.reason });
        for (const output of fn.outputs) {
            const type = (0, bindings_1.bindingType)(output);
            if (bindings_1.TRIGGER_OWNED_OUTPUTS.has(type))
                continue;
            const value = outputValue(response, output);
            if (value === undefined)
                continue;
            const handler = this.#outputs.get(type);
            if (!handler) {
                throw new Error(`Function '${fn.name}' set output binding '${output.name}' of type '${output.binding.type}', which the local host does not support.`);
            }
            await handler.deliver(fn, output, value);
        }
        return response;
    }
}
exports.FunctionRunner = FunctionRunner;
/** The value a function set on an output binding, if any. */
function outputValue(response, output) {
    const data = output.name === functions_1.RETURN_BINDING
        ? response.returnValue
        : response.outputData?.find((binding) => binding.name === output.name)?.data;
    return data === null || data === undefined || Object.keys(data).length === 0 ? undefined : data;
}
//# sourceMappingURL=runner.js.map