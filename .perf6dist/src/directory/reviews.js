"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REVIEW_FIELDS = void 0;
exports.putReview = putReview;
exports.listReviews = listReviews;
exports.purgeReviews = purgeReviews;
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const directoryErrors_1 = require("./directoryErrors");
const entityTypes_1 = require("./entityTypes");
const paging_1 = require("./paging");
const state_1 = require("./state");
const transaction_1 = require("./transaction");
const validation_1 = require("./validation");
/** Every field `select` accepts for reviews. */
exports.REVIEW_FIELDS = [
    'year',
    'managerRating',
    'peerRating',
    'comments',
];
const FIELD_PROPERTIES = {
    year: 'Year',
    managerRating: 'ManagerRating',
    peerRating: 'PeerRating',
    comments: 'Comments',
};
function reviewEntity(partitionKey, employeeId, year, review) {
    return {
        partitionKey,
        rowKey: (0, keys_1.reviewRowKey)(employeeId, year),
        [entityTypes_1.ENTITY_TYPE_PROPERTY]: entityTypes_1.EntityTypes.review,
        EmployeeId: employeeId,
        Year: year,
        ManagerRating: review.managerRating,
        PeerRating: review.peerRating,
        Comments: review.comments,
    };
}
/** A stored review as API JSON (only `fields` plus the key `year`); `undefined` for another type. */
function projectReview(entity, fields) {
    const key = (0, keys_1.parseReviewRowKey)(entity.rowKey);
    if (!key || !(0, entityTypes_1.isEntityOfType)(entity, entityTypes_1.EntityTypes.review))
        return undefined;
    const json = { year: key.year };
    for (const field of fields) {
        if (field === 'year')
            continue;
        const value = entity[FIELD_PROPERTIES[field]];
        if (value !== undefined)
            json[field] = value;
    }
    return json;
}
/**
 * Writes (inserts or replaces) one yearly review of an existing employee.
 *
 * @param body - `{managerRating, peerRating, comments?}` (validated here; ratings 0-10).
 * @throws {ValidationError} for invalid input, department, id or year.
 * @throws {NotFoundError} `EmployeeNotFound`.
 * @throws {PreconditionFailedError} when `ifMatch` is not the review's current ETag.
 */
async function putReview(context, department, employeeId, year, body, options = {}) {
    const input = (0, validation_1.validateInput)(validation_1.reviewBodySchema, body, 'body');
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    (0, keys_1.reviewRowKey)(employeeId, year); // validates id and year before any storage call
    const table = await context.table();
    const employee = await (0, state_1.readEntity)(table, partitionKey, (0, keys_1.employeeRowKey)(employeeId), [
        'RowKey',
        entityTypes_1.ENTITY_TYPE_PROPERTY,
    ]);
    if (!employee || !(0, entityTypes_1.isEntityOfType)(employee, entityTypes_1.EntityTypes.employee))
        throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
    const review = {
        managerRating: input.managerRating,
        peerRating: input.peerRating,
        comments: input.comments ?? '',
    };
    const entity = reviewEntity(partitionKey, employeeId, year, review);
    const response = await (0, errors_2.withStorageErrors)(() => options.ifMatch === undefined
        ? table.upsertEntity(entity, 'Replace')
        : table.updateEntity(entity, 'Replace', { etag: options.ifMatch }), {
        notFound: {
            code: 'ReviewNotFound',
            message: `Employee ${employeeId} has no review for ${year} to match If-Match against.`,
        },
        preconditionFailed: (0, directoryErrors_1.staleVersion)(`The ${year} review of employee ${employeeId}`).message,
    });
    return { value: { year, ...review }, etag: response.etag ?? '' };
}
/**
 * Every review of one employee, ordered by year: one range query.
 *
 * @param select - fields to return (the key `year` always comes back); all when omitted.
 * @throws {ValidationError} for an invalid department, id or select field.
 * @throws {NotFoundError} `EmployeeNotFound` when the employee has no reviews because it does not exist.
 */
async function listReviews(context, department, employeeId, select) {
    const partitionKey = (0, keys_1.departmentPartitionKey)(department);
    const fields = parseReviewSelect(select);
    const table = await context.table();
    const properties = [
        'PartitionKey',
        'RowKey',
        entityTypes_1.ENTITY_TYPE_PROPERTY,
        ...fields.map((f) => FIELD_PROPERTIES[f]),
    ];
    const entities = await (0, paging_1.readWholeRange)(table, { partitionKey, ...(0, keys_1.reviewRowKeyRange)(employeeId) }, properties);
    const items = entities
        .map((e) => projectReview(e, fields))
        .filter((r) => r !== undefined);
    if (items.length === 0) {
        const employee = await (0, state_1.readEntity)(table, partitionKey, (0, keys_1.employeeRowKey)(employeeId), [
            'RowKey',
            entityTypes_1.ENTITY_TYPE_PROPERTY,
        ]);
        if (!employee || !(0, entityTypes_1.isEntityOfType)(employee, entityTypes_1.EntityTypes.employee))
            throw (0, directoryErrors_1.employeeNotFound)(department, employeeId);
    }
    return { items };
}
function parseReviewSelect(select) {
    if (select === undefined)
        return [...exports.REVIEW_FIELDS];
    for (const field of select) {
        if (!exports.REVIEW_FIELDS.includes(field)) {
            throw new errors_1.ValidationError(`query.select: unknown field "${field}"; use ${exports.REVIEW_FIELDS.join(', ')}.`, 'query.select', 'InvalidSelect');
        }
    }
    return select;
}
/**
 * Removes every review of one employee (after the employee is deleted), in transactions of up to
 * 100 deletes. Idempotent: a review already gone makes it list again and carry on.
 *
 * @throws {DomainError} for storage faults.
 */
async function purgeReviews(table, partitionKey, employeeId) {
    const range = { partitionKey, ...(0, keys_1.reviewRowKeyRange)(employeeId) };
    for (let round = 0; round < 5; round++) {
        const keys = await (0, paging_1.readWholeRange)(table, range, ['PartitionKey', 'RowKey']);
        if (keys.length === 0)
            return;
        try {
            for (let i = 0; i < keys.length; i += 100) {
                const plan = new transaction_1.PlannedTransaction();
                for (const key of keys.slice(i, i + 100))
                    plan.add(['delete', { partitionKey, rowKey: key.rowKey }], key.rowKey);
                await (0, transaction_1.submitPlanned)(table, plan);
            }
            return;
        }
        catch (error) {
            if (!(error instanceof transaction_1.TransactionFailure))
                throw error;
        }
    }
}
//# sourceMappingURL=reviews.js.map