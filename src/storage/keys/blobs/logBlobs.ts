/** Blob names of the log pipeline: hour-prefixed log blobs, tag ledgers, staged batches. */
import {
  invalidLogBatchId,
  invalidLogSource,
  logSequenceOutOfRange,
  notALogBlobName,
} from '../keyErrors';
import { pad, parseUtcDayStamp } from '../time';

const LOG_SOURCE = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** True for a valid log source: 1–63 lowercase letters, digits and `-`, starting alphanumeric. */
export function isLogSource(source: string): boolean {
  return LOG_SOURCE.test(source);
}

/** Prefix of one UTC hour of one source's log blobs: `web/2026/11/22/1500/`. */
export function logHourPrefix(source: string, hour: Date): string {
  if (!isLogSource(source)) {
    throw invalidLogSource(source);
  }
  return (
    `${source}/${pad(hour.getUTCFullYear(), 4)}/${pad(hour.getUTCMonth() + 1, 2)}/` +
    `${pad(hour.getUTCDate(), 2)}/${pad(hour.getUTCHours(), 2)}00/`
  );
}

/** Blob name of the `sequence`-th log blob of an hour: `web/2026/11/22/1500/000000.log`. */
export function logBlobName(source: string, hour: Date, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 0 || sequence > 999_999) {
    throw logSequenceOutOfRange(sequence);
  }
  return `${logHourPrefix(source, hour)}${pad(sequence, 6)}.log`;
}

/** Reverses {@link logBlobName}. */
export function parseLogBlobName(
  blobName: string,
): { source: string; hour: Date; sequence: number } | undefined {
  const match =
    /^([a-z0-9][a-z0-9-]{0,62})\/(\d{4})\/(\d{2})\/(\d{2})\/(\d{2})00\/(\d{6})\.log$/.exec(
      blobName,
    );
  if (!match) return undefined;
  const day = parseUtcDayStamp(`${match[2]}${match[3]}${match[4]}`);
  const hours = Number(match[5]);
  if (!day || hours > 23) return undefined;
  return {
    source: match[1]!,
    hour: new Date(day.getTime() + hours * 3_600_000),
    sequence: Number(match[6]),
  };
}

/**
 * Root of everything the log pipeline keeps in the logs container besides the log blobs: tag
 * ledgers and staged batches. `_` can start no log source (`[a-z0-9][a-z0-9-]*`), so no
 * `<source>/` prefix, and thus no hour prefix a query or a Storage Analytics reader lists, ever
 * holds one of these blobs.
 */
export const LOG_PIPELINE_PREFIX = '_pipeline/';
const LOG_LEDGER_PREFIX = `${LOG_PIPELINE_PREFIX}ledgers/`;
const LOG_STAGING_PREFIX = `${LOG_PIPELINE_PREFIX}staging/`;
/** Where staged batches lived before {@link LOG_PIPELINE_PREFIX}; pointers may still name it. */
const LEGACY_LOG_STAGING_PREFIX = '_staging/';

/**
 * Name of the tag ledger of a log blob: `_pipeline/ledgers/web/2026/11/22/1500/000000.tags` for
 * `web/2026/11/22/1500/000000.log` (an append blob of `<block id> <tag>,<tag>…` lines; see
 * src/logs/flush/tagLedger.ts). It mirrors the log blob's name under the pipeline prefix, so it is
 * never listed with the hour and still ages out with it (same lifecycle rule).
 *
 * @throws {Error} when `logBlob` is not a log blob name (a bug).
 */
export function logTagLedgerName(logBlob: string): string {
  if (!parseLogBlobName(logBlob)) throw notALogBlobName(logBlob);
  return `${LOG_LEDGER_PREFIX}${logBlob.slice(0, -'.log'.length)}.tags`;
}

/** Reverses {@link logTagLedgerName}: the log blob a ledger belongs to, `undefined` otherwise. */
export function parseLogTagLedgerName(ledgerName: string): string | undefined {
  if (!ledgerName.startsWith(LOG_LEDGER_PREFIX) || !ledgerName.endsWith('.tags')) return undefined;
  const logBlob = `${ledgerName.slice(LOG_LEDGER_PREFIX.length, -'.tags'.length)}.log`;
  return parseLogBlobName(logBlob) ? logBlob : undefined;
}

/**
 * Where the tag ledger of a log blob lived before {@link logTagLedgerName}: beside it in the hour
 * prefix (`…/1500/000000.tags`). Only read, as a fallback, for blocks committed by a flusher of
 * that earlier version; nothing writes there any more.
 *
 * @throws {Error} when `logBlob` is not a log blob name (a bug).
 */
export function legacyLogTagLedgerName(logBlob: string): string {
  if (!parseLogBlobName(logBlob)) throw notALogBlobName(logBlob);
  return `${logBlob.slice(0, -'.log'.length)}.tags`;
}

const LOG_BATCH_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * Blob name of a staged log batch (one too large for a queue message):
 * `_pipeline/staging/<batchId>.json` in the logs container (see {@link LOG_PIPELINE_PREFIX}).
 *
 * @throws {Error} when `batchId` is not 1–64 letters, digits or `-` (a bug: ids are UUIDs).
 */
export function logStagingBlobName(batchId: string): string {
  if (!LOG_BATCH_ID.test(batchId)) throw invalidLogBatchId(batchId);
  return `${LOG_STAGING_PREFIX}${batchId}.json`;
}

/**
 * Reverses {@link logStagingBlobName}: the batch id, `undefined` for any other name. Also accepts
 * the earlier `_staging/<batchId>.json`, which pointer messages queued before the move still name.
 */
export function parseLogStagingBlobName(blobName: string): string | undefined {
  const prefix = [LOG_STAGING_PREFIX, LEGACY_LOG_STAGING_PREFIX].find((p) =>
    blobName.startsWith(p),
  );
  if (prefix === undefined || !blobName.endsWith('.json')) return undefined;
  const batchId = blobName.slice(prefix.length, -'.json'.length);
  return LOG_BATCH_ID.test(batchId) ? batchId : undefined;
}
