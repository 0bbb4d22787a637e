/**
 * The pure part of appending to an hour blob (hourWriter.ts): the block built from the lines of
 * message parts, and the tags found in stored bytes.
 */
import { logBlockId, type LogBlockSummary } from './blockId';
import { levelBit } from './levels';
import type { LineHeader } from './lineFormat';

/** The lines one message part contributes to one hour. */
export interface HourPart {
  /** `<batchId>.<part>`, carried by every one of its lines. */
  tag: string;
  lines: string[];
  headers: LineHeader[];
  /** How many times the queue has handed out the message (1 = first delivery). */
  dequeueCount: number;
  /** Epoch ms before which no other delivery of the message can have started. */
  exclusiveUntil: number;
}

/** One block to stage: its id (which carries its summary), bytes and line count. */
export interface PlannedBlock {
  id: string;
  content: Buffer;
  summary: LogBlockSummary;
  lines: number;
}

/** The block that appends `parts` to the blob of the hour starting at `hourStart`. */
export function buildBlock(hourStart: Date, parts: readonly HourPart[]): PlannedBlock {
  let first = Infinity;
  let last = -Infinity;
  let levelMask = 0;
  let lines = 0;
  const texts: string[] = [];
  for (const part of parts) {
    for (const header of part.headers) {
      first = Math.min(first, header.atMs);
      last = Math.max(last, header.atMs);
      levelMask |= levelBit(header.level);
    }
    lines += part.lines.length;
    texts.push(part.lines.join('\n'));
  }
  const content = Buffer.from(texts.join('\n') + '\n', 'utf8');
  const hour = hourStart.getTime();
  const summary = {
    startSecond: Math.floor((first - hour) / 1000),
    endSecond: Math.floor((last - hour) / 1000),
    levelMask,
    lines,
  };
  return { id: logBlockId(summary, content), content, summary, lines };
}

/** Tags of the lines in a stretch of log blob bytes (field 4 of each line). */
export function tagsIn(bytes: Buffer): Set<string> {
  const tags = new Set<string>();
  for (const line of bytes.toString('utf8').split('\n')) {
    if (line === '') continue;
    let at = -1;
    for (let i = 0; i < 3; i++) at = line.indexOf(';', at + 1);
    const end = line.indexOf(';', at + 1);
    if (at >= 0 && end > at) tags.add(line.slice(at + 1, end));
  }
  return tags;
}
