/**
 * A bounded slice of one member-list blob of the blob store (lastNameBlobStore.ts) by ranged GETs,
 * so a page of a long list costs a few small reads rather than the whole blob. A position's
 * number is the byte offset just past its member's closing quote: resuming there is one read
 * while the list did not change before it, else a binary search over the sorted list finds the
 * place again.
 */
import type { BlobClient } from '@azure/storage-blob';
import { isNotFound, storageStatus, toDomainError } from '../../storage/storageFaults';
import {
  decodeMember,
  encodeMemberPosition,
  type EmployeeRef,
  type MemberPosition,
  type MemberSlice,
} from './lastNameStore';
import {
  firstMemberAfter,
  MEMBERS_OPENING,
  scanMembers,
  type ScannedMember,
} from './memberListScan';

/** Bytes of one sequential read of a member list, and of one probe of the binary search. */
const CHUNK_BYTES = 64 * 1024;
const PROBE_BYTES = 1024;
/** Sequential reads one slice makes at most (besides the head and the binary search). */
const MAX_SCAN_READS = 4;

/** Bytes of a blob read from `base` on. */
interface Range {
  bytes: Buffer;
  base: number;
  /** The blob's length. */
  size: number;
}

/** Where a scan stands: the offset it reads from, and the bytes read there if any. */
interface Cursor {
  position: number;
  chunk: Range | undefined;
}

/**
 * A slice of a member-list blob: the head (up to 64 KiB, which holds the whole list of most
 * names); then, to resume, the bytes at the position's offset if they still end with its member
 * (the list did not change before it), else a binary search over the sorted list (about
 * log2(size / 64 KiB) probes of 1 KiB); then up to {@link MAX_SCAN_READS} reads forward.
 *
 * @throws {DomainError} for storage faults.
 */
export async function readMemberSlice(
  blob: BlobClient,
  start: MemberPosition | undefined,
  limit: number,
): Promise<MemberSlice> {
  const head = await readRange(blob, 0, CHUNK_BYTES);
  const opening = head?.bytes.indexOf(MEMBERS_OPENING) ?? -1;
  if (!head || opening < 0) return { members: [], next: undefined };
  const arrayStart = opening + MEMBERS_OPENING.length - 1;
  const cursor = start
    ? await resumeAt(blob, head, start, arrayStart)
    : { position: arrayStart, chunk: head };
  const scan = await scanForward(blob, cursor, start, limit, head.size);
  const members = scan.taken
    .map((m) => decodeMember(m.text))
    .filter((m): m is EmployeeRef => m !== undefined);
  if (scan.closed || scan.position >= head.size) return { members, next: undefined };
  // Nothing past the start scanned (only with an unlikely read cap): resume where this one did.
  if (scan.taken.length === 0 && start) return { members, next: encodeMemberPosition(start) };
  const next = encodeMemberPosition({ number: scan.position, member: scan.lastScanned });
  return { members, next };
}

/**
 * `count` bytes of the blob from `offset`; `undefined` when there is no list, or nothing at that
 * offset any more (416).
 *
 * @throws {DomainError} for other storage faults.
 */
async function readRange(
  blob: BlobClient,
  offset: number,
  count: number,
): Promise<Range | undefined> {
  try {
    const response = await blob.download(offset, count);
    const chunks: Buffer[] = [];
    for await (const chunk of response.readableStreamBody ?? []) chunks.push(chunk as Buffer);
    const total = /\/(\d+)$/.exec(response.contentRange ?? '')?.[1];
    const bytes = Buffer.concat(chunks);
    return { bytes, base: offset, size: total ? Number(total) : offset + bytes.length };
  } catch (error) {
    if (isNotFound(error) || storageStatus(error) === 416) return undefined;
    throw toDomainError(error);
  }
}

/**
 * Where a slice after `start` begins: at its offset when the bytes there still end with its
 * member, else where the binary search over the sorted list places it.
 *
 * @throws {DomainError} for storage faults.
 */
async function resumeAt(
  blob: BlobClient,
  head: Range,
  start: MemberPosition,
  arrayStart: number,
): Promise<Cursor> {
  const quoted = Buffer.from(`"${start.member}"`);
  const at = start.number - quoted.length;
  const hint =
    start.member !== '' && at > arrayStart && start.number <= head.size
      ? start.number + CHUNK_BYTES <= head.bytes.length
        ? head
        : await readRange(blob, at, CHUNK_BYTES)
      : undefined;
  if (hint?.bytes.subarray(at - hint.base, at - hint.base + quoted.length).equals(quoted)) {
    return { position: start.number, chunk: hint };
  }
  const position = await locate(blob, start.member, arrayStart, head.size);
  return { position, chunk: position + PROBE_BYTES <= head.bytes.length ? head : undefined };
}

/** What a forward scan took, where it stopped, and whether it reached the list's end. */
interface Scan {
  taken: ScannedMember[];
  position: number;
  /** The last member taken (or `start`'s, when none was). */
  lastScanned: string;
  closed: boolean;
}

/**
 * Takes up to `limit` members after `start` from `cursor` on, reading on in chunks (at most
 * {@link MAX_SCAN_READS}) until the list closes or the blob ends.
 *
 * @throws {DomainError} for storage faults.
 */
async function scanForward(
  blob: BlobClient,
  cursor: Cursor,
  start: MemberPosition | undefined,
  limit: number,
  size: number,
): Promise<Scan> {
  let { position, chunk } = cursor;
  const taken: ScannedMember[] = [];
  let lastScanned = start?.member ?? '';
  let reads = 0;
  scan: while (taken.length < limit) {
    if (!chunk || position >= chunk.base + chunk.bytes.length) {
      if (position >= size || reads >= MAX_SCAN_READS) break;
      reads++;
      chunk = await readRange(blob, position, CHUNK_BYTES);
      if (!chunk) break;
    }
    const found = scanMembers(chunk.bytes, position - chunk.base, chunk.base);
    for (const member of found.members) {
      if (taken.length >= limit) break scan;
      position = member.end;
      if (start === undefined || member.text > start.member) {
        taken.push(member);
        lastScanned = member.text;
      }
    }
    if (found.closed) return { taken, position, lastScanned, closed: true };
    position = found.resume;
    chunk = undefined;
  }
  return { taken, position, lastScanned, closed: false };
}

/**
 * The offset from which the first member after `target` is at most about one chunk away: a
 * binary search over the sorted member array by 1 KiB probes.
 *
 * @throws {DomainError} for storage faults.
 */
async function locate(
  blob: BlobClient,
  target: string,
  arrayStart: number,
  size: number,
): Promise<number> {
  let lo = arrayStart;
  let hi = size;
  while (hi - lo > CHUNK_BYTES) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const probe = await readRange(blob, mid, PROBE_BYTES);
    const member = probe && firstMemberAfter(probe.bytes, 0, mid);
    if (member && member.text <= target) lo = member.end;
    else hi = member && member.start < hi ? member.start : mid;
  }
  return lo;
}
