/**
 * The `log-batches` queue messages. A batch that fits one queue message (64 KiB after base64)
 * travels inline as one part; batches accepted at the same time share a message as a bundle of
 * such parts (ingest.ts). A larger one is split into parts that are staged together in one blob,
 * and the queue gets a small pointer to it (stagedBatch.ts). Either way each part is a unit of
 * work for the flusher and carries the batch id and its part index, which together tag every line
 * it delivers.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import {
  invalidLogMessage,
  lineTagMismatch,
  logEntryTooLarge,
  noLogMessageParts,
} from '../logErrors';
import { isLogSource, parseLogStagingBlobName } from '../../storage/keys/blobs/logBlobs';
import { MAX_QUEUE_MESSAGE_BYTES } from '../../storage/queue';
import { TRACEPARENT_FIELD_BYTES } from '../../telemetry/tracing';
import type { LogEntry } from '../entry';
import { batchPartTag, encodeLogLine, readLineHeader, type LineHeader } from '../format/lineFormat';

/** Version of the message payload. */
export const LOG_MESSAGE_VERSION = 1;

/** One queue message of `log-batches`. */
export interface LogBatchMessage {
  v: typeof LOG_MESSAGE_VERSION;
  batchId: string;
  /** Index of this part, from 0. */
  part: number;
  /** How many parts the batch was split into. */
  parts: number;
  source: string;
  /** The entries of this part as log lines (see lineFormat.ts), in submission order. */
  lines: string[];
}

/**
 * Largest JSON payload whose base64 form fits one queue message, with room for the optional
 * `traceparent` the sender adds (src/telemetry/tracing.ts).
 */
const MAX_MESSAGE_JSON_BYTES =
  Math.floor(MAX_QUEUE_MESSAGE_BYTES / 4) * 3 - TRACEPARENT_FIELD_BYTES;

/** Whole single-part batches sharing one queue message. */
export interface LogBatchBundle {
  v: typeof LOG_MESSAGE_VERSION;
  parts: (LogBatchMessage | CompressedLogBatchMessage)[];
}

/** Bytes the parts of one bundle may take together (see {@link logPartBytes}). */
export const BUNDLE_BUDGET_BYTES =
  MAX_MESSAGE_JSON_BYTES - Buffer.byteLength(JSON.stringify({ v: LOG_MESSAGE_VERSION, parts: [] }));

/** Bytes a part adds to a bundle: its JSON and the comma before it. */
export function logPartBytes(part: LogBatchMessage | CompressedLogBatchMessage): number {
  return Buffer.byteLength(JSON.stringify(part)) + 1;
}

/**
 * The queue payload carrying `parts`: a lone part as itself (it may use the whole message), two
 * or more as a bundle (their {@link logPartBytes} must fit {@link BUNDLE_BUDGET_BYTES}).
 */
export function logMessagePayload(
  parts: readonly (LogBatchMessage | CompressedLogBatchMessage)[],
): LogBatchMessage | CompressedLogBatchMessage | LogBatchBundle {
  if (parts.length === 0) throw noLogMessageParts();
  return parts.length === 1 ? parts[0]! : { v: LOG_MESSAGE_VERSION, parts: [...parts] };
}

/**
 * Formats a validated batch as queue messages, each under the queue's size limit.
 *
 * @throws {TooLargeError} when one entry alone does not fit in a queue message.
 */
export function splitIntoMessages(
  batchId: string,
  source: string,
  entries: readonly LogEntry[],
): LogBatchMessage[] {
  // Six-digit part numbers leave room for any realistic split.
  const envelopeBytes = Buffer.byteLength(
    JSON.stringify({
      v: LOG_MESSAGE_VERSION,
      batchId,
      part: 999_999,
      parts: 999_999,
      source,
      lines: [],
    }),
  );
  const budget = MAX_MESSAGE_JSON_BYTES - envelopeBytes;
  const messages: LogBatchMessage[] = [];
  let current: LogBatchMessage | undefined;
  let used = 0;
  entries.forEach((entry, index) => {
    if (current) {
      const line = encodeLogLine(entry, batchPartTag(batchId, current.part));
      // +1 for the comma between array items.
      const size = Buffer.byteLength(JSON.stringify(line)) + 1;
      if (used + size <= budget) {
        current.lines.push(line);
        used += size;
        return;
      }
    }
    current = {
      v: LOG_MESSAGE_VERSION,
      batchId,
      part: messages.length,
      parts: 0,
      source,
      lines: [],
    };
    messages.push(current);
    const line = encodeLogLine(entry, batchPartTag(batchId, current.part));
    const size = Buffer.byteLength(JSON.stringify(line)) + 1;
    if (size > budget) {
      throw logEntryTooLarge(index, size, budget);
    }
    current.lines.push(line);
    used = size;
  });
  for (const message of messages) message.parts = messages.length;
  return messages;
}

/**
 * A part with its lines compressed: `zlines` is the base64 of the raw DEFLATE of the lines' JSON
 * array. Log lines repeat themselves (paths, levels, field names), so a compressed part is a
 * fraction of the plain one and more batches share a queue message.
 */
export type CompressedLogBatchMessage = Omit<LogBatchMessage, 'lines'> & { zlines: string };

/**
 * Largest decompressed `zlines` accepted: a part is made to fit one message uncompressed, so
 * anything larger was not written by ingestion (and a bundle of 40 parts inflates to ~2 MiB).
 */
const MAX_INFLATED_BYTES = MAX_MESSAGE_JSON_BYTES;

/**
 * The smaller of a part's plain and compressed forms, as ingestion queues it (a part that does not
 * compress, e.g. one huge random line, stays plain and so still fits a message alone).
 */
export function compactPart(part: LogBatchMessage): LogBatchMessage | CompressedLogBatchMessage {
  const { lines, ...rest } = part;
  const zlines = deflateRawSync(Buffer.from(JSON.stringify(lines), 'utf8')).toString('base64');
  const compressed = { ...rest, zlines };
  return logPartBytes(compressed) < logPartBytes(part) ? compressed : part;
}

const lineListSchema = z.array(z.string()).min(1);

/** `zlines` back to lines, or undefined when it is not a compressed line list. */
function inflateLines(zlines: string): string[] | undefined {
  try {
    const json = inflateRawSync(Buffer.from(zlines, 'base64'), {
      maxOutputLength: MAX_INFLATED_BYTES,
    }).toString('utf8');
    const lines = lineListSchema.safeParse(JSON.parse(json));
    return lines.success ? lines.data : undefined;
  } catch {
    return undefined;
  }
}

const messageSchema = z
  .object({
    v: z.literal(LOG_MESSAGE_VERSION),
    batchId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
    part: z.number().int().min(0).max(999_999),
    parts: z.number().int().min(1).max(1_000_000),
    source: z.string().refine(isLogSource),
    lines: lineListSchema.optional(),
    zlines: z.string().min(1).optional(),
  })
  .refine((m) => (m.lines === undefined) !== (m.zlines === undefined), {
    message: 'a part carries either lines or zlines',
  })
  .transform((m, context) => {
    const { zlines, ...rest } = m;
    const lines = zlines === undefined ? m.lines : inflateLines(zlines);
    if (!lines) {
      context.addIssue({ code: 'custom', message: 'zlines is not a compressed line list' });
      return z.NEVER;
    }
    return { ...rest, lines };
  });

/** A message part with each line's header read once. */
export interface DecodedLogBatchMessage {
  message: LogBatchMessage;
  /** `<batchId>.<part>`: the tag every line of this part carries. */
  tag: string;
  headers: LineHeader[];
}

/**
 * Checks a queue payload and reads every line's header.
 *
 * @throws {ValidationError} when the payload is not a `log-batches` message or a line is malformed
 * (the host then retries and finally moves the message to the poison queue).
 */
export function decodeLogBatchMessage(payload: unknown): DecodedLogBatchMessage {
  const parsed = messageSchema.safeParse(payload);
  if (!parsed.success || parsed.data.part >= parsed.data.parts) {
    throw invalidLogMessage('Not a log-batches queue message.');
  }
  const message = parsed.data as LogBatchMessage;
  const tag = batchPartTag(message.batchId, message.part);
  const headers = message.lines.map((line, index) => {
    try {
      const header = readLineHeader(line);
      if (header.tag !== tag) throw lineTagMismatch(header.tag, tag);
      return header;
    } catch (error) {
      throw invalidLogMessage(
        `Line ${index} of log message ${tag} is malformed: ${(error as Error).message}`,
      );
    }
  });
  return { message, tag, headers };
}

/**
 * The `log-batches` message of a batch too large for one queue message: the batch itself waits,
 * whole, in a staging blob of the logs container (src/logs/ingest/stagedBatch.ts); the message
 * points at it.
 */
export interface LogBatchPointer {
  v: typeof LOG_MESSAGE_VERSION;
  batchId: string;
  /** `_pipeline/staging/<batchId>.json` (see `logStagingBlobName`; `_staging/…` before). */
  stagingBlob: string;
}

/** What a pointer and a bundle both carry: the version and the sender's optional trace context. */
const envelope = { v: z.literal(LOG_MESSAGE_VERSION), traceparent: z.string().optional() };

const pointerSchema = z
  .object({ ...envelope, batchId: z.string(), stagingBlob: z.string() })
  .strict();

/**
 * A `log-batches` payload: a part carrying its lines, a bundle of whole batches, or a pointer to a
 * staged batch.
 */
export type LogQueuePayload =
  | { kind: 'inline'; decoded: DecodedLogBatchMessage }
  | { kind: 'bundle'; parts: DecodedLogBatchMessage[] }
  | { kind: 'staged'; pointer: LogBatchPointer };

const bundleSchema = z.object({ ...envelope, parts: z.array(z.unknown()).min(1) }).strict();

/**
 * Tells the three `log-batches` payloads apart and checks them. A pointer must name its own batch's
 * staging blob, so a message can never make the flusher read or delete another blob.
 *
 * @throws {ValidationError} when the payload is none of them (see {@link decodeLogBatchMessage}).
 */
export function decodeLogQueuePayload(payload: unknown): LogQueuePayload {
  const bundle = bundleSchema.safeParse(payload);
  if (bundle.success) {
    const parts = bundle.data.parts.map(decodeLogBatchMessage);
    const split = parts.find((part) => part.message.parts !== 1);
    if (split) {
      // Only whole batches share a message; the parts of a split batch are staged together.
      throw invalidLogMessage(`Log bundle carries part ${split.tag} of a split batch.`);
    }
    return { kind: 'bundle', parts };
  }
  const pointer = pointerSchema.safeParse(payload);
  if (!pointer.success) return { kind: 'inline', decoded: decodeLogBatchMessage(payload) };
  const { batchId, stagingBlob } = pointer.data;
  if (parseLogStagingBlobName(stagingBlob) !== batchId) {
    throw invalidLogMessage(`Log batch pointer ${batchId} names the foreign blob ${stagingBlob}.`);
  }
  return { kind: 'staged', pointer: pointer.data as LogBatchPointer };
}

/**
 * Reads a staging blob's content: the batch's parts, exactly as {@link splitIntoMessages} made
 * them.
 *
 * @throws {ValidationError} when the content is not the parts of batch `batchId`.
 */
export function decodeStagedBatch(content: string, batchId: string): DecodedLogBatchMessage[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    parsed = undefined;
  }
  const parts: unknown[] = Array.isArray(parsed) ? (parsed as unknown[]) : [];
  if (parts.length === 0) {
    throw invalidLogMessage(`Staged log batch ${batchId} holds no parts.`);
  }
  return parts.map((payload, index) => {
    const decoded = decodeLogBatchMessage(payload);
    const { message } = decoded;
    if (message.batchId !== batchId || message.part !== index || message.parts !== parts.length) {
      throw invalidLogMessage(
        `Staged log batch ${batchId} holds a foreign or misplaced part ${decoded.tag}.`,
      );
    }
    return decoded;
  });
}
