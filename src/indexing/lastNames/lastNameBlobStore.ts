/**
 * Organisation-wide last-name index, option 1: one blob per last name in `lastname-index`
 * (`<name>.json`, a JSON document `{"lastName","members":["Dept/000223",...]}`). A blob has no
 * practical size limit here, so no sharding; every change rewrites the blob with `If-Match` (or
 * `If-None-Match: *` when creating it) and retries when another writer got there first.
 */
import type { BlobClient, ContainerClient } from '@azure/storage-blob';
import { ensureContainer } from '../../storage/createOnce';
import {
  isNotFound,
  storageStatus,
  toDomainError,
  tookEffect,
  withStorageErrors,
} from '../../storage/storageFaults';
import { lastNameBlobName, parseLastNameBlobName } from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import {
  decodeMember,
  encodeMember,
  changeMember,
  encodeMemberPosition,
  parseMemberPosition,
  toRefs,
  type MemberPosition,
  writeOrRetry,
  type EmployeeRef,
  type LastNameStore,
  type Membership,
  type MemberSlice,
} from './lastNameStore';
import { oneByOne } from './listBatches';
import {
  firstMemberAfter,
  MEMBERS_OPENING,
  scanMembers,
  type ScannedMember,
} from './memberListScan';

interface MemberBlob {
  members: string[];
  etag: string;
}

/** Builds the option-1 store over the `lastname-index` container client. */
export function blobLastNameStore(container: ContainerClient): LastNameStore {
  const read = async (blobName: string): Promise<MemberBlob | undefined> => {
    await ensureContainer(container);
    try {
      // One download gives the content and the ETag of that very content.
      const response = await container.getBlockBlobClient(blobName).download();
      const chunks: Buffer[] = [];
      for await (const chunk of response.readableStreamBody ?? []) {
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
      }
      return { members: parseMembers(Buffer.concat(chunks)), etag: response.etag ?? '' };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw toDomainError(error);
    }
  };

  const write = (
    name: string,
    members: string[],
    condition: { ifMatch?: string; ifNoneMatch?: string },
  ) => {
    const body = JSON.stringify({ lastName: name, members });
    return container
      .getBlockBlobClient(lastNameBlobName(name))
      .upload(body, Buffer.byteLength(body), {
        conditions: condition,
        blobHTTPHeaders: { blobContentType: 'application/json' },
      });
  };

  const store: Omit<LastNameStore, 'snapshots' | 'changes'> = {
    snapshot: async (lastName) => {
      const name = normalizeLastName(lastName);
      const current = await read(lastNameBlobName(name));
      return { lastName: name, members: current?.members ?? [], version: current?.etag };
    },

    change: async (snapshot, add, remove) => {
      const name = snapshot.lastName;
      const etag = snapshot.version as string | undefined;
      const removed = new Set(remove.map(encodeMember));
      const kept = snapshot.members.filter((m) => !removed.has(m));
      const members = [...new Set([...kept, ...add.map(encodeMember)])].sort();
      // Written even when nothing changed, and kept when emptied (see LastNameStore.change).
      let written: string | undefined;
      const applied = await tookEffect(async () => {
        const condition = etag ? { ifMatch: etag } : { ifNoneMatch: '*' };
        written = (await write(name, members, condition)).etag;
      });
      if (!applied) return undefined;
      return written === undefined
        ? store.snapshot(name)
        : { lastName: name, members, version: written };
    },

    add: (lastName, member) =>
      changeMember('Last-name index blob', lastName, member, async (name, encoded) => {
        const current = await read(lastNameBlobName(name));
        if (current?.members.includes(encoded)) return false;
        const members = [...(current?.members ?? []), encoded].sort();
        return writeOrRetry(() =>
          write(name, members, current ? { ifMatch: current.etag } : { ifNoneMatch: '*' }),
        );
      }),

    remove: (lastName, member) =>
      changeMember('Last-name index blob', lastName, member, async (name, encoded) => {
        const current = await read(lastNameBlobName(name));
        if (!current?.members.includes(encoded)) return false;
        const members = current.members.filter((m) => m !== encoded);
        // An emptied list is kept, never deleted: lists never go back to absent (see `change`).
        return writeOrRetry(() => write(name, members, { ifMatch: current.etag }));
      }),

    members: async (lastName) => {
      const current = await read(lastNameBlobName(normalizeLastName(lastName)));
      return toRefs(current?.members ?? []);
    },

    membersPage: async (lastName, after, limit) => {
      const start = after === undefined ? undefined : parseMemberPosition(after, 12);
      await ensureContainer(container);
      return readMemberSlice(
        container.getBlobClient(lastNameBlobName(normalizeLastName(lastName))),
        start,
        limit,
      );
    },

    listPage: async (after, limit) => {
      await ensureContainer(container);
      const names: string[] = [];
      let next: string | undefined;
      await withStorageErrors(async () => {
        // One page of the service's own listing; its continuation marker is the position.
        const pages = container
          .listBlobsFlat()
          .byPage({ maxPageSize: limit, continuationToken: after });
        for await (const page of pages) {
          for (const blob of page.segment.blobItems) names.push(blob.name);
          next = page.continuationToken || undefined;
          break;
        }
      });
      const memberships: Membership[] = [];
      for (const blobName of names) {
        const lastName = parseLastNameBlobName(blobName);
        const current = lastName === undefined ? undefined : await read(blobName);
        for (const member of toRefs(current?.members ?? [])) {
          memberships.push({ lastName: lastName!, member });
        }
      }
      return { memberships, next };
    },

    all: async () => {
      await ensureContainer(container);
      const names: string[] = [];
      await withStorageErrors(async () => {
        for await (const blob of container.listBlobsFlat()) names.push(blob.name);
      });
      const byName = new Map<string, EmployeeRef[]>();
      for (const blobName of names) {
        const name = parseLastNameBlobName(blobName);
        const current = name === undefined ? undefined : await read(blobName);
        // A list the drain emptied is kept as a fence (see `change`); it lists nobody.
        if (name !== undefined && current?.members.length) {
          byName.set(name, toRefs(current.members));
        }
      }
      return byName;
    },
  };
  // One blob per list: a batch is each list on its own.
  return { ...store, ...oneByOne(store) };
}

function parseMembers(buffer: Buffer): string[] {
  try {
    const parsed = JSON.parse(buffer.toString('utf8')) as { members?: unknown };
    return Array.isArray(parsed.members)
      ? parsed.members.filter((m): m is string => typeof m === 'string')
      : [];
  } catch {
    return [];
  }
}

/** Bytes of one sequential read of a member list, and of one probe of the binary search. */
const CHUNK_BYTES = 64 * 1024;
const PROBE_BYTES = 1024;
/** Sequential reads one slice makes at most (besides the head and the binary search). */
const MAX_SCAN_READS = 4;

interface Range {
  bytes: Buffer;
  base: number;
  /** The blob's length. */
  size: number;
}

/**
 * A slice of a member-list blob by ranged GETs (a position's number is the byte offset just past
 * its member's closing quote): the head (up to 64 KiB, which holds the whole
 * list of most names); then, to resume, the bytes at the position's offset if they still end with
 * its member (the list did not change before it), else a binary search over the sorted list
 * (about log2(size / 64 KiB) probes of 1 KiB); then up to {@link MAX_SCAN_READS} reads forward.
 */
async function readMemberSlice(
  blob: BlobClient,
  start: MemberPosition | undefined,
  limit: number,
): Promise<MemberSlice> {
  const read = async (offset: number, count: number): Promise<Range | undefined> => {
    try {
      const response = await blob.download(offset, count);
      const chunks: Buffer[] = [];
      for await (const chunk of response.readableStreamBody ?? []) chunks.push(chunk as Buffer);
      const total = /\/(\d+)$/.exec(response.contentRange ?? '')?.[1];
      const bytes = Buffer.concat(chunks);
      return { bytes, base: offset, size: total ? Number(total) : offset + bytes.length };
    } catch (error) {
      // No list, or nothing at that offset any more (416).
      if (isNotFound(error) || storageStatus(error) === 416) return undefined;
      throw toDomainError(error);
    }
  };
  const head = await read(0, CHUNK_BYTES);
  const opening = head?.bytes.indexOf(MEMBERS_OPENING) ?? -1;
  if (!head || opening < 0) return { members: [], next: undefined };
  const size = head.size;
  const arrayStart = opening + MEMBERS_OPENING.length - 1;

  let position = arrayStart;
  let chunk: Range | undefined = head;
  if (start) {
    const quoted = Buffer.from(`"${start.member}"`);
    const at = start.number - quoted.length;
    const hint =
      start.member !== '' && at > arrayStart && start.number <= size
        ? start.number + CHUNK_BYTES <= head.bytes.length
          ? head
          : await read(at, CHUNK_BYTES)
        : undefined;
    if (hint?.bytes.subarray(at - hint.base, at - hint.base + quoted.length).equals(quoted)) {
      position = start.number;
      chunk = hint;
    } else {
      position = await locate(read, start.member, arrayStart, size);
      chunk = position + PROBE_BYTES <= head.bytes.length ? head : undefined;
    }
  }

  const taken: ScannedMember[] = [];
  let lastScanned = start?.member ?? '';
  let closed = false;
  let reads = 0;
  scan: while (taken.length < limit) {
    if (!chunk || position >= chunk.base + chunk.bytes.length) {
      if (position >= size || reads >= MAX_SCAN_READS) break;
      reads++;
      chunk = await read(position, CHUNK_BYTES);
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
    if (found.closed) {
      closed = true;
      break;
    }
    position = found.resume;
    chunk = undefined;
  }
  const members = taken
    .map((m) => decodeMember(m.text))
    .filter((m): m is EmployeeRef => m !== undefined);
  if (closed || position >= size) return { members, next: undefined };
  // Nothing past the start scanned (only with an unlikely read cap): resume where this one did.
  if (taken.length === 0 && start) return { members, next: encodeMemberPosition(start) };
  return { members, next: encodeMemberPosition({ number: position, member: lastScanned }) };
}

/**
 * The offset from which the first member after `target` is at most about one chunk away: a
 * binary search over the sorted member array by 1 KiB probes.
 */
async function locate(
  read: (offset: number, count: number) => Promise<Range | undefined>,
  target: string,
  arrayStart: number,
  size: number,
): Promise<number> {
  let lo = arrayStart;
  let hi = size;
  while (hi - lo > CHUNK_BYTES) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const probe = await read(mid, PROBE_BYTES);
    const member = probe && firstMemberAfter(probe.bytes, 0, mid);
    if (member && member.text <= target) lo = member.end;
    else hi = member && member.start < hi ? member.start : mid;
  }
  return lo;
}
