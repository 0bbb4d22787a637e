/**
 * The pure part of a paged log query (query.ts): which committed blocks of an hour to read next.
 *
 * Lines within a block, and blocks within an hour, are in the order they were flushed, not in time
 * order (a batch may hold entries in any order; a late batch lands after later entries). But every
 * block id carries the block's first and last second (blockId.ts), and the committed block list
 * gives each block's offset and size. So the entries with `S <= at < E` are all inside the blocks
 * whose second range overlaps `[S, E)`: reading those blocks (ranged GETs) and sorting what they
 * hold gives that time slice in exact order, without reading the rest of the hour.
 *
 * A slice is one or more whole seconds, grown from the cursor while the blocks it needs stay
 * within a byte and block budget and until they hold enough lines for the page.
 */
import { parseLogBlockId } from '../format/blockId';

/** One committed block of one blob of the hour, with where it lies and what its id says. */
export interface HourBlock {
  sequence: number;
  offset: number;
  size: number;
  /** First millisecond its entries can have (the block's first second). */
  startMs: number;
  /** Past its last entry (the end of its last second). */
  endMs: number;
  levelMask: number;
  /** Lines, as its id says; an estimate for a block this code did not write. */
  lines: number;
}

/** The blocks of one blob, from its committed block list. */
export function blocksOfBlob(
  sequence: number,
  hourStartMs: number,
  committed: readonly { name: string; size: number }[],
  /** Time and levels the blob's metadata allows, for blocks whose id says nothing. */
  fallback: { startMs: number; endMs: number; levelMask: number },
): HourBlock[] {
  let offset = 0;
  return committed.map(({ name, size }) => {
    const summary = parseLogBlockId(name);
    const block: HourBlock = summary
      ? {
          sequence,
          offset,
          size,
          startMs: hourStartMs + summary.startSecond * 1000,
          endMs: hourStartMs + (summary.endSecond + 1) * 1000,
          levelMask: summary.levelMask,
          lines: summary.lines,
        }
      : { sequence, offset, size, ...fallback, lines: Math.ceil(size / 200) };
    offset += size;
    return block;
  });
}

/** How far one slice may grow. */
export interface SliceBudget {
  /**
   * Lines the page still needs; the slice stops growing once its blocks are expected to hold this
   * many.
   */
  lines: number;
  /** Bytes of blocks not loaded yet it may read (the first second is read whatever it costs). */
  bytes: number;
  /** Blocks not loaded yet it may read (likewise). */
  blocks: number;
}

/** A planned slice: read `blocks`, keep the entries with `startMs <= at < endMs`. */
export interface PlannedSlice {
  startMs: number;
  endMs: number;
  /** In blob then offset order. */
  blocks: HourBlock[];
  /** Bytes of the blocks not loaded yet. */
  bytes: number;
}

/**
 * Lines of `blocks` expected in `[startMs, endMs)`: each block's lines, spread evenly over its
 * seconds. A block spanning the whole hour (a late entry flushed with current ones) then counts
 * for little in a short slice, so the slice grows to hold about a page instead of a few lines.
 */
function expectedLines(blocks: readonly HourBlock[], startMs: number, endMs: number): number {
  let lines = 0;
  for (const block of blocks) {
    const overlap = Math.min(endMs, block.endMs) - Math.max(startMs, block.startMs);
    if (overlap > 0) lines += (block.lines * overlap) / (block.endMs - block.startMs);
  }
  return lines;
}

/**
 * The next slice from `startMs` (inclusive) up to at most `limitMs`, over `blocks` (already
 * narrowed to the wanted levels). It always covers at least the second holding `startMs`; it
 * grows by whole seconds while the blocks it needs stay within `budget.bytes` and `budget.blocks`,
 * and stops once they are expected to hold `budget.lines` lines in it.
 */
export function planSlice(
  blocks: readonly HourBlock[],
  startMs: number,
  limitMs: number,
  budget: SliceBudget,
  /** Blocks the page has already downloaded: they cost nothing against the budget. */
  loaded: ReadonlySet<HourBlock> = new Set(),
): PlannedSlice {
  const pending = blocks
    .filter((block) => block.endMs > startMs && block.startMs < limitMs)
    .sort((a, b) => a.startMs - b.startMs);
  const chosen: HourBlock[] = [];
  let bytes = 0;
  let reads = 0;
  let next = 0;
  const take = (endMs: number): void => {
    while (next < pending.length && pending[next]!.startMs < endMs) {
      const block = pending[next++]!;
      chosen.push(block);
      if (!loaded.has(block)) {
        bytes += block.size;
        reads++;
      }
    }
  };
  const enough = (endMs: number): boolean => expectedLines(chosen, startMs, endMs) >= budget.lines;
  /** The first second boundary in `(after, upTo]` (or `upTo`) where the chosen blocks suffice. */
  const firstSufficient = (after: number, upTo: number): number => {
    let lo = Math.floor(after / 1000) + 1;
    let hi = Math.ceil(upTo / 1000);
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (enough(Math.min(upTo, mid * 1000))) hi = mid;
      else lo = mid + 1;
    }
    return Math.min(upTo, lo * 1000);
  };
  let endMs = Math.min(limitMs, Math.floor(startMs / 1000) * 1000 + 1000);
  take(endMs);
  while (endMs < limitMs && !enough(endMs)) {
    const following = pending[next];
    // Nothing new to read before the next block starts (block starts are whole seconds).
    const free = following ? Math.min(limitMs, following.startMs) : limitMs;
    if (enough(free)) {
      endMs = firstSufficient(endMs, free);
      break;
    }
    endMs = Math.max(endMs, free);
    if (!following || endMs >= limitMs) break;
    const candidate = Math.min(limitMs, following.startMs + 1000);
    let extraBytes = 0;
    let extraBlocks = 0;
    for (let i = next; i < pending.length && pending[i]!.startMs < candidate; i++) {
      if (loaded.has(pending[i]!)) continue;
      extraBytes += pending[i]!.size;
      extraBlocks++;
    }
    if (bytes + extraBytes > budget.bytes || reads + extraBlocks > budget.blocks) break;
    endMs = candidate;
    take(endMs);
  }
  chosen.sort((a, b) => a.sequence - b.sequence || a.offset - b.offset);
  return { startMs, endMs, blocks: chosen, bytes };
}

/** A byte range of one blob to download. */
export interface BlobRange {
  sequence: number;
  offset: number;
  count: number;
}

/**
 * The downloads for a slice's blocks (sorted by blob and offset): adjacent blocks, or blocks apart
 * by at most `maxGap` bytes, share one ranged GET.
 */
export function rangesOf(blocks: readonly HourBlock[], maxGap: number): BlobRange[] {
  const ranges: BlobRange[] = [];
  for (const block of blocks) {
    const last = ranges[ranges.length - 1];
    if (
      last &&
      last.sequence === block.sequence &&
      block.offset - (last.offset + last.count) <= maxGap
    ) {
      last.count = block.offset + block.size - last.offset;
    } else {
      ranges.push({ sequence: block.sequence, offset: block.offset, count: block.size });
    }
  }
  return ranges;
}
