"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RESERVED_FIELDS = void 0;
exports.isWellFormedText = isWellFormedText;
exports.parseLogBatch = parseLogBatch;
exports.toApiEntry = toApiEntry;
/**
 * A log entry as the API accepts and returns it, and the validation of a whole `POST /logs` batch:
 * every entry is checked before anything is stored, and the first bad one is named by index and
 * field.
 */
const zod_1 = require("zod");
const errors_1 = require("../errors");
const keys_1 = require("../storage/keys");
const levels_1 = require("./levels");
/** Field names with a meaning of their own; every other field of an entry is kept as extra data. */
exports.RESERVED_FIELDS = ['at', 'level', 'message'];
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** True when the text encodes to UTF-8 and back unchanged (no lone UTF-16 surrogates). */
function isWellFormedText(text) {
    return !LONE_SURROGATE.test(text);
}
const entrySchema = zod_1.z
    .object({
    at: zod_1.z.iso
        .datetime({
        offset: true,
        error: 'must be an ISO 8601 time with Z or an offset, e.g. 2026-11-22T15:04:05.123Z',
    })
        .refine((value) => {
        const ms = Date.parse(value);
        return ms >= keys_1.MIN_STORABLE_DATE.getTime() && ms <= keys_1.MAX_STORABLE_DATE.getTime();
    }, 'must be between 1601-01-01 and 9999-12-31 UTC'),
    level: zod_1.z.enum(levels_1.LOG_LEVELS, { error: `must be one of ${levels_1.LOG_LEVELS.join(', ')}` }),
    message: zod_1.z
        .string({ error: 'must be a string' })
        .refine(isWellFormedText, 'must be valid Unicode text (it holds a lone surrogate)'),
})
    .catchall(zod_1.z.unknown());
const envelopeSchema = zod_1.z.object({
    source: zod_1.z
        .string({ error: 'must be a string' })
        .refine(keys_1.isLogSource, 'must be 1-63 lowercase letters, digits or "-", starting with a letter or digit'),
    entries: zod_1.z
        .array(zod_1.z.unknown(), { error: 'must be an array of log entries' })
        .min(1, 'must hold at least one entry'),
});
function issueError(issues, base) {
    const issue = issues[0];
    const path = issue?.path ?? [];
    let target = base;
    for (const segment of path) {
        target += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
    }
    return new errors_1.ValidationError(`${target}: ${issue?.message ?? 'invalid value'}.`, target, 'InvalidLogEntry');
}
/**
 * Validates a `POST /logs` body as a whole: nothing of a batch is accepted unless every entry is.
 *
 * @throws {TooLargeError} when the batch holds more than `maxBatchEntries` entries.
 * @throws {ValidationError} naming the first bad field, e.g. `body.entries[3].level`.
 */
function parseLogBatch(body, limits) {
    const envelope = envelopeSchema.safeParse(body);
    if (!envelope.success)
        throw issueError(envelope.error.issues, 'body');
    const { source, entries: rawEntries } = envelope.data;
    if (rawEntries.length > limits.maxBatchEntries) {
        throw new errors_1.TooLargeError(`The batch holds ${rawEntries.length} entries; at most ${limits.maxBatchEntries} are accepted per request.`, 'TooManyLogEntries');
    }
    const entries = rawEntries.map((raw, index) => {
        const parsed = entrySchema.safeParse(raw);
        if (!parsed.success)
            throw issueError(parsed.error.issues, `body.entries[${index}]`);
        // Extra fields come from the input object itself: Object.fromEntries defines each key as an own
        // property, so even a key named "__proto__" is kept as data.
        const extra = Object.fromEntries(Object.entries(raw).filter(([key]) => !exports.RESERVED_FIELDS.includes(key)));
        return {
            at: new Date(Date.parse(parsed.data.at)),
            level: parsed.data.level,
            message: parsed.data.message,
            extra,
        };
    });
    return { source, entries };
}
/** The API's JSON form of an entry: `at` (ISO UTC with milliseconds), `level`, `message`, extras. */
function toApiEntry(entry) {
    return Object.fromEntries([
        ['at', entry.at.toISOString()],
        ['level', entry.level],
        ['message', entry.message],
        ...Object.entries(entry.extra),
    ]);
}
//# sourceMappingURL=entry.js.map