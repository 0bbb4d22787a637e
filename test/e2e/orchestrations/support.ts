/**
 * Helpers of the orchestration end-to-end tests: a host over unique tables and a unique task hub,
 * JSON requests, and polling a status URI until the orchestration ends.
 */
import { randomBytes } from 'node:crypto';
import { startHost, type RunningHost } from '../../support/host';
import { asAdmin } from '../../support/principals';
import { uniqueName, uniqueTableName } from '../../support/storage';

const HUB_SETTING = 'AzureFunctionsJobHost__extensions__durableTask__hubName';
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

/** Sends a JSON request to the API as a DirectoryAdmin (orchestrations are admin only). */
export async function send(
  host: RunningHost,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonResponse> {
  const response = await fetch(
    `${host.baseUrl}${path}`,
    asAdmin({
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : {} };
}

/** Polls a status URI (as a DirectoryAdmin) until the orchestration is Completed, Failed or Terminated. */
export async function pollUntilEnded(
  statusUrl: string,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(statusUrl, asAdmin());
    const body = (await response.json()) as Record<string, unknown>;
    if (['Completed', 'Failed', 'Terminated'].includes(String(body.runtimeStatus))) return body;
    if (Date.now() > deadline) {
      throw new Error(`Still ${String(body.runtimeStatus)} after ${timeoutMs} ms.`);
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
