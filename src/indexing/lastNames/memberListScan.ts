/**
 * Reading the member array of a last-name index blob (option 1, lastNameBlobStore.ts) piece by
 * piece: `{"lastName":"…","members":["Dept/000001","Dept/000002",…]}`, members sorted. A member
 * is a department name (letters, digits, space, `-`, `_`), `/` and six digits, so it never holds
 * a `"` or `\` and its JSON string is its text in quotes; `"` (0x22) never occurs inside a
 * multi-byte UTF-8 sequence, so raw byte ranges can be scanned for it.
 */

/** Bytes that open the member array. */
export const MEMBERS_OPENING = Buffer.from('"members":[');

/** One member found in a range: its text and the offset just past its closing quote. */
export interface ScannedMember {
  text: string;
  end: number;
}

/** What {@link scanMembers} found. */
export interface MemberScan {
  members: ScannedMember[];
  /** Where an incomplete member at the end of the range starts (the range's end if none). */
  resume: number;
  /** True once the array's closing `]` was reached. */
  closed: boolean;
}

/**
 * The complete members in `bytes` from index `from`, which is the start of a member (`"`), or the
 * separator or bracket before or after one. Offsets are `base` + index.
 */
export function scanMembers(bytes: Buffer, from: number, base = 0): MemberScan {
  const members: ScannedMember[] = [];
  let i = from;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte === 0x5d /* ] */) return { members, resume: base + i, closed: true };
    if (byte !== 0x22 /* " */) {
      i++;
      continue;
    }
    const close = bytes.indexOf(0x22, i + 1);
    if (close < 0) return { members, resume: base + i, closed: false };
    members.push({ text: bytes.toString('utf8', i + 1, close), end: base + close + 1 });
    i = close + 1;
  }
  return { members, resume: base + bytes.length, closed: false };
}

/**
 * The first whole member starting at or after index `from` of a probe range (after a `,` or `[`),
 * with its start offset; `undefined` when the range reaches the array's end or holds none whole.
 */
export function firstMemberAfter(
  bytes: Buffer,
  from: number,
  base = 0,
): (ScannedMember & { start: number }) | undefined {
  for (let i = from; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x5d /* ] */) return undefined;
    if (byte !== 0x2c /* , */ && byte !== 0x5b /* [ */) continue;
    const scan = scanMembers(bytes, i + 1, base);
    const first = scan.members[0];
    return first && { ...first, start: first.end - Buffer.byteLength(first.text) - 2 };
  }
  return undefined;
}
