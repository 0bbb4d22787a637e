"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.getLogs = exports.postLogs = void 0;
/**
 * `POST /api/logs` (ingest a batch) and `GET /api/logs` (time-range query): API.md "Logs".
 * Log lines live in hour-named blobs, not in a table (docs/logs.md).
 */
const functions_1 = require("@azure/functions");
const zod_1 = require("zod");
const config_1 = require("../src/config");
const entry_1 = require("../src/logs/entry");
const ingest_1 = require("../src/logs/ingest");
const levels_1 = require("../src/logs/levels");
const query_1 = require("../src/logs/query");
const clients_1 = require("../src/storage/clients");
const http_1 = require("./shared/http");
const isoTime = zod_1.z.iso.datetime({
    offset: true,
    error: 'is required: an ISO 8601 time with Z or an offset, e.g. 2026-11-22T15:04:00Z',
});
const logQuerySchema = zod_1.z.object({
    source: zod_1.z.string({ error: 'is required' }),
    from: isoTime,
    to: isoTime,
    level: zod_1.z.string().optional(),
});
/** `POST /logs`: 202 `{batchId, entries, messages}` once the batch is on the queue. */
exports.postLogs = (0, http_1.handleErrors)(async (request) => {
    const config = (0, config_1.getConfig)();
    const body = await (0, http_1.readJson)(request, zod_1.z.unknown(), config.logs.maxBatchBytes);
    const batch = (0, entry_1.parseLogBatch)(body, config.logs);
    const accepted = await (0, ingest_1.acceptLogBatch)((0, clients_1.getStorageClients)().queue(config.queues.logBatches), batch);
    return (0, http_1.json)(202, accepted);
});
/** `GET /logs?source&from&to&level`: `{items}` in time order. */
exports.getLogs = (0, http_1.handleErrors)(async (request) => {
    const config = (0, config_1.getConfig)();
    const query = (0, http_1.readQuery)(request, logQuerySchema);
    const { items } = await (0, query_1.queryLogs)((0, clients_1.getStorageClients)().container(config.containers.logs), {
        source: query.source,
        from: new Date(query.from),
        to: new Date(query.to),
        levels: query.level === undefined ? undefined : (0, levels_1.parseLevelFilter)(query.level),
    }, config.logs);
    return (0, http_1.json)(200, { items: items.map(entry_1.toApiEntry) }, { 'cache-control': 'no-store' });
});
functions_1.app.http('postLogs', {
    route: 'logs',
    methods: ['POST'],
    authLevel: 'function',
    handler: exports.postLogs,
});
functions_1.app.http('getLogs', { route: 'logs', methods: ['GET'], authLevel: 'function', handler: exports.getLogs });
//# sourceMappingURL=logs.js.map