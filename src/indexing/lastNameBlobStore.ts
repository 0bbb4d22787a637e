/**
 * Organisation-wide last-name index, option 1: one blob per last name in `lastname-index`
 * (`<name>.json`, a JSON document `{"lastName","members":["Dept/000223",...]}`). A blob has no
 * practical size limit here, so no sharding; every change rewrites the blob with `If-Match` (or
 * `If-None-Match: *` when creating it) and retries when another writer got there first.
 */
import type { ContainerClient } from '@azure/storage-blob';
import { ensureContainer } from '../storage/createOnce';
import { isNotFound, toDomainError, tookEffect, withStorageErrors } from '../storage/errors';
import { lastNameBlobName, normalizeLastName, parseLastNameBlobName } from '../storage/keys';
import {
  decodeMember,
  encodeMember,
  changeMember,
  writeOrRetry,
  type EmployeeRef,
  type LastNameStore,
} from './lastNameStore';

interface MemberBlob {
  members: string[];
  etag: string;
}

function toRefs(members: readonly string[]): EmployeeRef[] {
  return members.map((m) => decodeMember(m)).filter((m): m is EmployeeRef => m !== undefined);
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

  const store: LastNameStore = {
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
        return writeOrRetry(() =>
          members.length === 0
            ? container
                .getBlockBlobClient(lastNameBlobName(name))
                .delete({ conditions: { ifMatch: current.etag } })
            : write(name, members, { ifMatch: current.etag }),
        );
      }),

    members: async (lastName) => {
      const current = await read(lastNameBlobName(normalizeLastName(lastName)));
      return toRefs(current?.members ?? []);
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
  return store;
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
