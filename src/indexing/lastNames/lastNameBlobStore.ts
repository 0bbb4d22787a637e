/**
 * Organisation-wide last-name index, option 1: one blob per last name in `lastname-index`
 * (`<name>.json`, a JSON document `{"lastName","members":["Dept/000223",...]}`). A blob has no
 * practical size limit here, so no sharding; every change rewrites the blob with `If-Match` (or
 * `If-None-Match: *` when creating it) and retries when another writer got there first. A slice
 * of a long list is read by ranges (lastNameBlobSlices.ts).
 */
import type { ContainerClient } from '@azure/storage-blob';
import { ensureContainer } from '../../storage/createOnce';
import {
  isNotFound,
  toDomainError,
  tookEffect,
  withStorageErrors,
} from '../../storage/storageFaults';
import { lastNameBlobName, parseLastNameBlobName } from '../../storage/keys/tables/employeeIndex';
import { normalizeLastName } from '../../storage/keys/text';
import {
  encodeMember,
  changeMember,
  parseMemberPosition,
  toRefs,
  writeOrRetry,
  type EmployeeRef,
  type LastNameStore,
  type ListChange,
  type MemberListSnapshot,
  type MemberSlice,
  type MembershipPage,
  type Membership,
} from './lastNameStore';
import { oneByOne } from './listBatches';
import { readMemberSlice } from './lastNameBlobSlices';

/** A member list as stored, with the ETag of that very content. */
interface MemberBlob {
  members: string[];
  etag: string;
}

/** The condition of a list's upload: the ETag read, or that there was none. */
type UploadCondition = { ifMatch?: string; ifNoneMatch?: string };

/** Builds the option-1 store over the `lastname-index` container client. */
export function blobLastNameStore(container: ContainerClient): LastNameStore {
  const store: Pick<LastNameStore, 'snapshot' | 'change'> = {
    snapshot: (lastName) => snapshotList(container, lastName),
    change: (snapshot, add, remove) => changeList(container, { snapshot, add, remove }),
  };
  return {
    ...store,
    // One blob per list: a batch is each list on its own.
    ...oneByOne(store),
    add: (lastName, member) => changeMemberBlob(container, lastName, member, true),
    remove: (lastName, member) => changeMemberBlob(container, lastName, member, false),
    members: (lastName) => listMembers(container, lastName),
    membersPage: (lastName, after, limit) => memberSlice(container, lastName, after, limit),
    listPage: (after, limit) => membershipPage(container, after, limit),
    all: () => allLists(container),
  };
}

/**
 * One list's blob, `undefined` when there is none.
 *
 * @throws {DomainError} for storage faults.
 */
async function readMemberBlob(
  container: ContainerClient,
  blobName: string,
): Promise<MemberBlob | undefined> {
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
}

/** Uploads a name's whole list under `condition` (the SDK's error as it comes: callers judge). */
function uploadMembers(
  container: ContainerClient,
  name: string,
  members: string[],
  condition: UploadCondition,
) {
  const body = JSON.stringify({ lastName: name, members });
  return container
    .getBlockBlobClient(lastNameBlobName(name))
    .upload(body, Buffer.byteLength(body), {
      conditions: condition,
      blobHTTPHeaders: { blobContentType: 'application/json' },
    });
}

/** {@link LastNameStore.snapshot}: the blob's members and ETag. */
async function snapshotList(
  container: ContainerClient,
  lastName: string,
): Promise<MemberListSnapshot> {
  const name = normalizeLastName(lastName);
  const current = await readMemberBlob(container, lastNameBlobName(name));
  return { lastName: name, members: current?.members ?? [], version: current?.etag };
}

/** {@link LastNameStore.change}: one upload conditional on the snapshot's ETag. */
async function changeList(
  container: ContainerClient,
  { snapshot, add, remove }: ListChange,
): Promise<MemberListSnapshot | undefined> {
  const etag = snapshot.version as string | undefined;
  const name = snapshot.lastName;
  const removed = new Set(remove.map(encodeMember));
  const kept = snapshot.members.filter((m) => !removed.has(m));
  const members = [...new Set([...kept, ...add.map(encodeMember)])].sort();
  // Written even when nothing changed, and kept when emptied (see LastNameStore.change).
  let written: string | undefined;
  const applied = await tookEffect(async () => {
    const condition = etag ? { ifMatch: etag } : { ifNoneMatch: '*' };
    written = (await uploadMembers(container, name, members, condition)).etag;
  });
  if (!applied) return undefined;
  return written === undefined
    ? snapshotList(container, name)
    : { lastName: name, members, version: written };
}

/**
 * {@link LastNameStore.add} and {@link LastNameStore.remove}: read, then an upload conditional on
 * what was read; `false` when the member was already on (off) the list.
 */
function changeMemberBlob(
  container: ContainerClient,
  lastName: string,
  member: EmployeeRef,
  listed: boolean,
): Promise<boolean> {
  return changeMember('Last-name index blob', lastName, member, async (name, encoded) => {
    const current = await readMemberBlob(container, lastNameBlobName(name));
    if ((current?.members.includes(encoded) ?? false) === listed) return false;
    const others = (current?.members ?? []).filter((m) => m !== encoded);
    // An emptied list is kept, never deleted: lists never go back to absent (see `change`).
    const members = listed ? [...others, encoded].sort() : others;
    const condition = current ? { ifMatch: current.etag } : { ifNoneMatch: '*' };
    return writeOrRetry(() => uploadMembers(container, name, members, condition));
  });
}

/** {@link LastNameStore.members}: the whole blob. */
async function listMembers(container: ContainerClient, lastName: string): Promise<EmployeeRef[]> {
  const current = await readMemberBlob(container, lastNameBlobName(normalizeLastName(lastName)));
  return toRefs(current?.members ?? []);
}

/** {@link LastNameStore.membersPage}: ranged reads of the blob (lastNameBlobSlices.ts). */
async function memberSlice(
  container: ContainerClient,
  lastName: string,
  after: string | undefined,
  limit: number,
): Promise<MemberSlice> {
  const start = after === undefined ? undefined : parseMemberPosition(after, 12);
  await ensureContainer(container);
  const blob = container.getBlobClient(lastNameBlobName(normalizeLastName(lastName)));
  return readMemberSlice(blob, start, limit);
}

/** {@link LastNameStore.listPage}: one page of the container's listing, then each list read. */
async function membershipPage(
  container: ContainerClient,
  after: string | undefined,
  limit: number,
): Promise<MembershipPage> {
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
    const current = lastName === undefined ? undefined : await readMemberBlob(container, blobName);
    for (const member of toRefs(current?.members ?? [])) {
      memberships.push({ lastName: lastName!, member });
    }
  }
  return { memberships, next };
}

/** {@link LastNameStore.all}: every blob of the container, read one after the other. */
async function allLists(container: ContainerClient): Promise<Map<string, EmployeeRef[]>> {
  await ensureContainer(container);
  const names: string[] = [];
  await withStorageErrors(async () => {
    for await (const blob of container.listBlobsFlat()) names.push(blob.name);
  });
  const byName = new Map<string, EmployeeRef[]>();
  for (const blobName of names) {
    const name = parseLastNameBlobName(blobName);
    const current = name === undefined ? undefined : await readMemberBlob(container, blobName);
    // A list the drain emptied is kept as a fence (see `change`); it lists nobody.
    if (name !== undefined && current?.members.length) {
      byName.set(name, toRefs(current.members));
    }
  }
  return byName;
}

/** The members of a blob's JSON; none when it does not parse. */
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
