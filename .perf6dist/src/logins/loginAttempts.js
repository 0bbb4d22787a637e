"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LoginAttempts = exports.MAX_FUTURE_SKEW_MS = exports.MAX_IP_LENGTH = exports.MAX_LOGIN_TOP = exports.DEFAULT_LOGIN_DAYS = exports.LOGIN_READ_CONCURRENCY = void 0;
/**
 * Login attempts, stored in one table per UTC day (see {@link LoginDayTables}). Inside a day table
 * the PartitionKey is the user id, so one user's attempts are one partition, and the RowKey is
 * inverted ticks, so they read newest first.
 *
 * Attempts are accepted only inside the window the tables keep: not older than the retention (a
 * table that old is about to be dropped) and not more than one day in the future (clock skew).
 */
const data_tables_1 = require("@azure/data-tables");
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const clock_1 = require("../time/clock");
const instants_1 = require("../time/instants");
const timeKeyedInsert_1 = require("../time/timeKeyedInsert");
const mapBounded_1 = require("./mapBounded");
const ENTITY_TYPE = 'LoginAttempt.v1';
/** Day tables read at the same time by {@link LoginAttempts.recent}. */
exports.LOGIN_READ_CONCURRENCY = 8;
/** Days read when the caller does not say. */
exports.DEFAULT_LOGIN_DAYS = 7;
/** Most attempts one read returns. */
exports.MAX_LOGIN_TOP = 1_000;
/** Longest accepted IP address text (IPv6 with zone is under this). */
exports.MAX_IP_LENGTH = 64;
/** How far in the future an attempt may be stamped (client clock skew). */
exports.MAX_FUTURE_SKEW_MS = instants_1.MS_PER_DAY;
/** Records and reads login attempts across the day tables. */
class LoginAttempts {
    tables;
    retentionDays;
    clock;
    /**
     * @param tables - the day tables.
     * @param retentionDays - days of attempts kept (config `LOGIN_RETENTION_DAYS`).
     * @param clock - supplies "now".
     */
    constructor(tables, retentionDays, clock = clock_1.systemClock) {
        this.tables = tables;
        this.retentionDays = retentionDays;
        this.clock = clock;
    }
    /**
     * Stores one attempt in the table of its UTC day, creating the table if needed.
     *
     * @throws {ValidationError} for an invalid user id or ip, or a time outside the kept window.
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async record(input) {
        const now = this.clock();
        const at = input.at ?? now;
        (0, instants_1.assertStorableInstant)(at, 'body.at');
        if (at.getTime() < now.getTime() - this.retentionDays * instants_1.MS_PER_DAY) {
            throw new errors_1.ValidationError(`body.at: ${at.toISOString()} is older than the ${this.retentionDays}-day retention of login attempts.`, 'body.at', 'InvalidTime');
        }
        if (at.getTime() > now.getTime() + exports.MAX_FUTURE_SKEW_MS) {
            throw new errors_1.ValidationError(`body.at: ${at.toISOString()} is more than one day in the future.`, 'body.at', 'InvalidTime');
        }
        if (input.ip !== undefined && (input.ip.length === 0 || input.ip.length > exports.MAX_IP_LENGTH)) {
            throw new errors_1.ValidationError(`body.ip: must be 1-${exports.MAX_IP_LENGTH} characters.`, 'body.ip');
        }
        const partitionKey = (0, keys_1.loginAttemptPartitionKey)(input.userId);
        const table = this.tables.clientOf(at);
        const makeEntity = (suffix) => ({
            partitionKey,
            rowKey: (0, keys_1.invertedTicksRowKey)(at, suffix),
            EntityType: ENTITY_TYPE,
            Succeeded: input.succeeded,
            ...(input.ip === undefined ? {} : { Ip: input.ip }),
        });
        await this.tables.ensure(at);
        let stored;
        try {
            stored = await (0, timeKeyedInsert_1.insertTimeKeyed)(table, makeEntity);
        }
        catch (error) {
            if (!(error instanceof errors_1.NotFoundError))
                throw error;
            // The table is gone (dropped by hand, or the process's cache is stale): create it, retry once.
            this.tables.forget(table.tableName);
            await this.tables.ensure(at);
            stored = await (0, timeKeyedInsert_1.insertTimeKeyed)(table, makeEntity);
        }
        return { attempt: toAttempt(stored.entity), etag: stored.etag, table: table.tableName };
    }
    /**
     * The newest `top` attempts of one user in the last `days` UTC days (today included, plus
     * tomorrow's table, which holds attempts stamped slightly ahead), newest first. Day tables are
     * read in parallel, at most {@link LOGIN_READ_CONCURRENCY} at a time; a missing table is an
     * empty day.
     *
     * @throws {ValidationError} for an invalid user id, `days` outside 1–retention or `top` outside 1–1000.
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async recent(userId, days = exports.DEFAULT_LOGIN_DAYS, top = exports.MAX_LOGIN_TOP) {
        if (!Number.isInteger(days) || days < 1 || days > this.retentionDays) {
            throw new errors_1.ValidationError(`query.days: must be a whole number from 1 to the retention of ${this.retentionDays} days.`, 'query.days');
        }
        if (!Number.isInteger(top) || top < 1 || top > exports.MAX_LOGIN_TOP) {
            throw new errors_1.ValidationError(`query.top: must be a whole number from 1 to ${exports.MAX_LOGIN_TOP}.`, 'query.top');
        }
        const partitionKey = (0, keys_1.loginAttemptPartitionKey)(userId);
        const today = (0, instants_1.startOfUtcDay)(this.clock());
        // Newest day first: the tables hold disjoint days, so concatenating keeps newest-first order.
        const daysToRead = Array.from({ length: days + 1 }, (_, i) => (0, instants_1.addUtcDays)(today, 1 - i));
        const perDay = await (0, mapBounded_1.mapBounded)(daysToRead, exports.LOGIN_READ_CONCURRENCY, (day) => readDay(this.tables.clientOf(day), partitionKey, top));
        return perDay.flat().slice(0, top);
    }
}
exports.LoginAttempts = LoginAttempts;
/** The newest `top` attempts of one partition of one day table; none if the table is missing. */
async function readDay(table, partitionKey, top) {
    const pages = table
        .listEntities({
        queryOptions: { filter: (0, data_tables_1.odata) `PartitionKey eq ${partitionKey}` },
    })
        .byPage({ maxPageSize: top });
    const attempts = [];
    try {
        while (attempts.length < top) {
            const page = await (0, errors_2.withStorageErrors)(() => pages.next());
            if (page.done)
                break;
            for (const entity of page.value) {
                const attempt = toAttempt(entity);
                if (attempt)
                    attempts.push(attempt);
            }
            if (!page.value.continuationToken)
                break;
        }
    }
    catch (error) {
        if (error instanceof errors_1.NotFoundError)
            return [];
        throw error;
    }
    return attempts;
}
function toAttempt(entity) {
    const { partitionKey, rowKey, EntityType, Succeeded, Ip } = entity;
    if (EntityType !== ENTITY_TYPE ||
        typeof partitionKey !== 'string' ||
        typeof rowKey !== 'string') {
        return undefined;
    }
    const userId = (0, keys_1.parseLoginAttemptPartitionKey)(partitionKey);
    const key = (0, keys_1.parseInvertedTicksRowKey)(rowKey);
    if (userId === undefined || !key || typeof Succeeded !== 'boolean')
        return undefined;
    return {
        attemptId: rowKey,
        userId,
        succeeded: Succeeded,
        ...(typeof Ip === 'string' ? { ip: Ip } : {}),
        at: key.at,
    };
}
//# sourceMappingURL=loginAttempts.js.map