"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HOSTS_CONTAINER = void 0;
exports.statusBlobName = statusBlobName;
exports.createBlobScheduleMonitor = createBlobScheduleMonitor;
exports.HOSTS_CONTAINER = 'azure-webjobs-hosts';
/** The blob name of a timer's status. */
function statusBlobName(hostId, functionName) {
    return `timers/${hostId}/Host.Functions.${functionName}/status`;
}
function createBlobScheduleMonitor(container, hostId) {
    let ready = false;
    return {
        async read(functionName) {
            const blob = container.getBlockBlobClient(statusBlobName(hostId, functionName));
            try {
                const body = await blob.downloadToBuffer();
                const parsed = JSON.parse(body.toString('utf8'));
                if (typeof parsed.Last !== 'string' ||
                    typeof parsed.Next !== 'string' ||
                    typeof parsed.LastUpdated !== 'string') {
                    return undefined;
                }
                return { Last: parsed.Last, Next: parsed.Next, LastUpdated: parsed.LastUpdated };
            }
            catch (error) {
                if (error.statusCode === 404)
                    return undefined;
                throw error;
            }
        },
        async write(functionName, status) {
            if (!ready) {
                await container.createIfNotExists();
                ready = true;
            }
            const text = JSON.stringify(status);
            await container
                .getBlockBlobClient(statusBlobName(hostId, functionName))
                .upload(text, Buffer.byteLength(text), {
                blobHTTPHeaders: { blobContentType: 'application/json' },
            });
        },
    };
}
//# sourceMappingURL=scheduleMonitor.js.map