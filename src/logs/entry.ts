/**
 * A log entry as the API accepts and returns it, and the validation of a whole `POST /logs` batch:
 * every entry is checked before anything is stored, and every bad one is named by index and
 * field.
 */
import { z } from 'zod';
import { describeIssues, plainWords, type InputIssue } from '../domainErrors';
import { tooManyLogEntries } from './logErrors';
import { isLogSource } from '../storage/keys/blobs/logBlobs';
import { MAX_STORABLE_DATE, MIN_STORABLE_DATE } from '../storage/keys/time';
import { LOG_LEVELS, type LogLevel } from './format/levels';

/** Field names with a meaning of their own; every other field of an entry is kept as extra data. */
const RESERVED_FIELDS = ['at', 'level', 'message'] as const;

/** One log entry. */
export interface LogEntry {
  /** When it happened (millisecond precision, UTC). */
  at: Date;
  level: LogLevel;
  message: string;
  /** Every other field the caller sent, kept as given (any JSON value). */
  extra: Record<string, unknown>;
}

/** A validated `POST /logs` body. */
export interface LogBatch {
  source: string;
  entries: LogEntry[];
}

/** The limits a batch must respect. */
export interface LogBatchLimits {
  maxBatchEntries: number;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text encodes to UTF-8 and back unchanged (no lone UTF-16 surrogates). */
function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

const entrySchema = z
  .object({
    at: z.iso
      .datetime({
        offset: true,
        error: 'must be an ISO 8601 time with Z or an offset, e.g. 2026-11-22T15:04:05.123Z',
      })
      .refine((value) => {
        const ms = Date.parse(value);
        return ms >= MIN_STORABLE_DATE.getTime() && ms <= MAX_STORABLE_DATE.getTime();
      }, 'must be between 1601-01-01 and 9999-12-31 UTC'),
    level: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
    message: z
      .string()
      .refine(isWellFormedText, 'must be valid Unicode text (it holds a lone surrogate)'),
  })
  .catchall(z.unknown());

const envelopeSchema = z.object({
  source: z
    .string()
    .refine(
      isLogSource,
      'must be 1-63 lowercase letters, digits or "-", starting with a letter or digit',
    ),
  entries: z
    .array(z.unknown(), { error: 'must be an array of log entries' })
    .min(1, 'must hold at least one entry'),
});

/**
 * Validates a `POST /logs` body as a whole: nothing of a batch is accepted unless every entry is.
 *
 * @throws {TooLargeError} when the batch holds more than `maxBatchEntries` entries.
 * @throws {ValidationError} naming every bad field, e.g. `body.entries[3].level`.
 */
export function parseLogBatch(body: unknown, limits: LogBatchLimits): LogBatch {
  const envelope = envelopeSchema.safeParse(body, { error: plainWords });
  if (!envelope.success) throw describeIssues(envelope.error.issues, 'body', 'InvalidLogEntry');
  const { source, entries: rawEntries } = envelope.data;
  if (rawEntries.length > limits.maxBatchEntries) {
    throw tooManyLogEntries(rawEntries.length, limits.maxBatchEntries);
  }
  const parsedEntries = rawEntries.map((raw) => entrySchema.safeParse(raw, { error: plainWords }));
  const issues: InputIssue[] = parsedEntries.flatMap((parsed, index) =>
    parsed.success
      ? []
      : parsed.error.issues.map((issue) => ({ ...issue, path: ['entries', index, ...issue.path] })),
  );
  if (issues.length > 0) throw describeIssues(issues, 'body', 'InvalidLogEntry');
  const entries = rawEntries.map((raw, index): LogEntry => {
    const parsed = parsedEntries[index]!;
    if (!parsed.success) throw describeIssues(parsed.error.issues, 'body', 'InvalidLogEntry');
    // Extra fields come from the input object itself: Object.fromEntries defines each key as an own
    // property, so even a key named "__proto__" is kept as data.
    const extra = Object.fromEntries(
      Object.entries(raw as Record<string, unknown>).filter(
        ([key]) => !(RESERVED_FIELDS as readonly string[]).includes(key),
      ),
    );
    return {
      at: new Date(Date.parse(parsed.data.at)),
      level: parsed.data.level,
      message: parsed.data.message,
      extra,
    };
  });
  return { source, entries };
}

/** The API's JSON form of an entry: `at` (ISO UTC, milliseconds), `level`, `message`, extras. */
export function toApiEntry(entry: LogEntry): Record<string, unknown> {
  return Object.fromEntries([
    ['at', entry.at.toISOString()],
    ['level', entry.level],
    ['message', entry.message],
    ...Object.entries(entry.extra),
  ]);
}
