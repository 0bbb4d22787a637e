"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkHealth = checkHealth;
async function answers(probe) {
    try {
        await probe();
        return true;
    }
    catch {
        return false;
    }
}
/**
 * Asks each service one cheap question (list one table, queue, container) with no retries
 * beyond `timeoutMs`, so an outage is reported quickly instead of after the full retry budget.
 */
async function checkHealth(clients, timeoutMs = 3_000) {
    const signal = AbortSignal.timeout(timeoutMs);
    const [table, queue, blob] = await Promise.all([
        answers(() => clients.tableService().listTables({ abortSignal: signal }).byPage({ maxPageSize: 1 }).next()),
        answers(() => clients.queueService().listQueues({ abortSignal: signal }).byPage({ maxPageSize: 1 }).next()),
        answers(() => clients
            .blobService()
            .listContainers({ abortSignal: signal })
            .byPage({ maxPageSize: 1 })
            .next()),
    ]);
    const ok = table && queue && blob;
    return {
        status: ok ? 'ok' : 'degraded',
        storage: ok ? 'ok' : 'unreachable',
        services: { table, queue, blob },
    };
}
//# sourceMappingURL=health.js.map