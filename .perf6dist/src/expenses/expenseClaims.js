"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExpenseClaimLog = exports.DEFAULT_EXPENSE_TOP = exports.MAX_EXPENSE_TOP = exports.MAX_EXPENSE_DESCRIPTION_LENGTH = exports.MAX_EXPENSE_AMOUNT = void 0;
exports.expenseClaimEntity = expenseClaimEntity;
exports.assertValidClaim = assertValidClaim;
/**
 * Expense claims as a log tail: every claim of one employee lives in that employee's partition
 * with an inverted-ticks RowKey (`MAX_TICKS - ticks`, 19 digits, then a random suffix), so the
 * partition's natural ascending order is newest first and "the latest n claims" is one query with
 * `$top=n` — the service has no "last n" operation.
 *
 * Claims do not require the employee to exist in the directory: they are high-volume side data
 * keyed by department and employee id, whose format alone is checked.
 */
const data_tables_1 = require("@azure/data-tables");
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const clock_1 = require("../time/clock");
const instants_1 = require("../time/instants");
const tables_1 = require("../time/tables");
const timeKeyedInsert_1 = require("../time/timeKeyedInsert");
/** Largest accepted claim amount (in the claim's currency). */
exports.MAX_EXPENSE_AMOUNT = 1_000_000;
/** Longest accepted description, in characters. */
exports.MAX_EXPENSE_DESCRIPTION_LENGTH = 1_000;
/** Most claims one `newest` call returns (one query page). */
exports.MAX_EXPENSE_TOP = 1_000;
/** Claims returned when the caller does not say how many. */
exports.DEFAULT_EXPENSE_TOP = 10;
const ENTITY_TYPE = 'ExpenseClaim.v1';
/**
 * The stored form of a claim (also used by bulk loaders such as the benchmark): inverted-ticks
 * RowKey with `uniqueSuffix`; the amount always typed `Edm.Double`.
 */
function expenseClaimEntity(partitionKey, submittedAt, uniqueSuffix, input) {
    return {
        partitionKey,
        rowKey: (0, keys_1.invertedTicksRowKey)(submittedAt, uniqueSuffix),
        EntityType: ENTITY_TYPE,
        Amount: { value: input.amount, type: 'Double' },
        Currency: input.currency,
        Description: input.description,
    };
}
/**
 * Checks a claim against the API's rules.
 *
 * @throws {ValidationError} naming the first bad field.
 */
function assertValidClaim(input) {
    const { amount, currency, description } = input;
    if (!Number.isFinite(amount) ||
        amount <= 0 ||
        amount > exports.MAX_EXPENSE_AMOUNT ||
        // JSON numbers print in their shortest round-trip form, so this sees the caller's digits.
        !/^\d+(\.\d{1,2})?$/.test(String(amount))) {
        throw new errors_1.ValidationError(`body.amount: must be a positive number with at most two decimals, up to ${exports.MAX_EXPENSE_AMOUNT}.`, 'body.amount');
    }
    if (!/^[A-Z]{3}$/.test(currency)) {
        throw new errors_1.ValidationError('body.currency: must be an ISO 4217 code of three upper-case letters, e.g. EUR.', 'body.currency');
    }
    if (description.trim().length === 0 || description.length > exports.MAX_EXPENSE_DESCRIPTION_LENGTH) {
        throw new errors_1.ValidationError(`body.description: must be 1-${exports.MAX_EXPENSE_DESCRIPTION_LENGTH} characters.`, 'body.description');
    }
    if (input.submittedAt !== undefined)
        (0, instants_1.assertStorableInstant)(input.submittedAt, 'body.submittedAt');
}
/** Expense claims of every employee, newest first per employee. */
class ExpenseClaimLog {
    table;
    clock;
    /**
     * @param table - the `EmployeeExpenses` table (created on first use).
     * @param clock - supplies "now" for claims submitted without a time.
     */
    constructor(table, clock = clock_1.systemClock) {
        this.table = table;
        this.clock = clock;
    }
    /**
     * Stores one claim.
     *
     * @throws {ValidationError} for an invalid department, employee id or claim.
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async submit(department, employeeId, input) {
        const partitionKey = (0, keys_1.employeePartitionKey)(department, employeeId);
        assertValidClaim(input);
        const submittedAt = input.submittedAt ?? this.clock();
        await (0, tables_1.ensureTableOnce)(this.table);
        const { entity, etag } = await (0, timeKeyedInsert_1.insertTimeKeyed)(this.table, (suffix) => expenseClaimEntity(partitionKey, submittedAt, suffix, input));
        return { claim: toClaim({ ...entity, Amount: input.amount }), etag };
    }
    /**
     * The `top` newest claims of one employee, newest first: a single partition query with `$top`.
     * Only if the service ends a page early (it may, e.g. at its 5-second limit) is the continuation
     * followed for the rest.
     *
     * @throws {ValidationError} for an invalid department, employee id or `top` outside 1–1000.
     * @throws {DomainError} for storage faults that outlast the SDK's retries.
     */
    async newest(department, employeeId, top = exports.DEFAULT_EXPENSE_TOP) {
        const partitionKey = (0, keys_1.employeePartitionKey)(department, employeeId);
        if (!Number.isInteger(top) || top < 1 || top > exports.MAX_EXPENSE_TOP) {
            throw new errors_1.ValidationError(`query.top: must be a whole number from 1 to ${exports.MAX_EXPENSE_TOP}.`, 'query.top');
        }
        await (0, tables_1.ensureTableOnce)(this.table);
        const pages = this.table
            .listEntities({
            queryOptions: { filter: (0, data_tables_1.odata) `PartitionKey eq ${partitionKey}` },
        })
            .byPage({ maxPageSize: top });
        const claims = [];
        while (claims.length < top) {
            const page = await (0, errors_2.withStorageErrors)(() => pages.next());
            if (page.done)
                break;
            for (const entity of page.value) {
                const claim = toClaim(entity);
                if (claim)
                    claims.push(claim);
            }
            if (!page.value.continuationToken)
                break;
        }
        return claims.slice(0, top);
    }
}
exports.ExpenseClaimLog = ExpenseClaimLog;
/** Maps a stored entity to a claim; `undefined` for an entity of another type or shape. */
function toClaim(entity) {
    const { partitionKey, rowKey, EntityType, Amount, Currency, Description } = entity;
    if (EntityType !== ENTITY_TYPE ||
        typeof partitionKey !== 'string' ||
        typeof rowKey !== 'string') {
        return undefined;
    }
    const key = (0, keys_1.parseInvertedTicksRowKey)(rowKey);
    const owner = (0, keys_1.parseEmployeePartitionKey)(partitionKey);
    if (!key ||
        !owner ||
        typeof Amount !== 'number' ||
        typeof Currency !== 'string' ||
        typeof Description !== 'string') {
        return undefined;
    }
    return {
        claimId: rowKey,
        department: owner.department,
        employeeId: owner.employeeId,
        amount: Amount,
        currency: Currency,
        description: Description,
        submittedAt: key.at,
    };
}
//# sourceMappingURL=expenseClaims.js.map