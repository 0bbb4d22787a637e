"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MessageStats = exports.DEFAULT_MAX_INCREMENT_ATTEMPTS = exports.MAX_MESSAGE_COUNT = void 0;
const node_crypto_1 = require("node:crypto");
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const clock_1 = require("../time/clock");
const instants_1 = require("../time/instants");
const tables_1 = require("../time/tables");
const counterProperties_1 = require("./counterProperties");
/** Largest count one call may add. */
exports.MAX_MESSAGE_COUNT = 1_000_000;
/** Read-modify-write rounds before an increment gives up under extreme contention. */
exports.DEFAULT_MAX_INCREMENT_ATTEMPTS = 200;
/** Rounds whose outcome a lost connection hid, before the failure is reported. */
const MAX_UNKNOWN_OUTCOMES = 3;
const DAY_ENTITY_TYPE = 'MessageStatsDay.v1';
const YEAR_ENTITY_TYPE = 'MessageStatsYear.v1';
const HOUR_PROPERTIES = Array.from({ length: 24 }, (_, hour) => (0, counterProperties_1.hourProperty)(hour));
/** Hourly and daily message counters of every employee. */
class MessageStats {
    table;
    clock;
    maxAttempts;
    /**
     * @param table - the `MessageStats` table (created on first use).
     * @param clock - supplies "now" for increments without a time.
     * @param maxAttempts - read-modify-write rounds before giving up.
     */
    constructor(table, clock = clock_1.systemClock, maxAttempts = exports.DEFAULT_MAX_INCREMENT_ATTEMPTS) {
        this.table = table;
        this.clock = clock;
        this.maxAttempts = maxAttempts;
    }
    /**
     * Adds `count` to the hour's counter of the day entity and to the day's counter of the year
     * entity, in one entity group transaction.
     *
     * @returns how many read-modify-write rounds it took (1 without contention).
     * @throws {ValidationError} for an invalid department, employee id, count or time.
     * @throws {ThrottledError} when other writers won every round for {@link DEFAULT_MAX_INCREMENT_ATTEMPTS} rounds.
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async record(department, employeeId, input = {}) {
        const partitionKey = (0, keys_1.employeePartitionKey)(department, employeeId);
        const count = input.count ?? 1;
        if (!Number.isInteger(count) || count < 1 || count > exports.MAX_MESSAGE_COUNT) {
            throw new errors_1.ValidationError(`body.count: must be a whole number from 1 to ${exports.MAX_MESSAGE_COUNT}.`, 'body.count');
        }
        const at = input.at ?? this.clock();
        (0, instants_1.assertStorableInstant)(at, 'body.at');
        const dayOfYear = (0, instants_1.utcDayOfYear)(at);
        const part = (0, counterProperties_1.yearPartOf)(dayOfYear);
        const day = {
            rowKey: (0, keys_1.hourlyStatsRowKey)(at),
            property: (0, counterProperties_1.hourProperty)(at.getUTCHours()),
            all: HOUR_PROPERTIES,
            entityType: DAY_ENTITY_TYPE,
        };
        const year = {
            rowKey: (0, keys_1.yearlyStatsRowKeys)(at.getUTCFullYear())[part - 1],
            property: (0, counterProperties_1.dayProperty)(dayOfYear),
            all: (0, counterProperties_1.daysOfPart)(part).map(counterProperties_1.dayProperty),
            entityType: YEAR_ENTITY_TYPE,
        };
        // Marks the entities this increment wrote, so a retry after a lost response does not add twice.
        const operationId = (0, node_crypto_1.randomBytes)(8).toString('hex');
        await (0, tables_1.ensureTableOnce)(this.table);
        let unknownOutcomes = 0;
        for (let round = 1; round <= this.maxAttempts; round++) {
            // Only the counter to change and the marker are needed, not all 24 or 183 counters.
            const [dayEntity, yearEntity] = await Promise.all([
                this.read(partitionKey, day.rowKey, [day.property, 'LastOperation']),
                this.read(partitionKey, year.rowKey, [year.property, 'LastOperation']),
            ]);
            if (round > 1 && dayEntity?.LastOperation === operationId)
                return { rounds: round - 1 };
            const actions = [
                incrementAction(partitionKey, day, dayEntity, count, operationId),
                incrementAction(partitionKey, year, yearEntity, count, operationId),
            ];
            try {
                await this.table.submitTransaction(actions);
                return { rounds: round };
            }
            catch (error) {
                const status = (0, errors_2.storageStatus)(error);
                // 412: an ETag moved; 409: another writer created the entity first; 404: it was deleted.
                if (status === 412 || status === 409 || status === 404) {
                    await pause(Math.random() * Math.min(1_000, 10 * 2 ** round));
                    continue;
                }
                // A connection lost mid-answer leaves the outcome unknown: the next round's read tells
                // (LastOperation), so only a few such rounds are allowed before giving up.
                const failure = (0, errors_2.toDomainError)(error);
                if (!(failure instanceof errors_1.UnavailableError) || ++unknownOutcomes > MAX_UNKNOWN_OUTCOMES)
                    throw failure;
            }
        }
        throw new errors_1.ThrottledError(`The message counters of ${department}/${employeeId} are contended: ${this.maxAttempts} attempts lost the race.`, 1);
    }
    /**
     * The 24 hourly counts of one UTC day: one point read; a day without messages is 24 zeros.
     *
     * @throws {ValidationError} for an invalid department, employee id or day.
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async hourly(department, employeeId, day) {
        const partitionKey = (0, keys_1.employeePartitionKey)(department, employeeId);
        (0, instants_1.assertStorableInstant)(day, 'query.day');
        await (0, tables_1.ensureTableOnce)(this.table);
        const entity = await this.read(partitionKey, (0, keys_1.hourlyStatsRowKey)(day));
        return HOUR_PROPERTIES.map((name) => (0, counterProperties_1.counterValue)(entity?.[name]));
    }
    /**
     * The daily counts of one year, 365 or 366 numbers: two point reads (one per physical part).
     *
     * @throws {ValidationError} for an invalid department, employee id or year (1601–9999).
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async daily(department, employeeId, year) {
        const partitionKey = (0, keys_1.employeePartitionKey)(department, employeeId);
        const [part1Key, part2Key] = (0, keys_1.yearlyStatsRowKeys)(year);
        await (0, tables_1.ensureTableOnce)(this.table);
        const [part1, part2] = await Promise.all([
            this.read(partitionKey, part1Key),
            this.read(partitionKey, part2Key),
        ]);
        return Array.from({ length: (0, instants_1.daysInYear)(year) }, (_, i) => {
            const dayOfYear = i + 1;
            return (0, counterProperties_1.counterValue)(((0, counterProperties_1.yearPartOf)(dayOfYear) === 1 ? part1 : part2)?.[(0, counterProperties_1.dayProperty)(dayOfYear)]);
        });
    }
    /** Point read; `select` limits the properties returned (the ETag always comes back). */
    async read(partitionKey, rowKey, select) {
        try {
            return await (0, errors_2.withStorageErrors)(() => this.table.getEntity(partitionKey, rowKey, select ? { queryOptions: { select } } : {}));
        }
        catch (error) {
            if (error instanceof errors_1.NotFoundError)
                return undefined;
            throw error;
        }
    }
}
exports.MessageStats = MessageStats;
/** Create the entity with the counter set, or merge the new counter value if the ETag still matches. */
function incrementAction(partitionKey, target, existing, count, operationId) {
    if (existing === undefined) {
        const counters = Object.fromEntries(target.all.map((name) => [name, 0n]));
        return [
            'create',
            {
                partitionKey,
                rowKey: target.rowKey,
                EntityType: target.entityType,
                ...counters,
                [target.property]: BigInt(count),
                LastOperation: operationId,
            },
        ];
    }
    return [
        'update',
        {
            partitionKey,
            rowKey: target.rowKey,
            [target.property]: BigInt((0, counterProperties_1.counterValue)(existing[target.property]) + count),
            LastOperation: operationId,
        },
        'Merge',
        { etag: existing.etag },
    ];
}
function pause(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
//# sourceMappingURL=messageStats.js.map