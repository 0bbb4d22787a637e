/**
 * How a queue message reaches a function: its text decoded per host.json `messageEncoding`, and
 * the trigger metadata the Functions host sends with it (`DequeueCount`, `Id`, `InsertionTime`,
 * ...; the library camel-cases the names). Dates and numbers travel as JSON, strings as strings,
 * as the host's RPC conversion does.
 */
import { randomUUID } from 'node:crypto';
import type { MessageEncoding } from '../config/hostJson';
import type { RpcTypedData } from '../core/types';

/** The fields of a received message that the trigger uses. */
export interface QueueMessageFields {
  messageId: string;
  popReceipt: string;
  messageText: string;
  dequeueCount: number;
  insertedOn?: Date;
  expiresOn?: Date;
  nextVisibleOn?: Date;
}

/** A decoded message text, or why it could not be decoded. */
export type DecodeResult = { ok: true; text: string } | { ok: false; reason: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes message text per the host's `messageEncoding`. */
export function decodeMessageText(messageText: string, encoding: MessageEncoding): DecodeResult {
  if (encoding === 'none') return { ok: true, text: messageText };
  const compact = messageText.replace(/\s+/g, '');
  if (!BASE64.test(compact)) {
    return {
      ok: false,
      reason:
        'Message decoding has failed: the message is not base64, which host.json extensions.queues.messageEncoding expects.',
    };
  }
  return { ok: true, text: Buffer.from(compact, 'base64').toString('utf8') };
}

/** Encodes message text per the host's `messageEncoding` (queue output bindings). */
export function encodeMessageText(content: string | Buffer, encoding: MessageEncoding): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return encoding === 'base64' ? bytes.toString('base64') : bytes.toString('utf8');
}

/** A date as .NET's JSON serializer writes a UTC `DateTimeOffset`. */
export function dotNetDate(date: Date): string {
  return date
    .toISOString()
    .replace(/\.000Z$/, 'Z')
    .replace(/Z$/, '+00:00');
}

function jsonDate(date: Date | undefined): RpcTypedData {
  return date ? { json: JSON.stringify(dotNetDate(date)) } : { json: 'null' };
}

/** The `sys` metadata the host adds to every trigger. */
export function systemMetadata(functionName: string, now: Date): RpcTypedData {
  return {
    json: JSON.stringify({
      MethodName: functionName,
      UtcNow: dotNetDate(now),
      RandGuid: randomUUID(),
    }),
  };
}

/**
 * The top-level properties of a JSON object message, as the host adds them to the binding data
 * (they serve binding expressions such as `{name}`); undefined for any other text.
 */
function payloadProperties(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Trigger metadata of one queue message, keyed as the host names it. A JSON object message's
 * top-level properties are merged in after the host's own names and win over them, ignoring case
 * as the host's binding data does: a payload property `id` or `dequeueCount` hides the message's
 * (so payloads must avoid those names; docs/local-host.md).
 */
export function queueTriggerMetadata(
  message: QueueMessageFields,
  text: string,
  functionName: string,
  now: Date = new Date(),
): Record<string, RpcTypedData> {
  const metadata: Record<string, RpcTypedData> = {
    QueueTrigger: { string: text },
    DequeueCount: { json: String(message.dequeueCount) },
    Id: { string: message.messageId },
    PopReceipt: { string: message.popReceipt },
    InsertionTime: jsonDate(message.insertedOn),
    ExpirationTime: jsonDate(message.expiresOn),
    NextVisibleTime: jsonDate(message.nextVisibleOn),
    sys: systemMetadata(functionName, now),
  };
  for (const [name, value] of Object.entries(payloadProperties(text) ?? {})) {
    for (const key of Object.keys(metadata)) {
      if (key.toLowerCase() === name.toLowerCase()) delete metadata[key];
    }
    metadata[name] =
      typeof value === 'string' ? { string: value } : { json: JSON.stringify(value) };
  }
  return metadata;
}

/**
 * Messages to enqueue for a queue output binding's value: an array becomes one message per
 * element, strings are sent as they are, anything else as JSON.
 */
export function outputMessages(data: RpcTypedData): Array<string | Buffer> {
  if (typeof data.string === 'string') return [data.string];
  if (data.bytes) return [Buffer.from(data.bytes)];
  if (typeof data.int === 'number' || typeof data.double === 'number')
    return [String(data.int ?? data.double)];
  if (data.collectionString?.string) return [...data.collectionString.string];
  if (data.collectionBytes?.bytes) return data.collectionBytes.bytes.map((b) => Buffer.from(b));
  if (typeof data.json === 'string') {
    const value: unknown = JSON.parse(data.json);
    if (Array.isArray(value))
      return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
    return [data.json];
  }
  return [];
}
