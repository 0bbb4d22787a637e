/**
 * Block ids of log blobs. Each id carries a summary of its block — first and last second within
 * the hour, the levels present, the line count — plus a hash of the content. So the committed block
 * list alone tells a flusher the blob's `StartTime`, `EndTime`, `LogType` and size, and it never
 * needs to read the blob's metadata or content to write the next block. Equal content gives an
 * equal id, which makes staging idempotent.
 *
 * Layout (36 bytes, 48 characters of base64; every id of a blob must have the same length):
 * version (1) | start second (2) | end second (2) | level mask (1) | line count (4) |
 * SHA-256 prefix (26).
 */
import { createHash } from 'node:crypto';
import { invalidBlockSummary } from '../logErrors';

const VERSION = 1;
const RAW_LENGTH = 36;
const HASH_LENGTH = 26;
/** Length of every log block id, in base64 characters. */
export const LOG_BLOCK_ID_LENGTH = 48;

/** What a block holds, as its id records it. */
export interface LogBlockSummary {
  /** Seconds after the hour of the block's earliest line (0–3599). */
  startSecond: number;
  /** Seconds after the hour of its latest line (0–3599). */
  endSecond: number;
  /** Levels present (see levels.ts). */
  levelMask: number;
  lines: number;
}

/**
 * The id of a block with this summary and content.
 *
 * @throws {Error} for a summary out of range (a bug).
 */
export function logBlockId(summary: LogBlockSummary, content: Buffer): string {
  const { startSecond, endSecond, levelMask, lines } = summary;
  if (
    !(startSecond >= 0 && startSecond <= endSecond && endSecond < 3600) ||
    !(levelMask > 0 && levelMask < 256) ||
    !(Number.isInteger(lines) && lines > 0 && lines <= 0xffffffff)
  ) {
    throw invalidBlockSummary(summary);
  }
  const raw = Buffer.alloc(RAW_LENGTH);
  raw.writeUInt8(VERSION, 0);
  raw.writeUInt16BE(startSecond, 1);
  raw.writeUInt16BE(endSecond, 3);
  raw.writeUInt8(levelMask, 5);
  raw.writeUInt32BE(lines, 6);
  createHash('sha256').update(content).digest().copy(raw, 10, 0, HASH_LENGTH);
  return raw.toString('base64');
}

/** Reverses the summary part of {@link logBlockId}; `undefined` for a block not written here. */
export function parseLogBlockId(blockId: string): LogBlockSummary | undefined {
  if (blockId.length !== LOG_BLOCK_ID_LENGTH) return undefined;
  const raw = Buffer.from(blockId, 'base64');
  if (
    raw.length !== RAW_LENGTH ||
    raw.toString('base64') !== blockId ||
    raw.readUInt8(0) !== VERSION
  ) {
    return undefined;
  }
  const summary = {
    startSecond: raw.readUInt16BE(1),
    endSecond: raw.readUInt16BE(3),
    levelMask: raw.readUInt8(5),
    lines: raw.readUInt32BE(6),
  };
  return summary.startSecond <= summary.endSecond && summary.endSecond < 3600 ? summary : undefined;
}
