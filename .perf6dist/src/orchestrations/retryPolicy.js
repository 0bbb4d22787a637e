"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_PARALLEL_ACTIVITIES = void 0;
exports.activityRetryOptions = activityRetryOptions;
exports.chunk = chunk;
/**
 * How orchestrators retry activities that throw (transient storage faults that outlasted the
 * SDK's own retries, a host crash mid-activity is replayed by the runtime, not here).
 */
const df = __importStar(require("durable-functions"));
/** First retry after 1 s, doubling up to 30 s, at most 6 attempts. */
function activityRetryOptions() {
    const options = new df.RetryOptions(1_000, 6);
    options.backoffCoefficient = 2;
    options.maxRetryIntervalInMilliseconds = 30_000;
    return options;
}
/** Most activities one orchestrator runs at the same time in a fan-out. */
exports.MAX_PARALLEL_ACTIVITIES = 10;
/** Splits `items` into consecutive chunks of at most `size` (pure). */
function chunk(items, size) {
    if (!Number.isInteger(size) || size < 1)
        throw new RangeError('chunk size must be ≥ 1');
    const chunks = [];
    for (let i = 0; i < items.length; i += size)
        chunks.push(items.slice(i, i + size));
    return chunks;
}
//# sourceMappingURL=retryPolicy.js.map