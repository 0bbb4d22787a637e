"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AccessLog = exports.MAX_ACCESS_PAGE_SIZE = exports.DEFAULT_ACCESS_PAGE_SIZE = exports.MAX_ACTION_LENGTH = exports.MAX_RESOURCE_LENGTH = exports.MAX_ACCESS_WINDOW_DAYS = void 0;
/**
 * Resource-access events, written so that inserts spread over many partitions (the prepend/append
 * anti-pattern avoided): the PartitionKey is department + employee id, not the date or hour. With
 * a time-based PartitionKey every event of the current hour would land in one partition — a hot
 * spot capped by Azure's ~2,000 entities/s per-partition target while the rest of the account
 * idles. The RowKey is ticks + a random suffix, so one employee's events read oldest first and a
 * time window is one partition range query.
 *
 * Events do not require the employee to exist in the directory (ids are format-checked only).
 */
const data_tables_1 = require("@azure/data-tables");
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const clock_1 = require("../time/clock");
const instants_1 = require("../time/instants");
const tables_1 = require("../time/tables");
const timeKeyedInsert_1 = require("../time/timeKeyedInsert");
/** Widest window one query may ask for. */
exports.MAX_ACCESS_WINDOW_DAYS = 31;
/** Longest resource text. */
exports.MAX_RESOURCE_LENGTH = 1_024;
/** Longest action text. */
exports.MAX_ACTION_LENGTH = 64;
/** Page size when the caller does not say. */
exports.DEFAULT_ACCESS_PAGE_SIZE = 100;
/** Largest page (the service's own page limit). */
exports.MAX_ACCESS_PAGE_SIZE = 1_000;
const ENTITY_TYPE = 'AccessEvent.v1';
/** The `AccessLog` table. */
class AccessLog {
    table;
    clock;
    /**
     * @param table - the `AccessLog` table (created on first use).
     * @param clock - supplies "now" for events without a time.
     */
    constructor(table, clock = clock_1.systemClock) {
        this.table = table;
        this.clock = clock;
    }
    /**
     * Stores one event in its employee's partition.
     *
     * @throws {ValidationError} for an invalid department, employee id, resource, action or time.
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async record(input) {
        const partitionKey = (0, keys_1.employeePartitionKey)(input.department, input.employeeId);
        if (input.resource.length === 0 || input.resource.length > exports.MAX_RESOURCE_LENGTH) {
            throw new errors_1.ValidationError(`body.resource: must be 1-${exports.MAX_RESOURCE_LENGTH} characters.`, 'body.resource');
        }
        if (!/^[A-Za-z][A-Za-z0-9._-]*$/.test(input.action) ||
            input.action.length > exports.MAX_ACTION_LENGTH) {
            throw new errors_1.ValidationError(`body.action: must be 1-${exports.MAX_ACTION_LENGTH} letters, digits, ".", "_" or "-", starting with a letter.`, 'body.action');
        }
        const at = input.at ?? this.clock();
        (0, instants_1.assertStorableInstant)(at, 'body.at');
        await (0, tables_1.ensureTableOnce)(this.table);
        const { entity, etag } = await (0, timeKeyedInsert_1.insertTimeKeyed)(this.table, (suffix) => ({
            partitionKey,
            rowKey: (0, keys_1.ticksRowKey)(at, suffix),
            EntityType: ENTITY_TYPE,
            Resource: input.resource,
            Action: input.action,
        }));
        return { event: toEvent(entity), etag };
    }
    /**
     * One page of an employee's events with `from <= at < to`, oldest first: one partition range
     * query (`PartitionKey eq … and RowKey ge … and RowKey lt …`) per page.
     *
     * @throws {ValidationError} for invalid ids, a window that is empty, reversed or wider than
     *   {@link MAX_ACCESS_WINDOW_DAYS} days, a bad page size, or a continuation token from another query.
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async window(department, employeeId, from, to, options = {}) {
        const partitionKey = (0, keys_1.employeePartitionKey)(department, employeeId);
        (0, instants_1.assertStorableInstant)(from, 'query.from');
        (0, instants_1.assertStorableInstant)(to, 'query.to');
        if (to.getTime() <= from.getTime()) {
            throw new errors_1.ValidationError('query.to: must be later than query.from.', 'query.to');
        }
        if (to.getTime() - from.getTime() > exports.MAX_ACCESS_WINDOW_DAYS * instants_1.MS_PER_DAY) {
            throw new errors_1.ValidationError(`query.to: the window may span at most ${exports.MAX_ACCESS_WINDOW_DAYS} days.`, 'query.to');
        }
        const pageSize = options.pageSize ?? exports.DEFAULT_ACCESS_PAGE_SIZE;
        if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > exports.MAX_ACCESS_PAGE_SIZE) {
            throw new errors_1.ValidationError(`query.pageSize: must be a whole number from 1 to ${exports.MAX_ACCESS_PAGE_SIZE}.`, 'query.pageSize');
        }
        const scope = `access|${partitionKey}|${from.toISOString()}|${to.toISOString()}`;
        const position = options.continuationToken === undefined
            ? undefined
            : (0, keys_1.decodeContinuationToken)(scope, options.continuationToken);
        const range = (0, keys_1.ticksRowKeyRange)(from, to);
        await (0, tables_1.ensureTableOnce)(this.table);
        const page = await (0, errors_2.withStorageErrors)(async () => {
            const result = await this.table
                .listEntities({
                queryOptions: {
                    filter: (0, data_tables_1.odata) `PartitionKey eq ${partitionKey} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`,
                },
            })
                .byPage({
                maxPageSize: pageSize,
                ...(position ? { continuationToken: (0, keys_1.toSdkContinuationToken)(position) } : {}),
            })
                .next();
            return result.done ? undefined : result.value;
        });
        const items = (page ?? [])
            .map(toEvent)
            .filter((event) => event !== undefined);
        const next = page?.continuationToken;
        return {
            items,
            continuationToken: next
                ? (0, keys_1.encodeContinuationToken)(scope, (0, keys_1.fromSdkContinuationToken)(next))
                : null,
        };
    }
}
exports.AccessLog = AccessLog;
function toEvent(entity) {
    const { partitionKey, rowKey, EntityType, Resource, Action } = entity;
    if (EntityType !== ENTITY_TYPE ||
        typeof partitionKey !== 'string' ||
        typeof rowKey !== 'string') {
        return undefined;
    }
    const owner = (0, keys_1.parseEmployeePartitionKey)(partitionKey);
    const key = (0, keys_1.parseTicksRowKey)(rowKey);
    if (!owner || !key || typeof Resource !== 'string' || typeof Action !== 'string')
        return undefined;
    return { eventId: rowKey, ...owner, resource: Resource, action: Action, at: key.at };
}
//# sourceMappingURL=accessLog.js.map