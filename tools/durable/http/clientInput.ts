/**
 * The value of a `durableClient` input binding, as the Durable Functions extension builds it: the
 * task hub, the creation and management URL templates of the host's
 * `/runtime/webhooks/durabletask/...` API, and `rpcBaseUrl`, which makes `durable-functions`'
 * DurableClient call that same API for `startNew`, `getStatus`, `raiseEvent`, `terminate`, ...
 *
 * When the host's own endpoints require the host key (tools/host/http/hostKey.ts), every URL
 * carries it as `code=`, as Azure's carry the system key, and there is no `rpcBaseUrl` (its calls
 * could not carry the key): the DurableClient then calls the same API through these URLs.
 */

/** The placeholder `durable-functions` replaces with an instance id. */
export const INSTANCE_ID_PLACEHOLDER = 'INSTANCEID';

/** The default connection name the extension puts in management URLs. */
export const DEFAULT_CONNECTION_NAME = 'Storage';

/** The path every route of the durable HTTP API starts with. */
export const WEBHOOK_PATH = '/runtime/webhooks/durabletask';

/** The management URLs of one instance (status, events, terminate, purge...). */
export interface ManagementUrls {
  id: string;
  statusQueryGetUri: string;
  sendEventPostUri: string;
  terminatePostUri: string;
  rewindPostUri: string;
  purgeHistoryDeleteUri: string;
  restartPostUri: string;
  suspendPostUri: string;
  resumePostUri: string;
}

/** `OrchestrationClientInputData` of `durable-functions`. */
export interface DurableClientInput {
  taskHubName: string;
  creationUrls: { createNewInstancePostUri: string; createAndWaitOnNewInstancePostUri: string };
  managementUrls: ManagementUrls;
  baseUrl: string;
  requiredQueryStringParameters: string;
  rpcBaseUrl: string;
}

/** `http://host:port/runtime/webhooks/durabletask` for a host base URL. */
export function webhookBaseUrl(hostBaseUrl: string): string {
  return `${hostBaseUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`;
}

/**
 * Builds the `durableClient` binding value (and the management URLs of the HTTP API's answers).
 *
 * @param hostKey - the key the host's endpoints require, if any: carried as `code=`.
 */
export function buildClientInput(
  hostBaseUrl: string,
  taskHub: string,
  connectionName: string = DEFAULT_CONNECTION_NAME,
  hostKey?: string,
): DurableClientInput {
  const base = webhookBaseUrl(hostBaseUrl);
  const code = hostKey === undefined ? '' : `code=${encodeURIComponent(hostKey)}`;
  const query = `taskHub=${encodeURIComponent(taskHub)}&connection=${encodeURIComponent(connectionName)}${code ? `&${code}` : ''}`;
  const instance = `${base}/instances/${INSTANCE_ID_PLACEHOLDER}`;
  const create = `${base}/orchestrators/{functionName}[/{instanceId}]`;
  return {
    taskHubName: taskHub,
    creationUrls: {
      createNewInstancePostUri: `${create}?${query}`,
      createAndWaitOnNewInstancePostUri: `${create}?timeout={timeoutInSeconds}&pollingInterval={intervalInSeconds}&${query}`,
    },
    managementUrls: {
      id: INSTANCE_ID_PLACEHOLDER,
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
    requiredQueryStringParameters: code,
    rpcBaseUrl: code ? '' : `${base}/`,
  };
}

/** The management URLs of one instance (the 202 payload of a start). */
export function managementPayload(input: DurableClientInput, instanceId: string): ManagementUrls {
  const encoded = encodeURIComponent(instanceId);
  const urls = { ...input.managementUrls };
  for (const key of Object.keys(urls) as Array<keyof ManagementUrls>) {
    urls[key] = urls[key].replace(INSTANCE_ID_PLACEHOLDER, encoded);
  }
  urls.id = instanceId;
  return urls;
}
