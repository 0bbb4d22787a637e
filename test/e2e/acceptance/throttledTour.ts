/**
 * The throttled tour's lanes (throttledEverything.test.ts): each drives a group of routes as a
 * client would, repeating a refused call after its `Retry-After`, and notes in a {@link Ledger}
 * what the app acknowledged, for the test to find once the throttling has stopped. The lanes run
 * at once, so together they press the account and partition targets the front enforces.
 */
import { pngImage } from '../../support/images';
import { employeePrincipal } from '../../support/principals';
import { expectJson, seg, type Reply } from './client';
import { persistFetch, type RecordingClient } from './throttledCalls';

/** An employee the app acknowledged, as last acknowledged. */
export interface Acknowledged {
  department: string;
  id: string;
  lastName: string;
  email: string;
}

/** What the app acknowledged during the tour. */
export class Ledger {
  readonly employees = new Map<string, Acknowledged>();
  readonly deleted = new Set<string>();
  readonly expenseClaims: string[] = [];
  /** Messages acknowledged for the feature employee, per UTC hour of today. */
  readonly messagesByHour = new Map<number, number>();
  readonly accessEvents: string[] = [];
  readonly logins: string[] = [];
  readonly logLines: string[] = [];
  readonly reviewYears: number[] = [];
  /** Orchestration starts acknowledged, by what they do. */
  readonly orchestrations = new Map<string, string>();

  static key(department: string, id: string): string {
    return `${department}/${id}`;
  }

  employee(e: Acknowledged): void {
    this.employees.set(Ledger.key(e.department, e.id), e);
  }
}

/** The tour's departments and names. */
export interface TourPlan {
  /** Where the callers write, and the feature employee lives. */
  main: string;
  /** The target of the move. */
  moveTarget: string;
  /** Filled by an import, then archived whole. */
  archived: string;
  logSource: string;
  userId: string;
  /** The expenses table's name (the SAS policy rotation names it). */
  expensesTable: string;
  /** The index queue's name (the poison routes name it). */
  indexQueue: string;
}

/** The employee every feature route is called for. */
export const FEATURE_ID = '000900';
/** Archived alone (the archive queue trigger). */
export const ARCHIVED_ID = '000901';
/** Moved to {@link TourPlan.moveTarget} (the move orchestration). */
export const MOVED_ID = '000902';
/** Employees the import creates in {@link TourPlan.archived}. */
export const IMPORTED_IDS = ['000701', '000702'];

const person = (id: string, lastName: string) => ({
  employeeId: id,
  firstName: 'T',
  lastName,
  email: `t${id}@contoso.com`,
});

function expectStatus(reply: Reply, ...statuses: number[]): Reply {
  if (!statuses.includes(reply.status)) {
    throw new Error(`Expected ${statuses.join(' or ')}, got ${reply.status}: ${reply.text}`);
  }
  return reply;
}

/** Creates an employee (repeating refusals) and notes it acknowledged. */
export async function createEmployee(
  client: RecordingClient,
  ledger: Ledger,
  department: string,
  id: string,
  lastName: string,
): Promise<void> {
  const body = person(id, lastName);
  const reply = await client.persist(
    'createEmployee',
    'POST',
    `/departments/${seg(department)}/employees`,
    { json: body },
  );
  // 409: a refused try that had landed after all (the app's answer was lost, not the write).
  expectStatus(reply, 201, 409);
  ledger.employee({ department, id, lastName, email: body.email });
}

/** One caller creating, reading, renaming and deleting employees of the main department. */
export async function peopleLane(
  client: RecordingClient,
  ledger: Ledger,
  plan: TourPlan,
  caller: number,
  rounds: number,
): Promise<void> {
  const dept = plan.main;
  const base = `/departments/${seg(dept)}/employees`;
  for (let round = 0; round < rounds; round++) {
    const id = String(caller * 100 + round + 1).padStart(6, '0');
    await createEmployee(client, ledger, dept, id, `Lane${caller}`);
    await client.once('getEmployee', 'GET', `${base}/${id}`);
    await client.once('getEmployeeByEmail', 'GET', `${base}/by-email/${seg(`t${id}@contoso.com`)}`);
    const renamed = await client.persist('patchEmployee', 'PATCH', `${base}/${id}`, {
      json: { lastName: `Renamed${caller}` },
    });
    expectStatus(renamed, 200);
    ledger.employee({
      ...ledger.employees.get(Ledger.key(dept, id))!,
      lastName: `Renamed${caller}`,
    });
    // Once per caller: a listing's entities count against the partition's target too.
    if (round === 0) {
      await client.once('listEmployees', 'GET', `${base}?fromId=000000&toId=000999&pageSize=5`);
      await client.once('findEmployeesByLastName', 'GET', `/employees?lastName=Renamed${caller}`);
    }
    if (round % 3 === 2) {
      const removal = await client.persist('deleteEmployee', 'DELETE', `${base}/${id}`);
      expectStatus(removal, 204, 404);
      ledger.deleted.add(Ledger.key(dept, id));
    }
  }
}

/** The feature routes of one employee: manager, reviews, expenses, messages, access, photo. */
export async function featureLane(
  client: RecordingClient,
  ledger: Ledger,
  plan: TourPlan,
): Promise<void> {
  const dept = seg(plan.main);
  const base = `/departments/${dept}/employees/${FEATURE_ID}`;
  await createEmployee(client, ledger, plan.main, FEATURE_ID, 'Feature');
  const manager = await client.persist(
    'setDepartmentManager',
    'PUT',
    `/departments/${dept}/manager`,
    {
      json: { employeeId: FEATURE_ID },
    },
  );
  expectStatus(manager, 200);
  for (const year of [2024, 2025]) {
    const review = await client.persist('putReview', 'PUT', `${base}/reviews/${year}`, {
      json: { managerRating: 4, peerRating: 5 },
    });
    expectStatus(review, 200, 201);
    ledger.reviewYears.push(year);
  }
  await client.once('listReviews', 'GET', `${base}/reviews`);
  for (const amount of [12.5, 30]) {
    const claim = await client.persist('submitExpenseClaim', 'POST', `${base}/expenses`, {
      json: { amount, currency: 'EUR', description: `Taxi ${amount}` },
    });
    ledger.expenseClaims.push(String(expectJson(claim, 201).claimId));
  }
  await client.once('listExpenseClaims', 'GET', `${base}/expenses?top=10`);
  const hour = new Date().getUTCHours();
  for (const count of [1, 3, 2]) {
    const at = new Date();
    at.setUTCMinutes(0, count, 0);
    const sent = await client.persist('recordMessages', 'POST', `${base}/messages`, {
      json: { at: at.toISOString(), count },
    });
    expectStatus(sent, 204);
    ledger.messagesByHour.set(hour, (ledger.messagesByHour.get(hour) ?? 0) + count);
  }
  const day = new Date().toISOString().slice(0, 10);
  await client.once('hourlyMessages', 'GET', `${base}/messages/hourly?day=${day}`);
  await client.once('dailyMessages', 'GET', `${base}/messages/daily?year=${day.slice(0, 4)}`);
  for (const resource of ['/docs/a', '/docs/b']) {
    const event = await client.persist('recordAccessEvent', 'POST', '/access-events', {
      json: { department: plan.main, employeeId: FEATURE_ID, resource, action: 'read' },
    });
    expectJson(event, 201);
    ledger.accessEvents.push(resource);
  }
  const window = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`;
  await client.once('listAccessEvents', 'GET', `${base}/access-events?${window}`);
  await photoSteps(client, plan);
}

/** The valet-key photo: write SAS, upload through storage (throttled too), adopt, read. */
async function photoSteps(client: RecordingClient, plan: TourPlan): Promise<void> {
  const dept = seg(plan.main);
  const photo = `/departments/${dept}/employees/${FEATURE_ID}/photo`;
  await adoptPhoto(client, plan, [200, 30, 30]);
  await client.once('getEmployeePhoto', 'GET', photo);
  expectStatus(await client.persist('deleteEmployeePhoto', 'DELETE', photo), 204, 404);
  // The photo the employee keeps.
  await adoptPhoto(client, plan, [30, 30, 200]);
  // An upload nobody adopts: the photo sweep's work.
  const orphan = expectJson(
    await client.persist('sasPhoto', 'POST', `/sas/photos/${dept}/${FEATURE_ID}`, {
      json: { access: 'write' },
    }),
    200,
  ) as { url: string; headers: Record<string, string> };
  await persistFetch(orphan.url, {
    method: 'PUT',
    headers: { ...orphan.headers, 'content-type': 'image/png' },
    body: pngImage([10, 200, 10]),
  });
}

/** Write SAS, upload, adopt. */
async function adoptPhoto(
  client: RecordingClient,
  plan: TourPlan,
  rgb: [number, number, number],
): Promise<void> {
  const dept = seg(plan.main);
  const sas = `/sas/photos/${dept}/${FEATURE_ID}`;
  const grant = expectJson(
    await client.persist('sasPhoto', 'POST', sas, { json: { access: 'write' } }),
    200,
  ) as { url: string; blobName: string; headers: Record<string, string> };
  const upload = await persistFetch(grant.url, {
    method: 'PUT',
    headers: { ...grant.headers, 'content-type': 'image/png' },
    body: pngImage(rgb),
  });
  // 409: a refused try that had landed (the create-only token cannot write it twice).
  expect([201, 409]).toContain(upload.status);
  const photo = `/departments/${dept}/employees/${FEATURE_ID}/photo`;
  const adopted = await client.persist('putEmployeePhoto', 'PUT', photo, {
    json: { blobName: grant.blobName },
  });
  expectStatus(adopted, 200);
}

/** Logins, logs, SAS grants, the operations view, accounts, and the public routes. */
export async function serviceLane(
  client: RecordingClient,
  ledger: Ledger,
  plan: TourPlan,
): Promise<void> {
  for (const succeeded of [true, false]) {
    const at = new Date().toISOString();
    const login = await client.persist('recordLoginAttempt', 'POST', '/logins', {
      json: { userId: plan.userId, succeeded, at },
    });
    expectStatus(login, 201, 204);
    ledger.logins.push(at);
  }
  await client.once('listLoginAttempts', 'GET', `/logins/${seg(plan.userId)}?days=1`);
  const lines = ['first throttled line', 'second throttled line', 'third throttled line'];
  const entries = lines.map((message) => ({
    at: new Date().toISOString(),
    level: 'Warning',
    message,
  }));
  expectStatus(
    await client.persist('postLogs', 'POST', '/logs', {
      json: { source: plan.logSource, entries },
    }),
    202,
  );
  ledger.logLines.push(...lines);
  await client.once('getLogs', 'GET', logWindow(plan.logSource));
  const dept = seg(plan.main);
  await client.persist('sasDepartment', 'POST', `/sas/departments/${dept}`);
  await client.persist('sasExpenses', 'POST', `/sas/expenses/${dept}/${FEATURE_ID}`, {
    principal: employeePrincipal(plan.main, FEATURE_ID),
  });
  await client.persist('sasLogs', 'POST', '/sas/logs');
  await client.persist('sasPolicyRotate', 'POST', `/sas/policies/${plan.expensesTable}/rotate`);
  for (const [operation, path] of [
    ['health', '/health'],
    ['getMe', '/me'],
    ['openApiDescription', '/openapi.json'],
    ['listStorageAccounts', '/storage/accounts'],
    ['listDepartments', '/departments?pageSize=10'],
    ['getDepartment', `/departments/${dept}`],
    ['getOperations', '/operations'],
    ['inspectPoisonQueue', `/operations/poison/${plan.indexQueue}`],
  ] as const) {
    await client.once(operation, 'GET', path, operation === 'health' ? { principal: null } : {});
  }
  await client.persist(
    'replayPoisonQueue',
    'POST',
    `/operations/poison/${plan.indexQueue}/replay`,
    {
      json: { max: 5 },
    },
  );
}

/** `GET /logs` over the last and next hour of `source`. */
export function logWindow(source: string): string {
  const from = new Date(Date.now() - 3_600_000).toISOString();
  const to = new Date(Date.now() + 3_600_000).toISOString();
  return `/logs?source=${source}&from=${from}&to=${to}`;
}

/** Starts an orchestration (repeating refusals) and notes its status URI. */
export async function startOrchestration(
  client: RecordingClient,
  ledger: Ledger,
  what: string,
  operation: string,
  path: string,
  json?: unknown,
): Promise<void> {
  const started = await client.persist(operation, 'POST', path, json === undefined ? {} : { json });
  const body = expectJson(started, 202);
  ledger.orchestrations.set(what, String(body.statusUri));
}
