"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const loginDayTables_1 = require("../../src/logins/loginDayTables");
const keys_1 = require("../../src/storage/keys");
const USERS = 200;
const DAY = Date.parse('2026-03-01T00:00:00Z');
/** One day of attempts: `count` entities spread over {@link USERS} user partitions. */
function attemptsByUser(count) {
    const byUser = new Map();
    for (let i = 0; i < count; i++) {
        const partitionKey = (0, keys_1.loginAttemptPartitionKey)(`user${i % USERS}@contoso.com`);
        const at = new Date(DAY + Math.floor((i * 86_400_000) / count));
        const action = [
            'upsert',
            {
                partitionKey,
                rowKey: (0, keys_1.invertedTicksRowKey)(at, i.toString(16).padStart(8, '0')),
                EntityType: 'LoginAttempt.v1',
                Succeeded: i % 7 !== 0,
                Ip: '203.0.113.7',
            },
            'Replace',
        ];
        byUser.set(partitionKey, [...(byUser.get(partitionKey) ?? []), action]);
    }
    return byUser;
}
/** Seeds with EGT upserts of up to 100 entities (one partition each), four transactions at a time. */
async function seed(table, count) {
    await table.createTable();
    const batches = [];
    for (const actions of attemptsByUser(count).values()) {
        for (let i = 0; i < actions.length; i += 100)
            batches.push(actions.slice(i, i + 100));
    }
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
        while (next < batches.length)
            await table.submitTransaction(batches[next++]);
    }));
}
/** The baseline's clean-up: list the keys of every entity, delete them 100 per transaction. */
async function deleteEntityByEntity(table) {
    const byPartition = new Map();
    for await (const entity of table.listEntities({
        queryOptions: { select: ['PartitionKey', 'RowKey'] },
    })) {
        byPartition.set(entity.partitionKey, [
            ...(byPartition.get(entity.partitionKey) ?? []),
            entity.rowKey,
        ]);
    }
    let deleted = 0;
    for (const [partitionKey, rowKeys] of byPartition) {
        for (let i = 0; i < rowKeys.length; i += 100) {
            await table.submitTransaction(rowKeys
                .slice(i, i + 100)
                .map((rowKey) => ['delete', { partitionKey, rowKey }]));
            deleted += Math.min(100, rowKeys.length - i);
        }
    }
    return deleted;
}
async function count(table) {
    let n = 0;
    for await (const _ of table.listEntities({ queryOptions: { select: ['RowKey'] } }))
        n++;
    return n;
}
const dropDay = {
    name: 'logins: delete one day of attempts (drop the day table vs batch deletes)',
    async run(env) {
        const attempts = env.size(20_000);
        const prefix = env.uniqueName('LoginBench', { table: true });
        const tables = new loginDayTables_1.LoginDayTables(env.clients, prefix);
        const dayTable = tables.clientOf(new Date(DAY));
        const keptTable = env.clients.table(env.uniqueName('LoginBenchKept', { table: true }));
        await seed(dayTable, attempts);
        await seed(keptTable, attempts);
        const pattern = await env.measure('drop the day table', attempts, async () => {
            const outcome = await tables.drop(dayTable.tableName);
            if (outcome !== 'dropped')
                throw new Error(`The day table was ${outcome}.`);
            return { entities: 0 };
        });
        const baseline = await env.measure('list + EGT deletes of 100', attempts, async () => {
            const deleted = await deleteEntityByEntity(keptTable);
            if (deleted !== attempts)
                throw new Error(`Deleted ${deleted} of ${attempts} attempts.`);
            return { entities: attempts };
        });
        const left = await count(keptTable);
        await env.clients.tableService().deleteTable(keptTable.tableName);
        if (left !== 0)
            throw new Error(`${left} attempts survived the batch deletes.`);
        return {
            name: `delete one day of ${attempts} login attempts (${USERS} users)`,
            pattern,
            baseline,
            goal: '≥ 500× faster; 1 request against ~1 per 100 entities plus the listing',
            notes: `pattern: ${pattern.requests} request; baseline: ${baseline.requests} requests ` +
                `(${Math.ceil(attempts / 1000)} listing pages + ${Math.ceil(attempts / 100)} transactions). ` +
                'On Azure a deleted table name stays unusable for a while (about 40 s), which is why every day gets a new table.',
        };
    },
};
exports.default = dropDay;
//# sourceMappingURL=logins.js.map