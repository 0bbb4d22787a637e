/**
 * The Durable Functions HTTP API the local host serves under `/runtime/webhooks/durabletask/`
 * (also the DurableClient's calls; the host checks its key first, tools/host/http/hostKey.ts):
 * start orchestrators, read and list instances (paged with `x-ms-continuation-token`), purge,
 * raise events, terminate; suspend, resume, rewind, restart and entities answer 501. The routes
 * and answers: docs/durable.md "HTTP API".
 *
 * Errors are `{"error":{"code","message"}}`. Unsafe methods take no page's writes: an `Origin`, if
 * any, must be a loopback one, and a body must be `Content-Type: application/json` (403
 * `CrossSiteRequest`, 415 `UnsupportedMediaType`; tools/host/http/requestGuard.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUnsafeMethod, localWriteRefusal } from '../../host/http/requestGuard';
import { managementPayload, WEBHOOK_PATH, type DurableClientInput } from './clientInput';
import type { RuntimeContext } from '../context';
import { EventType, plainEvent } from '../replay/historyEvents';
import { createInstance } from '../instances';
import { eventRaisedInboxKey, TERMINATE_INBOX_KEY, validateInstanceId } from '../store/keys';
import { instanceStatus } from './status';
import { instanceFilter } from '../instanceFilter';
import {
  callerOrigin,
  HttpProblem,
  jsonBody,
  MAX_BODY_BYTES,
  readBody,
  sendEmpty,
  sendJson,
} from './httpMessages';
import { TERMINAL_STATUSES, type InstanceRecord } from '../store/records';

/** What the durable HTTP API serves from: the runtime, its task hub and the client input. */
export interface DurableHttpApi {
  ctx: RuntimeContext;
  taskHub: string;
  /** The client input; with `baseUrl`, its URLs on that origin (the caller's). */
  clientInput: (connectionName?: string, baseUrl?: string) => DurableClientInput;
}

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

/**
 * Serves one request if it is a durable route.
 *
 * @param body - the request body when the caller has already read it (the local host does);
 *   otherwise it is read from `req`.
 * @returns false when the path is not under `/runtime/webhooks/durabletask`.
 */
export async function handleDurableHttp(
  api: DurableHttpApi,
  req: IncomingMessage,
  res: ServerResponse,
  body?: Buffer,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== WEBHOOK_PATH && !url.pathname.startsWith(`${WEBHOOK_PATH}/`)) return false;
  try {
    const segments = url.pathname
      .slice(WEBHOOK_PATH.length)
      .split('/')
      .filter((segment, index, all) => segment !== '' || (index > 0 && index === all.length - 1))
      .map((segment) => decodeURIComponent(segment));
    let bytes = body;
    const readBytes = async (): Promise<Buffer> => {
      bytes ??= await readBody(req);
      if (bytes.length > MAX_BODY_BYTES) {
        throw new HttpProblem(413, 'TooLarge', `The request body is over ${MAX_BODY_BYTES} bytes.`);
      }
      return bytes;
    };
    if (isUnsafeMethod(req.method)) {
      const refused = localWriteRefusal(req.method, req.headers, (await readBytes()).length);
      if (refused) throw new HttpProblem(refused.status, refused.code, refused.message);
    }
    checkTaskHub(api, url);
    const readText = async (): Promise<string> => (await readBytes()).toString('utf8');
    await route(api, req, res, url, segments, readText);
  } catch (error) {
    if (error instanceof HttpProblem) {
      sendJson(res, error.status, { error: { code: error.code, message: error.message } });
    } else {
      api.ctx.log('[durable] HTTP API error', error);
      sendJson(res, 500, {
        error: {
          code: 'InternalError',
          message: 'The durable runtime failed to handle the request.',
        },
      });
    }
  }
  return true;
}

async function route(
  api: DurableHttpApi,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  segments: string[],
  readText: () => Promise<string>,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const [head, id, action, extra] = segments;
  if (head === 'orchestrators' && id && segments.length <= 3 && method === 'POST') {
    return startOrchestration(api, req, readText, res, url, id, action);
  }
  if (head === 'instances') {
    const listing = id === undefined || id === '';
    if (listing && method === 'GET') return listInstances(api, req, res, url);
    if (listing && method === 'DELETE') return purgeByFilter(api, res, url);
    if (!listing && action === undefined && method === 'GET') {
      return getStatus(api, req, res, url, id);
    }
    if (!listing && action === undefined && method === 'DELETE') return purgeOne(api, res, id);
    if (!listing && action === 'raiseEvent' && extra && method === 'POST') {
      return raiseEvent(api, readText, res, id, extra);
    }
    if (!listing && action === 'terminate' && method === 'POST')
      return terminate(api, res, url, id);
    if (!listing && ['suspend', 'resume', 'rewind', 'restart'].includes(action ?? '')) {
      throw new HttpProblem(
        501,
        'NotSupported',
        `The local durable runtime does not support ${action}.`,
      );
    }
  }
  if (head === 'entities') {
    throw new HttpProblem(
      501,
      'NotSupported',
      'The local durable runtime does not support durable entities.',
    );
  }
  throw new HttpProblem(404, 'NotFound', `No durable API route for ${method} ${url.pathname}.`);
}

async function startOrchestration(
  api: DurableHttpApi,
  req: IncomingMessage,
  readText: () => Promise<string>,
  res: ServerResponse,
  url: URL,
  name: string,
  requestedId: string | undefined,
): Promise<void> {
  const { ctx } = api;
  if (!ctx.orchestrations.has(name)) {
    throw new HttpProblem(
      400,
      'UnknownOrchestrator',
      `The function '${name}' doesn't exist, is disabled, or is not an orchestrator function.`,
    );
  }
  let instanceId: string;
  try {
    instanceId = validateInstanceId(requestedId ?? ctx.newId());
  } catch (error) {
    throw new HttpProblem(400, 'InvalidInstanceId', (error as Error).message);
  }
  const input = jsonBody(await readText(), 'The orchestration input');
  const existing = await ctx.store.getInstance(instanceId);
  if (existing && !TERMINAL_STATUSES.has(existing.runtimeStatus)) {
    throw new HttpProblem(
      409,
      'InstanceExists',
      `An orchestration instance with id '${instanceId}' is already ${existing.runtimeStatus.toLowerCase()}.`,
    );
  }
  if (existing) await ctx.store.deleteHistory(instanceId);
  await createInstance(ctx, { instanceId, name, input });
  const payload = managementPayload(
    api.clientInput(url.searchParams.get('connection') ?? undefined, callerOrigin(req)),
    instanceId,
  );
  sendJson(res, 202, payload, { Location: payload.statusQueryGetUri, 'Retry-After': '1' });
}

async function getStatus(
  api: DurableHttpApi,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  id: string,
): Promise<void> {
  const instance = await requireInstance(api, id);
  const flag = (name: string, fallback: boolean): boolean => {
    const value = url.searchParams.get(name);
    return value === null ? fallback : value.toLowerCase() === 'true';
  };
  const history = flag('showHistory', false)
    ? (await api.ctx.store.loadExecution(id, instance.executionId)).episodes.flatMap(
        (e) => e.events,
      )
    : undefined;
  const body = instanceStatus(instance, {
    showInput: flag('showInput', true),
    history,
    showHistoryOutput: flag('showHistoryOutput', false),
  });
  if (TERMINAL_STATUSES.has(instance.runtimeStatus)) {
    const failedAsError =
      instance.runtimeStatus === 'Failed' && flag('returnInternalServerErrorOnFailure', false);
    sendJson(res, failedAsError ? 500 : 200, body);
    return;
  }
  const location = managementPayload(
    api.clientInput(undefined, callerOrigin(req)),
    id,
  ).statusQueryGetUri;
  sendJson(res, 202, body, { Location: location, 'Retry-After': '1' });
}

async function listInstances(
  api: DurableHttpApi,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const filter = instanceFilter(url, false);
  const topParam = url.searchParams.get('top');
  const top = topParam === null ? DEFAULT_PAGE_SIZE : Number(topParam);
  if (!Number.isInteger(top) || top < 1 || top > MAX_PAGE_SIZE) {
    throw new HttpProblem(
      400,
      'InvalidTop',
      `top must be a whole number from 1 to ${MAX_PAGE_SIZE}.`,
    );
  }
  const tokenHeader = req.headers['x-ms-continuation-token'];
  const token = Array.isArray(tokenHeader) ? tokenHeader[0] : tokenHeader;
  const page = await api.ctx.store.listInstances(filter, top, token || undefined);
  const showInput = url.searchParams.get('showInput')?.toLowerCase() === 'true';
  const body = page.items.map((instance) =>
    instanceStatus(instance, { showInput, showHistoryOutput: false }),
  );
  sendJson(
    res,
    200,
    body,
    page.continuationToken ? { 'x-ms-continuation-token': page.continuationToken } : {},
  );
}

async function purgeOne(api: DurableHttpApi, res: ServerResponse, id: string): Promise<void> {
  const instance = await requireInstance(api, id);
  if (!TERMINAL_STATUSES.has(instance.runtimeStatus)) {
    throw new HttpProblem(
      409,
      'InstanceRunning',
      `Instance '${id}' is ${instance.runtimeStatus.toLowerCase()}; only completed, failed or terminated instances can be purged.`,
    );
  }
  await purge(api, instance);
  sendJson(res, 200, { instancesDeleted: 1 });
}

async function purgeByFilter(api: DurableHttpApi, res: ServerResponse, url: URL): Promise<void> {
  const filter = instanceFilter(url, true);
  let deleted = 0;
  let token: string | undefined;
  do {
    const page = await api.ctx.store.listInstances(filter, MAX_PAGE_SIZE, token);
    for (const instance of page.items) {
      await purge(api, instance);
      deleted += 1;
    }
    token = page.continuationToken;
  } while (token);
  if (deleted === 0) throw new HttpProblem(404, 'NotFound', 'No ended instances match the filter.');
  sendJson(res, 200, { instancesDeleted: deleted });
}

async function purge(api: DurableHttpApi, instance: InstanceRecord): Promise<void> {
  await api.ctx.store.deleteHistory(instance.instanceId);
  await api.ctx.store.deleteInstance(instance.instanceId);
}

async function raiseEvent(
  api: DurableHttpApi,
  readText: () => Promise<string>,
  res: ServerResponse,
  id: string,
  eventName: string,
): Promise<void> {
  const data = jsonBody(await readText(), 'The event data');
  const instance = await requireRunning(api, id);
  const now = api.ctx.clock();
  const event = plainEvent(EventType.EventRaised, now, { Name: eventName, Input: data });
  await api.ctx.store.putInbox(
    id,
    instance.executionId,
    eventRaisedInboxKey(api.ctx.newId()),
    event,
    now,
  );
  await api.ctx.store.sendControl({ kind: 'wake', instanceId: id });
  sendEmpty(res, 202);
}

async function terminate(
  api: DurableHttpApi,
  res: ServerResponse,
  url: URL,
  id: string,
): Promise<void> {
  const instance = await requireRunning(api, id);
  const now = api.ctx.clock();
  const reason = url.searchParams.get('reason') ?? '';
  const event = plainEvent(EventType.ExecutionTerminated, now, { Input: JSON.stringify(reason) });
  await api.ctx.store.putInbox(id, instance.executionId, TERMINATE_INBOX_KEY, event, now);
  await api.ctx.store.sendControl({ kind: 'wake', instanceId: id });
  sendEmpty(res, 202);
}

async function requireInstance(api: DurableHttpApi, id: string): Promise<InstanceRecord> {
  const instance = await api.ctx.store.getInstance(id);
  if (!instance)
    throw new HttpProblem(404, 'InstanceNotFound', `No instance with ID '${id}' found.`);
  return instance;
}

async function requireRunning(api: DurableHttpApi, id: string): Promise<InstanceRecord> {
  const instance = await requireInstance(api, id);
  if (TERMINAL_STATUSES.has(instance.runtimeStatus)) {
    throw new HttpProblem(
      410,
      'InstanceEnded',
      `Instance '${id}' has already ${instance.runtimeStatus.toLowerCase()}.`,
    );
  }
  return instance;
}

function checkTaskHub(api: DurableHttpApi, url: URL): void {
  const hub = url.searchParams.get('taskHub');
  if (hub !== null && hub !== '' && hub.toLowerCase() !== api.taskHub.toLowerCase()) {
    throw new HttpProblem(
      404,
      'UnknownTaskHub',
      `This host runs task hub '${api.taskHub}', not '${hub}'.`,
    );
  }
}
