"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_MAX_SHARD_CHARS = exports.LAST_NAME_SHARD_TYPE = void 0;
exports.entityLastNameStore = entityLastNameStore;
/**
 * Organisation-wide last-name index, option 3: index entities in `EmployeeIndex`. Partition
 * `lastname_<name>` holds the member list (a JSON array of `Dept/000223`) in one or more shard
 * entities `part_000`, `part_001`, ...; one partition query reads every shard.
 *
 * Size limit: a string property holds at most 64 KiB (32 K UTF-16 characters) and an entity 1 MiB.
 * A shard is kept under `maxShardChars` (default 30,000 characters); an addition that would pass it
 * goes into the first shard with room, or a new shard. Up to 1,000 shards per name (~ 400,000
 * members) — far beyond any real last name.
 */
const data_tables_1 = require("@azure/data-tables");
const tables_1 = require("../directory/tables");
const errors_1 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const lastNameStore_1 = require("./lastNameStore");
/** Entity type of a shard. */
exports.LAST_NAME_SHARD_TYPE = 'OrgLastNameIndex.v1';
/** Default characters of member list per shard (a string property holds 32 K characters). */
exports.DEFAULT_MAX_SHARD_CHARS = 30_000;
/** Builds the option-3 store over the `EmployeeIndex` table client. */
function entityLastNameStore(table, options = {}) {
    const maxChars = options.maxShardChars ?? exports.DEFAULT_MAX_SHARD_CHARS;
    const readShards = async (partitionKey) => {
        await (0, tables_1.ensureTable)(table);
        return (0, errors_1.withStorageErrors)(async () => {
            const shards = [];
            for await (const entity of table.listEntities({
                queryOptions: { filter: (0, data_tables_1.odata) `PartitionKey eq ${partitionKey}` },
            })) {
                const number = (0, keys_1.parseOrgLastNameShardRowKey)(entity.rowKey ?? '');
                if (number === undefined || entity.EntityType !== exports.LAST_NAME_SHARD_TYPE)
                    continue;
                shards.push({ number, members: (0, lastNameStore_1.parseMemberList)(entity.Members), etag: entity.etag });
            }
            return shards;
        });
    };
    const shardEntity = (partitionKey, lastName, number, members) => ({
        partitionKey,
        rowKey: (0, keys_1.orgLastNameShardRowKey)(number),
        EntityType: exports.LAST_NAME_SHARD_TYPE,
        LastName: lastName,
        Members: JSON.stringify(members),
    });
    return {
        add: (lastName, member) => {
            const name = (0, keys_1.normalizeLastName)(lastName);
            const partitionKey = (0, keys_1.orgLastNamePartitionKey)(name);
            const encoded = (0, lastNameStore_1.encodeMember)(member);
            return (0, lastNameStore_1.untilWritten)(`Last-name index "${name}"`, async () => {
                const shards = await readShards(partitionKey);
                if (shards.some((s) => s.members.includes(encoded)))
                    return false;
                const fits = shards.find((s) => JSON.stringify([...s.members, encoded]).length <= maxChars);
                if (fits) {
                    const members = [...fits.members, encoded].sort();
                    return (0, lastNameStore_1.writeOrRetry)(() => table.updateEntity(shardEntity(partitionKey, name, fits.number, members), 'Replace', {
                        etag: fits.etag,
                    }));
                }
                const used = new Set(shards.map((s) => s.number));
                let number = 0;
                while (used.has(number))
                    number++;
                return (0, lastNameStore_1.writeOrRetry)(() => table.createEntity(shardEntity(partitionKey, name, number, [encoded])));
            });
        },
        remove: (lastName, member) => {
            const name = (0, keys_1.normalizeLastName)(lastName);
            const partitionKey = (0, keys_1.orgLastNamePartitionKey)(name);
            const encoded = (0, lastNameStore_1.encodeMember)(member);
            return (0, lastNameStore_1.untilWritten)(`Last-name index "${name}"`, async () => {
                const shards = await readShards(partitionKey);
                const holding = shards.find((s) => s.members.includes(encoded));
                if (!holding)
                    return false;
                const members = holding.members.filter((m) => m !== encoded);
                return (0, lastNameStore_1.writeOrRetry)(() => members.length === 0
                    ? table.deleteEntity(partitionKey, (0, keys_1.orgLastNameShardRowKey)(holding.number), {
                        etag: holding.etag,
                    })
                    : table.updateEntity(shardEntity(partitionKey, name, holding.number, members), 'Replace', {
                        etag: holding.etag,
                    }));
            });
        },
        members: async (lastName) => {
            const shards = await readShards((0, keys_1.orgLastNamePartitionKey)((0, keys_1.normalizeLastName)(lastName)));
            return [...new Set(shards.flatMap((s) => s.members))]
                .sort()
                .map((m) => (0, lastNameStore_1.decodeMember)(m))
                .filter((m) => m !== undefined);
        },
        all: async () => {
            await (0, tables_1.ensureTable)(table);
            const range = (0, keys_1.orgLastNamePartitionKeyRange)();
            const byName = new Map();
            await (0, errors_1.withStorageErrors)(async () => {
                for await (const entity of table.listEntities({
                    queryOptions: {
                        filter: (0, data_tables_1.odata) `PartitionKey ge ${range.ge} and PartitionKey lt ${range.lt}`,
                    },
                })) {
                    const name = (0, keys_1.parseOrgLastNamePartitionKey)(entity.partitionKey ?? '');
                    if (name === undefined || entity.EntityType !== exports.LAST_NAME_SHARD_TYPE)
                        continue;
                    const members = (0, lastNameStore_1.parseMemberList)(entity.Members)
                        .map((m) => (0, lastNameStore_1.decodeMember)(m))
                        .filter((m) => m !== undefined);
                    byName.set(name, [...(byName.get(name) ?? []), ...members]);
                }
            });
            return byName;
        },
    };
}
//# sourceMappingURL=lastNameEntityStore.js.map