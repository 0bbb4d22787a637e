"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * `GET /api/health`: anonymous liveness and storage reachability (API.md "Health").
 */
const functions_1 = require("@azure/functions");
const health_1 = require("../src/health/health");
const clients_1 = require("../src/storage/clients");
const http_1 = require("./shared/http");
functions_1.app.http('health', {
    route: 'health',
    methods: ['GET'],
    authLevel: 'anonymous',
    handler: (0, http_1.handleErrors)(async () => {
        const report = await (0, health_1.checkHealth)((0, clients_1.getStorageClients)());
        return (0, http_1.json)(report.storage === 'ok' ? 200 : 503, report, { 'cache-control': 'no-store' });
    }),
});
//# sourceMappingURL=health.js.map