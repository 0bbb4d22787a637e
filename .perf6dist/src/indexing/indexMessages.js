"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseIndexUpdateMessage = parseIndexUpdateMessage;
exports.packIndexChanges = packIndexChanges;
/**
 * `index-updates` queue messages: a batch of committed (or about-to-be-committed) employee changes.
 *
 * Receivers never trust a message for the new state; they re-read the primary entities. A message
 * only says *which* employees to look at, plus the email and last name they had before, so a
 * worker can find entries the change may have orphaned.
 */
const zod_1 = require("zod");
const keys_1 = require("../storage/keys");
const queue_1 = require("../storage/queue");
const changeSchema = zod_1.z.object({
    department: zod_1.z.string().refine(keys_1.isDepartmentName),
    employeeId: zod_1.z.string().refine(keys_1.isEmployeeId),
    previous: zod_1.z
        .object({ email: zod_1.z.string().max(1024).optional(), lastName: zod_1.z.string().max(1024).optional() })
        .optional(),
    reason: zod_1.z.enum(['created', 'updated', 'deleted', 'imported', 'archived', 'moved', 'announced']),
});
const messageSchema = zod_1.z.object({ v: zod_1.z.literal(1), changes: zod_1.z.array(changeSchema).min(1) });
/**
 * Reads a message payload (already decoded from base64 JSON by the trigger).
 *
 * @throws {Error} naming the problem when the payload is not an index-updates message.
 */
function parseIndexUpdateMessage(payload) {
    const parsed = messageSchema.safeParse(payload);
    if (!parsed.success) {
        throw new Error(`Not an index-updates message: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    return parsed.data;
}
/**
 * Splits changes into as few messages as fit the 64 KiB queue limit after base64 encoding
 * (an import of 1,000 employees becomes a handful of messages, not 1,000).
 *
 * @param maxBytes - encoded size limit per message (tests pass a small one).
 * @throws {Error} when a single change alone does not fit (it cannot: fields are bounded).
 */
function packIndexChanges(changes, maxBytes = queue_1.MAX_QUEUE_MESSAGE_BYTES) {
    const messages = [];
    // base64(JSON) grows by 4/3; the JSON is the wrapper plus the items joined by commas.
    const wrapperBytes = Buffer.byteLength(JSON.stringify({ v: 1, changes: [] }));
    const encodedSize = (jsonBytes) => Math.ceil(jsonBytes / 3) * 4;
    let current = [];
    let currentJsonBytes = wrapperBytes;
    for (const change of changes) {
        const itemBytes = Buffer.byteLength(JSON.stringify(change));
        if (encodedSize(wrapperBytes + itemBytes) > maxBytes) {
            throw new Error('One index change is larger than a message.');
        }
        const separator = current.length > 0 ? 1 : 0;
        if (current.length > 0 && encodedSize(currentJsonBytes + separator + itemBytes) > maxBytes) {
            messages.push({ v: 1, changes: current });
            current = [];
            currentJsonBytes = wrapperBytes;
        }
        currentJsonBytes += (current.length > 0 ? 1 : 0) + itemBytes;
        current.push(change);
    }
    if (current.length > 0)
        messages.push({ v: 1, changes: current });
    return messages;
}
//# sourceMappingURL=indexMessages.js.map