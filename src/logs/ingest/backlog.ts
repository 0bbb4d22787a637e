/**
 * What a waiting `log-batches` message says about the log backlog, without storing anything: the
 * hour of its earliest line (the operations view shows it for the message at the queue's head).
 */
import { decodeLogQueuePayload } from './batchMessage';

const HOUR_MS = 3_600_000;

/**
 * The UTC hour (its start) of the earliest line a `log-batches` payload carries.
 *
 * @returns `undefined` for a pointer to a staged batch (its lines are in a blob, not read here),
 *   or a payload that is not a `log-batches` message (the flusher will poison it).
 */
export function earliestLineHour(payload: unknown): Date | undefined {
  let decoded;
  try {
    decoded = decodeLogQueuePayload(payload);
  } catch {
    return undefined;
  }
  const parts =
    decoded.kind === 'inline' ? [decoded.decoded] : decoded.kind === 'bundle' ? decoded.parts : [];
  let earliest = Number.POSITIVE_INFINITY;
  for (const part of parts)
    for (const header of part.headers) earliest = Math.min(earliest, header.atMs);
  return Number.isFinite(earliest) ? new Date(Math.floor(earliest / HOUR_MS) * HOUR_MS) : undefined;
}
