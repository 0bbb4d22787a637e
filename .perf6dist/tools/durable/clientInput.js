"use strict";
/**
 * The value of a `durableClient` input binding, as the Durable Functions extension builds it: the
 * task hub, the creation and management URL templates of the host's
 * `/runtime/webhooks/durabletask/...` API, and `rpcBaseUrl`, which makes `durable-functions`'
 * DurableClient call that same API for `startNew`, `getStatus`, `raiseEvent`, `terminate`, ...
 *
 * No `code` query parameter: the local host does not enforce function keys.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.WEBHOOK_PATH = exports.DEFAULT_CONNECTION_NAME = exports.INSTANCE_ID_PLACEHOLDER = void 0;
exports.webhookBaseUrl = webhookBaseUrl;
exports.buildClientInput = buildClientInput;
exports.managementPayload = managementPayload;
/** The placeholder `durable-functions` replaces with an instance id. */
exports.INSTANCE_ID_PLACEHOLDER = 'INSTANCEID';
/** The default connection name the extension puts in management URLs. */
exports.DEFAULT_CONNECTION_NAME = 'Storage';
/** The path every route of the durable HTTP API starts with. */
exports.WEBHOOK_PATH = '/runtime/webhooks/durabletask';
/** `http://host:port/runtime/webhooks/durabletask` for a host base URL. */
function webhookBaseUrl(hostBaseUrl) {
    return `${hostBaseUrl.replace(/\/+$/, '')}${exports.WEBHOOK_PATH}`;
}
/** Builds the `durableClient` binding value. */
function buildClientInput(hostBaseUrl, taskHub, connectionName = exports.DEFAULT_CONNECTION_NAME) {
    const base = webhookBaseUrl(hostBaseUrl);
    const query = `taskHub=${encodeURIComponent(taskHub)}&connection=${encodeURIComponent(connectionName)}`;
    const instance = `${base}/instances/${exports.INSTANCE_ID_PLACEHOLDER}`;
    const create = `${base}/orchestrators/{functionName}[/{instanceId}]`;
    return {
        taskHubName: taskHub,
        creationUrls: {
            createNewInstancePostUri: `${create}?${query}`,
            createAndWaitOnNewInstancePostUri: `${create}?timeout={timeoutInSeconds}&pollingInterval={intervalInSeconds}&${query}`,
        },
        managementUrls: {
            id: exports.INSTANCE_ID_PLACEHOLDER,
            statusQueryGetUri: `${instance}?${query}`,
            sendEventPostUri: `${instance}/raiseEvent/{eventName}?${query}`,
            terminatePostUri: `${instance}/terminate?reason={text}&${query}`,
            rewindPostUri: `${instance}/rewind?reason={text}&${query}`,
            purgeHistoryDeleteUri: `${instance}?${query}`,
            restartPostUri: `${instance}/restart?${query}`,
            suspendPostUri: `${instance}/suspend?reason={text}&${query}`,
            resumePostUri: `${instance}/resume?reason={text}&${query}`,
        },
        baseUrl: base,
        requiredQueryStringParameters: '',
        rpcBaseUrl: `${base}/`,
    };
}
/** The management URLs of one instance (the 202 payload of a start). */
function managementPayload(input, instanceId) {
    const encoded = encodeURIComponent(instanceId);
    const urls = { ...input.managementUrls };
    for (const key of Object.keys(urls)) {
        urls[key] = urls[key].replace(exports.INSTANCE_ID_PLACEHOLDER, encoded);
    }
    urls.id = instanceId;
    return urls;
}
//# sourceMappingURL=clientInput.js.map