/**
 * Helpers of the orchestration end-to-end tests: a host over unique tables and a unique task hub,
 * JSON requests, and polling a start's `statusUri` (`GET /api/orchestrations/{id}`) until the
 * orchestration ends.
 */
import { randomBytes } from 'node:crypto';
import { odata } from '@azure/data-tables';
import { historyTableName, parseHistoryRowKey } from '../../../tools/durable/store/keys';
import { readTextProperties } from '../../../tools/durable/store/largeText';
import type { HistoryEventJson } from '../../../tools/durable/replay/historyEvents';
import { startHost, type RunningHost } from '../../support/host';
import { testClients, uniqueName, uniqueTableName } from '../../support/storage';
import { adminPrincipal, asAdmin, PRINCIPAL_HEADER } from '../../support/principals';
import { WAIT_MS } from '../../support/waits';

/** The setting that names the task hub (its History table holds the executions' events). */
export const HUB_SETTING = 'AzureFunctionsJobHost__extensions__durableTask__hubName';
const LEASE_SETTING =
  'AzureFunctionsJobHost__extensions__durableTask__storageProvider__workItemQueueVisibilityTimeout';

/** Settings that give one test file its own tables, queues and task hub. */
export function isolatedSettings(): Record<string, string> {
  return {
    EMPLOYEES_TABLE: uniqueTableName('EmpOrch'),
    ARCHIVE_TABLE: uniqueTableName('ArcOrch'),
    EMPLOYEE_INDEX_TABLE: uniqueTableName('IdxOrch'),
    LASTNAME_INDEX_CONTAINER: uniqueName('lastnames'),
    PHOTOS_CONTAINER: uniqueName('photos'),
    [HUB_SETTING]: `Orch${randomBytes(5).toString('hex')}`,
    [LEASE_SETTING]: '00:00:03',
  };
}

/** Starts the project's host with these settings. */
export function hostWith(settings: Record<string, string>): Promise<RunningHost> {
  return startHost({ env: settings });
}

/** A JSON response. */
export interface JsonResponse {
  status: number;
  json: Record<string, unknown> & { error?: { code: string; message: string } };
}

/** Sends a JSON request to the API. */
export async function send(
  host: RunningHost,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonResponse> {
  const response = await fetch(`${host.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: adminPrincipal },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : {} };
}

/** The body of `GET /orchestrations/{id}`. */
export interface OrchestrationStatus {
  id: string;
  name: string;
  runtimeStatus: string;
  output?: unknown;
  failure?: string;
}

/**
 * Polls a start's `statusUri` (a path, `/api/orchestrations/{id}`) on `host` until the
 * orchestration is Completed, Failed or Terminated.
 */
export async function pollUntilEnded(
  host: RunningHost,
  statusUri: string,
  timeoutMs = WAIT_MS,
): Promise<OrchestrationStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(new URL(statusUri, host.origin), asAdmin());
    const body = (await response.json()) as OrchestrationStatus;
    if (response.status !== 200) {
      throw new Error(`GET ${statusUri} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    if (['Completed', 'Failed', 'Terminated'].includes(body.runtimeStatus)) return body;
    if (Date.now() > deadline) {
      throw new Error(`Still ${body.runtimeStatus} after ${timeoutMs} ms.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Creates a department and employees `<first>..` in it through the API. */
export async function seedDepartment(
  host: RunningHost,
  department: string,
  employees: { employeeId: string; lastName: string; email: string }[],
): Promise<void> {
  const dept = encodeURIComponent(department);
  expect(
    (await send(host, 'PUT', `/departments/${dept}`, { description: department })).status,
  ).toBeLessThan(300);
  for (let i = 0; i < employees.length; i += 1000) {
    const rows = employees.slice(i, i + 1000).map((e) => ({ ...e, firstName: 'Pat', age: 30 }));
    const result = await send(host, 'POST', `/departments/${dept}/employees/import`, {
      employees: rows,
    });
    expect(result).toMatchObject({ status: 200, json: { failed: [] } });
  }
}
/** Per execution of an instance: its committed events and their JSON size. */
export async function executionHistories(
  taskHub: string,
  instanceId: string,
): Promise<{ events: number; chars: number }[]> {
  const parts = new Map<string, { part: number; text: string }[]>();
  for await (const entity of testClients()
    .table(historyTableName(taskHub))
    .listEntities<Record<string, unknown>>({
      queryOptions: { filter: odata`PartitionKey eq ${instanceId}` },
    })) {
    const key = parseHistoryRowKey(String(entity.rowKey));
    if (key?.kind !== 'episode') continue;
    const episode = `${key.executionId}/${key.episode}`;
    const list = parts.get(episode) ?? [];
    list.push({ part: key.part, text: readTextProperties(entity, 'Events') ?? '' });
    parts.set(episode, list);
  }
  const byExecution = new Map<string, { events: number; chars: number }>();
  for (const [episode, rows] of parts) {
    const text = rows
      .sort((a, b) => a.part - b.part)
      .map((row) => row.text)
      .join('');
    const execution = episode.split('/')[0]!;
    const sum = byExecution.get(execution) ?? { events: 0, chars: 0 };
    sum.events += (JSON.parse(text) as HistoryEventJson[]).length;
    sum.chars += text.length;
    byExecution.set(execution, sum);
  }
  return [...byExecution.values()];
}
