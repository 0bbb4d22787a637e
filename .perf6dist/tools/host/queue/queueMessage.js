"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.decodeMessageText = decodeMessageText;
exports.encodeMessageText = encodeMessageText;
exports.dotNetDate = dotNetDate;
exports.systemMetadata = systemMetadata;
exports.queueTriggerMetadata = queueTriggerMetadata;
exports.outputMessages = outputMessages;
/**
 * How a queue message reaches a function: its text decoded per host.json `messageEncoding`, and
 * the trigger metadata the Functions host sends with it (`DequeueCount`, `Id`, `InsertionTime`,
 * ...; the library camel-cases the names). Dates and numbers travel as JSON, strings as strings,
 * as the host's RPC conversion does.
 */
const node_crypto_1 = require("node:crypto");
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Decodes message text per the host's `messageEncoding`. */
function decodeMessageText(messageText, encoding) {
    if (encoding === 'none')
        return { ok: true, text: messageText };
    const compact = messageText.replace(/\s+/g, '');
    if (!BASE64.test(compact)) {
        return {
            ok: false,
            reason: 'Message decoding has failed: the message is not base64, which host.json extensions.queues.messageEncoding expects.',
        };
    }
    return { ok: true, text: Buffer.from(compact, 'base64').toString('utf8') };
}
/** Encodes message text per the host's `messageEncoding` (queue output bindings). */
function encodeMessageText(content, encoding) {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    return encoding === 'base64' ? bytes.toString('base64') : bytes.toString('utf8');
}
/** A date as .NET's JSON serializer writes a UTC `DateTimeOffset`. */
function dotNetDate(date) {
    return date
        .toISOString()
        .replace(/\.000Z$/, 'Z')
        .replace(/Z$/, '+00:00');
}
function jsonDate(date) {
    return date ? { json: JSON.stringify(dotNetDate(date)) } : { json: 'null' };
}
/** The `sys` metadata the host adds to every trigger. */
function systemMetadata(functionName, now) {
    return {
        json: JSON.stringify({
            MethodName: functionName,
            UtcNow: dotNetDate(now),
            RandGuid: (0, node_crypto_1.randomUUID)(),
        }),
    };
}
/** Trigger metadata of one queue message, keyed as the host names it. */
function queueTriggerMetadata(message, text, functionName, now = new Date()) {
    return {
        QueueTrigger: { string: text },
        DequeueCount: { json: String(message.dequeueCount) },
        Id: { string: message.messageId },
        PopReceipt: { string: message.popReceipt },
        InsertionTime: jsonDate(message.insertedOn),
        ExpirationTime: jsonDate(message.expiresOn),
        NextVisibleTime: jsonDate(message.nextVisibleOn),
        sys: systemMetadata(functionName, now),
    };
}
/**
 * Messages to enqueue for a queue output binding's value: an array becomes one message per
 * element, strings are sent as they are, anything else as JSON.
 */
function outputMessages(data) {
    if (typeof data.string === 'string')
        return [data.string];
    if (data.bytes)
        return [Buffer.from(data.bytes)];
    if (typeof data.int === 'number' || typeof data.double === 'number')
        return [String(data.int ?? data.double)];
    if (data.collectionString?.string)
        return [...data.collectionString.string];
    if (data.collectionBytes?.bytes)
        return data.collectionBytes.bytes.map((b) => Buffer.from(b));
    if (typeof data.json === 'string') {
        const value = JSON.parse(data.json);
        if (Array.isArray(value))
            return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
        return [data.json];
    }
    return [];
}
//# sourceMappingURL=queueMessage.js.map