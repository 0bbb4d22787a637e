"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ensureContainer = ensureContainer;
exports.blobLastNameStore = blobLastNameStore;
const errors_1 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const lastNameStore_1 = require("./lastNameStore");
const createdContainers = new WeakMap();
/**
 * Creates the container on first use, once per process and client.
 *
 * @throws {DomainError} when storage refuses or cannot be reached.
 */
async function ensureContainer(container) {
    let pending = createdContainers.get(container);
    if (!pending) {
        pending = (0, errors_1.withStorageErrors)(() => container.createIfNotExists());
        createdContainers.set(container, pending);
        pending.catch(() => createdContainers.delete(container));
    }
    await pending;
}
function toRefs(members) {
    return members.map((m) => (0, lastNameStore_1.decodeMember)(m)).filter((m) => m !== undefined);
}
/** Builds the option-1 store over the `lastname-index` container client. */
function blobLastNameStore(container) {
    const read = async (blobName) => {
        await ensureContainer(container);
        try {
            // One download gives the content and the ETag of that very content.
            const response = await container.getBlockBlobClient(blobName).download();
            const chunks = [];
            for await (const chunk of response.readableStreamBody ?? []) {
                chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
            }
            return { members: parseMembers(Buffer.concat(chunks)), etag: response.etag ?? '' };
        }
        catch (error) {
            if ((0, errors_1.isNotFound)(error))
                return undefined;
            throw (0, errors_1.toDomainError)(error);
        }
    };
    const write = (name, members, condition) => {
        const body = JSON.stringify({ lastName: name, members });
        return container
            .getBlockBlobClient((0, keys_1.lastNameBlobName)(name))
            .upload(body, Buffer.byteLength(body), {
            conditions: condition,
            blobHTTPHeaders: { blobContentType: 'application/json' },
        });
    };
    return {
        add: (lastName, member) => {
            const name = (0, keys_1.normalizeLastName)(lastName);
            const encoded = (0, lastNameStore_1.encodeMember)(member);
            return (0, lastNameStore_1.untilWritten)(`Last-name index blob "${name}"`, async () => {
                const current = await read((0, keys_1.lastNameBlobName)(name));
                if (current?.members.includes(encoded))
                    return false;
                const members = [...(current?.members ?? []), encoded].sort();
                return (0, lastNameStore_1.writeOrRetry)(() => write(name, members, current ? { ifMatch: current.etag } : { ifNoneMatch: '*' }));
            });
        },
        remove: (lastName, member) => {
            const name = (0, keys_1.normalizeLastName)(lastName);
            const encoded = (0, lastNameStore_1.encodeMember)(member);
            return (0, lastNameStore_1.untilWritten)(`Last-name index blob "${name}"`, async () => {
                const current = await read((0, keys_1.lastNameBlobName)(name));
                if (!current?.members.includes(encoded))
                    return false;
                const members = current.members.filter((m) => m !== encoded);
                return (0, lastNameStore_1.writeOrRetry)(() => members.length === 0
                    ? container
                        .getBlockBlobClient((0, keys_1.lastNameBlobName)(name))
                        .delete({ conditions: { ifMatch: current.etag } })
                    : write(name, members, { ifMatch: current.etag }));
            });
        },
        members: async (lastName) => {
            const current = await read((0, keys_1.lastNameBlobName)((0, keys_1.normalizeLastName)(lastName)));
            return toRefs(current?.members ?? []);
        },
        all: async () => {
            await ensureContainer(container);
            const names = [];
            await (0, errors_1.withStorageErrors)(async () => {
                for await (const blob of container.listBlobsFlat())
                    names.push(blob.name);
            });
            const byName = new Map();
            for (const blobName of names) {
                const name = (0, keys_1.parseLastNameBlobName)(blobName);
                const current = name === undefined ? undefined : await read(blobName);
                if (name !== undefined && current)
                    byName.set(name, toRefs(current.members));
            }
            return byName;
        },
    };
}
function parseMembers(buffer) {
    try {
        const parsed = JSON.parse(buffer.toString('utf8'));
        return Array.isArray(parsed.members)
            ? parsed.members.filter((m) => typeof m === 'string')
            : [];
    }
    catch {
        return [];
    }
}
//# sourceMappingURL=lastNameBlobStore.js.map