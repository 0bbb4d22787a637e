"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.queryScope = queryScope;
exports.resumeAfter = resumeAfter;
exports.tokenAfter = tokenAfter;
exports.readRangePage = readRangePage;
exports.readWholeRange = readWholeRange;
exports.codePointPrefixRange = codePointPrefixRange;
/**
 * Partition-scoped RowKey range queries, paged with opaque continuation tokens.
 *
 * Every query here is `PartitionKey eq <pk> and RowKey ge <from> and RowKey lt <to>`, built with
 * the `odata` template (values are quoted and escaped by the SDK, so no input can widen it).
 *
 * A token records the last RowKey returned and is bound to the query's scope (a hash of the
 * partition and bounds, see `encodeContinuationToken` in src/storage/keys.ts): the next page asks
 * for `RowKey gt <last>`. A token from another query, a tampered one, or one pointing outside the
 * range is refused with `InvalidContinuationToken` (400) before any storage call.
 */
const node_crypto_1 = require("node:crypto");
const data_tables_1 = require("@azure/data-tables");
const errors_1 = require("../errors");
const errors_2 = require("../storage/errors");
const keys_1 = require("../storage/keys");
const state_1 = require("./state");
/** The scope a token of this query is bound to: the query kind plus a hash of its range. */
function queryScope(kind, range) {
    const digest = (0, node_crypto_1.createHash)('sha256')
        .update(JSON.stringify([range.partitionKey, range.ge, range.lt]))
        .digest('base64url')
        .slice(0, 22);
    return `${kind}:${digest}`;
}
function invalidToken() {
    return new errors_1.ValidationError('continuationToken is not a token this query produced; start again without it.', 'continuationToken', 'InvalidContinuationToken');
}
/**
 * The RowKey after which the next page starts, from a token of this query.
 *
 * @throws {ValidationError} `InvalidContinuationToken` for a malformed, foreign or out-of-range token.
 */
function resumeAfter(kind, range, token) {
    const position = (0, keys_1.decodeContinuationToken)(queryScope(kind, range), token);
    const rowKey = position.nextRowKey;
    if (position.nextPartitionKey !== range.partitionKey ||
        rowKey === undefined ||
        rowKey < range.ge ||
        rowKey >= range.lt) {
        throw invalidToken();
    }
    return rowKey;
}
/** A token that resumes this query after `lastRowKey`. */
function tokenAfter(kind, range, lastRowKey) {
    return (0, keys_1.encodeContinuationToken)(queryScope(kind, range), {
        nextPartitionKey: range.partitionKey,
        nextRowKey: lastRowKey,
    });
}
function rangeFilter(range, after) {
    return after === undefined
        ? (0, data_tables_1.odata) `PartitionKey eq ${range.partitionKey} and RowKey ge ${range.ge} and RowKey lt ${range.lt}`
        : (0, data_tables_1.odata) `PartitionKey eq ${range.partitionKey} and RowKey gt ${after} and RowKey lt ${range.lt}`;
}
/**
 * Reads one page of a range query: at most `pageSize` entities (fewer when the service ends a
 * page early), with `select` as server-side projection.
 *
 * @param kind - names the query in its tokens (e.g. `employees-by-id`).
 * @throws {ValidationError} for an invalid continuation token.
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
async function readRangePage(table, kind, range, options) {
    const after = options.continuationToken === undefined
        ? undefined
        : resumeAfter(kind, range, options.continuationToken);
    return (0, errors_2.withStorageErrors)(async () => {
        const pages = table
            .listEntities({
            queryOptions: {
                filter: rangeFilter(range, after),
                select: options.select && (0, state_1.withKeys)(options.select),
            },
        })
            .byPage({ maxPageSize: options.pageSize });
        // The service may end a page early, even empty, with a continuation; keep reading until it
        // returns something or says there is nothing more.
        for await (const page of pages) {
            if (page.length === 0 && page.continuationToken)
                continue;
            const entities = page;
            const last = entities[entities.length - 1];
            return {
                entities: [...entities],
                continuationToken: page.continuationToken && last ? tokenAfter(kind, range, last.rowKey) : null,
            };
        }
        return { entities: [], continuationToken: null };
    });
}
/**
 * Every entity in a range, page by page (internal scans: reviews of one employee, index entities
 * an import touches).
 *
 * @throws {DomainError} for storage faults that outlasted the SDK's retries.
 */
async function readWholeRange(table, range, select) {
    return (0, errors_2.withStorageErrors)(async () => {
        const entities = [];
        for await (const entity of table.listEntities({
            queryOptions: { filter: rangeFilter(range), select: select && (0, state_1.withKeys)(select) },
        })) {
            entities.push(entity);
        }
        return entities;
    });
}
/**
 * `[ge, lt)` of every key starting with `prefix`, bumping the last *code point* (a prefix ending
 * in an emoji must not produce a lone surrogate, which cannot be sent in a URL).
 */
function codePointPrefixRange(prefix) {
    const points = [...prefix];
    const next = points.pop().codePointAt(0) + 1;
    if (next > 0x10ffff)
        return { ge: prefix, lt: prefix + '\uffff' };
    // U+D800-U+DFFF are surrogates, not characters: the next character after U+D7FF is U+E000.
    return {
        ge: prefix,
        lt: points.join('') + String.fromCodePoint(next === 0xd800 ? 0xe000 : next),
    };
}
//# sourceMappingURL=paging.js.map