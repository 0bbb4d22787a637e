"use strict";
/**
 * The inline route constraints of ASP.NET Core routing (`{id:int}`, `{name:minlength(2)}`,
 * `{code:regex(^[a-z]{{2}}$)}`), which the Functions host uses for HTTP trigger routes.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.RouteConstraintError = void 0;
exports.createConstraint = createConstraint;
/** A constraint name the host cannot resolve, or bad constraint arguments. */
class RouteConstraintError extends Error {
    constructor(message) {
        super(message);
        this.name = 'RouteConstraintError';
    }
}
exports.RouteConstraintError = RouteConstraintError;
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const GUID = /^(?:[({]?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}[)}]?|[0-9a-f]{32})$/i;
const INT32 = { min: -(2n ** 31n), max: 2n ** 31n - 1n };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
function inRange(value, range) {
    if (!INTEGER.test(value))
        return false;
    const n = BigInt(value);
    return n >= range.min && n <= range.max;
}
function integerArgs(name, args, count) {
    if (!count.includes(args.length) || args.some((a) => !INTEGER.test(a.trim()))) {
        throw new RouteConstraintError(`The route constraint '${name}' needs ${count.join(' or ')} whole-number argument(s), got (${args.join(',')}).`);
    }
    return args.map((a) => BigInt(a.trim()));
}
function long(value) {
    return inRange(value, INT64) ? BigInt(value) : undefined;
}
/**
 * Builds a constraint from its name and raw argument text (`regex` keeps its argument whole).
 *
 * @throws {RouteConstraintError} for an unknown name or bad arguments.
 */
function createConstraint(name, rawArgs) {
    const text = rawArgs === undefined ? name : `${name}(${rawArgs})`;
    const args = rawArgs === undefined ? [] : rawArgs.split(',');
    const noArgs = (test) => {
        if (rawArgs !== undefined)
            throw new RouteConstraintError(`The route constraint '${name}' takes no arguments.`);
        return { text, test };
    };
    switch (name.toLowerCase()) {
        case 'int':
            return noArgs((v) => inRange(v, INT32));
        case 'long':
            return noArgs((v) => inRange(v, INT64));
        case 'bool':
            return noArgs((v) => /^(true|false)$/i.test(v));
        case 'datetime':
            return noArgs((v) => !Number.isNaN(Date.parse(v)));
        case 'decimal':
            return noArgs((v) => DECIMAL.test(v));
        case 'double':
        case 'float':
            return noArgs((v) => NUMBER.test(v) && Number.isFinite(Number(v)));
        case 'guid':
            return noArgs((v) => GUID.test(v));
        case 'alpha':
            return noArgs((v) => /^[a-z]*$/i.test(v));
        case 'required':
            return noArgs((v) => v !== '');
        case 'minlength': {
            const [min] = integerArgs(name, args, [1]);
            return { text, test: (v) => BigInt(v.length) >= min };
        }
        case 'maxlength': {
            const [max] = integerArgs(name, args, [1]);
            return { text, test: (v) => BigInt(v.length) <= max };
        }
        case 'length': {
            const [a, b] = integerArgs(name, args, [1, 2]);
            return b === undefined
                ? { text, test: (v) => BigInt(v.length) === a }
                : { text, test: (v) => BigInt(v.length) >= a && BigInt(v.length) <= b };
        }
        case 'min': {
            const [min] = integerArgs(name, args, [1]);
            return { text, test: (v) => (long(v) ?? min - 1n) >= min };
        }
        case 'max': {
            const [max] = integerArgs(name, args, [1]);
            return { text, test: (v) => (long(v) ?? max + 1n) <= max };
        }
        case 'range': {
            const [min, max] = integerArgs(name, args, [2]);
            return {
                text,
                test: (v) => {
                    const n = long(v);
                    return n !== undefined && n >= min && n <= max;
                },
            };
        }
        case 'regex': {
            if (rawArgs === undefined)
                throw new RouteConstraintError(`The route constraint 'regex' needs a pattern.`);
            let pattern;
            try {
                // ASP.NET evaluates regex constraints case-insensitively and unanchored.
                pattern = new RegExp(rawArgs, 'i');
            }
            catch (error) {
                throw new RouteConstraintError(`The route constraint '${text}' is not a valid regular expression: ${error.message}`);
            }
            return { text, test: (v) => pattern.test(v) };
        }
        default:
            throw new RouteConstraintError(`The constraint reference '${name}' could not be resolved.`);
    }
}
//# sourceMappingURL=routeConstraints.js.map