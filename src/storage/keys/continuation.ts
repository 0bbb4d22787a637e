/** Continuation tokens: the opaque API token and the SDK's own token for a table position. */
import { foreignContinuationToken, unexpectedSdkToken } from './keyErrors';

/** The service's continuation position in a table query. */
export interface TableContinuation {
  nextPartitionKey: string;
  nextRowKey?: string;
}

/**
 * Opaque continuation token handed to API clients: base64url of a versioned JSON object.
 * `scope` binds the token to the query that produced it (e.g. `Sales|id|000100|000199`), so a
 * token cannot be replayed against another partition or range.
 */
export function encodeContinuationToken(scope: string, position: TableContinuation): string {
  return Buffer.from(
    JSON.stringify({ v: 1, s: scope, pk: position.nextPartitionKey, rk: position.nextRowKey }),
    'utf8',
  ).toString('base64url');
}

/**
 * The `@azure/data-tables` SDK's own continuation token for a position (what `byPage` accepts):
 * base64 of `{"nextPartitionKey","nextRowKey"}`. Non-ASCII characters are written as JSON `\uXXXX`
 * escapes because the SDK decodes the token's bytes one by one as Latin-1, not as UTF-8.
 */
export function toSdkContinuationToken(position: TableContinuation): string {
  const json = JSON.stringify(
    position.nextRowKey === undefined
      ? { nextPartitionKey: position.nextPartitionKey }
      : { nextPartitionKey: position.nextPartitionKey, nextRowKey: position.nextRowKey },
  ).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return Buffer.from(json, 'ascii').toString('base64');
}

/**
 * Reverses {@link toSdkContinuationToken}: the position inside a page's `continuationToken`.
 *
 * @throws {Error} when the SDK's token is not in the expected shape (an SDK change).
 */
export function fromSdkContinuationToken(sdkToken: string): TableContinuation {
  const parsed = JSON.parse(Buffer.from(sdkToken, 'base64').toString('utf8')) as {
    nextPartitionKey?: unknown;
    nextRowKey?: unknown;
  };
  if (
    typeof parsed.nextPartitionKey !== 'string' ||
    (parsed.nextRowKey !== undefined && typeof parsed.nextRowKey !== 'string')
  ) {
    throw unexpectedSdkToken();
  }
  return { nextPartitionKey: parsed.nextPartitionKey, nextRowKey: parsed.nextRowKey };
}

/**
 * Reverses {@link encodeContinuationToken} and checks the token belongs to `scope`.
 *
 * @throws {ValidationError} for a malformed, tampered or foreign token.
 */
export function decodeContinuationToken(scope: string, token: string): TableContinuation {
  const invalid = foreignContinuationToken;
  if (!/^[A-Za-z0-9_-]{1,4096}$/.test(token)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const p = parsed as { v?: unknown; s?: unknown; pk?: unknown; rk?: unknown } | null;
  if (
    p === null ||
    typeof p !== 'object' ||
    p.v !== 1 ||
    p.s !== scope ||
    typeof p.pk !== 'string' ||
    (p.rk !== undefined && typeof p.rk !== 'string') ||
    encodeContinuationToken(scope, { nextPartitionKey: p.pk, nextRowKey: p.rk }) !== token
  ) {
    throw invalid();
  }
  return { nextPartitionKey: p.pk, nextRowKey: p.rk };
}
