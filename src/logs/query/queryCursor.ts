/**
 * Where a paged log query stands, and its continuation token.
 *
 * Every stored entry has a key `(at, blob sequence, byte offset of its line)`: unique (one line
 * per offset) and stable (a log blob only ever grows at its end, and a new blob of an hour gets
 * the next sequence). Pages return entries in that key order, which is time order with a fixed
 * tie-break. A cursor is the key of the first entry not returned yet (or any key between two
 * entries); `(t, 0, 0)` stands before every entry at `t`.
 *
 * The token names the hour blob of the cursor (`web/2026/11/22/1500/000003.log`), the byte offset
 * in it and the entry time reached, and is bound to its query (source, window, levels) like every
 * continuation token of the app (src/storage/keys/continuation.ts).
 */
import { createHash } from 'node:crypto';
import { decodeContinuationToken, encodeContinuationToken } from '../../storage/keys/continuation';
import { foreignContinuationToken } from '../../storage/keys/keyErrors';
import { logBlobName, parseLogBlobName } from '../../storage/keys/blobs/logBlobs';

/** The key of a stored entry, or a position between two keys. */
export interface LogCursor {
  atMs: number;
  /** `NNNNNN` of the blob in its hour. */
  sequence: number;
  /** Byte offset of the line in that blob. */
  offset: number;
}

const HOUR_MS = 3_600_000;

/**
 * With data spread over several accounts, a query reads every account's logs container: the
 * blobs of account `k` (in the accounts' order) take sequences from `k × SEQUENCE_SPAN` in the
 * query's keys, so keys stay unique and ordered (`NNNNNN` stays below the span).
 */
export const SEQUENCE_SPAN = 1_000_000;

/** Orders entry keys: time, then blob, then offset. */
export function compareCursors(a: LogCursor, b: LogCursor): number {
  return a.atMs - b.atMs || a.sequence - b.sequence || a.offset - b.offset;
}

/** The query a token belongs to. */
export interface LogCursorScope {
  source: string;
  fromMs: number;
  toMs: number;
  /** Mask of the wanted levels (levels.ts). */
  levelMask: number;
}

/** `logs:<hash>` of the query: a token continues only the query that produced it. */
function logQueryScope(scope: LogCursorScope): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([scope.source, scope.fromMs, scope.toMs, scope.levelMask]))
    .digest('base64url')
    .slice(0, 22);
  return `logs:${digest}`;
}

/** The token that resumes `scope` at `cursor`. */
export function encodeLogCursor(scope: LogCursorScope, cursor: LogCursor): string {
  // A blob of account k > 0 of a spread query (queryReads.ts) says its account after the time.
  const account = Math.floor(cursor.sequence / SEQUENCE_SPAN);
  return encodeContinuationToken(logQueryScope(scope), {
    nextPartitionKey: logBlobName(
      scope.source,
      new Date(Math.floor(cursor.atMs / HOUR_MS) * HOUR_MS),
      cursor.sequence % SEQUENCE_SPAN,
    ),
    nextRowKey: `${cursor.offset}@${cursor.atMs}${account > 0 ? `~${account}` : ''}`,
  });
}

/**
 * Reverses {@link encodeLogCursor} for the same query.
 *
 * @throws {ValidationError} `InvalidContinuationToken` for a malformed, tampered or foreign token,
 *   or one whose position lies outside the query's window.
 */
export function decodeLogCursor(scope: LogCursorScope, token: string): LogCursor {
  const position = decodeContinuationToken(logQueryScope(scope), token);
  const blob = parseLogBlobName(position.nextPartitionKey);
  const match = /^(0|[1-9]\d{0,15})@(-?(?:0|[1-9]\d{0,15}))(?:~([1-9]\d{0,2}))?$/.exec(
    position.nextRowKey ?? '',
  );
  const cursor = match && {
    atMs: Number(match[2]),
    sequence: blob ? Number(match[3] ?? 0) * SEQUENCE_SPAN + blob.sequence : -1,
    offset: Number(match[1]),
  };
  if (
    !blob ||
    !cursor ||
    blob.source !== scope.source ||
    blob.hour.getTime() !== Math.floor(cursor.atMs / HOUR_MS) * HOUR_MS ||
    cursor.atMs < scope.fromMs ||
    cursor.atMs >= scope.toMs
  ) {
    throw foreignContinuationToken();
  }
  return cursor;
}
