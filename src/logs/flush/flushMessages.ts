/**
 * One flush: the lines of many `log-batches` messages become one block per touched hour-blob
 * (hourWriter.ts writes each hour exactly once); what is stored and what must come again.
 */
import type { ContainerClient } from '@azure/storage-blob';
import {
  appendToHour,
  type HourAppendResult,
  type HourContainer,
  type HourPart,
  type LogBlobLimits,
} from './hourWriter';
import { mapSettled } from '../../storage/parallel';
import type { PendingLogMessage } from './delivery';
import { TagLedgers } from './tagLedger';

/** What one flush did. */
export interface FlushResult {
  /** Messages whose every line is now stored (written now or found already stored). */
  flushed: PendingLogMessage[];
  /** Messages with at least one hour that could not be written; they must be delivered again. */
  failed: { message: PendingLogMessage; error: unknown }[];
  linesWritten: number;
  hours: HourAppendResult[];
}

const HOUR_MS = 3_600_000;
const HOUR_CONCURRENCY = 4; // hours written in parallel by one flush
interface HourGroup {
  source: string;
  hourStart: Date;
  parts: Map<string, HourPart>;
  messages: Set<PendingLogMessage>;
}

/**
 * Writes the lines of `messages`: one block and one Put Block List per touched hour-blob.
 *
 * @param clock - current epoch ms (tests move it to simulate slow flushers).
 * @param ledgers - what this process knows of the tag ledgers (default: nothing yet, as a flush of
 * a process of its own; a process passes the one it keeps, so its flushes read each ledger once).
 * @returns which messages are now fully stored and which are not; it throws only for bugs.
 */
export async function flushLogMessages(
  container: ContainerClient,
  messages: readonly PendingLogMessage[],
  limits: LogBlobLimits,
  clock: () => number = Date.now,
  ledgers: TagLedgers = new TagLedgers(),
  hourContainer: HourContainer = () => container,
): Promise<FlushResult> {
  const groups = new Map<string, HourGroup>();
  const seenTags = new Set<string>();
  for (const pending of messages) {
    const { message, tag, headers } = pending.decoded;
    // The same part twice in one flush (it was sent twice) is written once.
    if (seenTags.has(tag)) continue;
    seenTags.add(tag);
    headers.forEach((header, index) => {
      const hour = Math.floor(header.atMs / HOUR_MS) * HOUR_MS;
      const key = `${message.source}/${hour}`;
      let group = groups.get(key);
      if (!group) {
        group = {
          source: message.source,
          hourStart: new Date(hour),
          parts: new Map(),
          messages: new Set(),
        };
        groups.set(key, group);
      }
      group.messages.add(pending);
      let part = group.parts.get(tag);
      if (!part) {
        part = {
          tag,
          lines: [],
          headers: [],
          dequeueCount: pending.dequeueCount,
          exclusiveUntil: pending.exclusiveUntil,
        };
        group.parts.set(tag, part);
      }
      part.lines.push(message.lines[index]!);
      part.headers.push(header);
    });
  }

  const list = [...groups.values()];
  const outcomes = await mapSettled(list, HOUR_CONCURRENCY, (group) =>
    appendToHour(
      hourContainer(group.source, group.hourStart),
      group.source,
      group.hourStart,
      [...group.parts.values()],
      limits,
      clock,
      ledgers,
    ),
  );
  const failures = new Map<string, unknown>();
  const hours: HourAppendResult[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') {
      hours.push(outcome.value);
      return;
    }
    for (const message of list[index]!.messages) {
      if (!failures.has(message.decoded.tag)) failures.set(message.decoded.tag, outcome.reason);
    }
  });
  const flushed: PendingLogMessage[] = [];
  const failed: FlushResult['failed'] = [];
  for (const message of messages) {
    const error = failures.get(message.decoded.tag);
    if (error === undefined) flushed.push(message);
    else failed.push({ message, error });
  }
  return { flushed, failed, linesWritten: hours.reduce((n, h) => n + h.linesWritten, 0), hours };
}
