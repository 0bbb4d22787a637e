/**
 * Organisation (issue #45): one organisation grown through several sizes, through the built
 * host's HTTP API against the counting proxy. Departments are created 8 at a time
 * (`PUT /departments/{dept}`) up to each size of `BENCH_ORG_SIZES` (default a tenth, a quarter,
 * half and all of `BENCH_ORG_DEPARTMENTS`, itself 20,000 by default, a tenth with `BENCH_QUICK=1`:
 * bench/scale/organisation.ts), and at each size measured: the creation rate of the step, one
 * listing page (`GET /departments?pageSize=1000`), the operations view (`GET /operations`) with
 * one department at the end of the list holding pending work, an idle outbox sweep (the hourly
 * walk already run) and a sweep with 10 departments pending. The sweeps run in this process over
 * the host's tables (the host loads no timer), so their requests are theirs alone. The goals (a
 * page ≤ 5 requests, the view not truncated and showing the last department, an idle sweep ≤ 50)
 * are judged at every size. `BENCH_ORG_ACCOUNTS=2` spreads the departments over two data accounts
 * (each an emulator behind a counting proxy of its own; their requests are added to every figure).
 */
import { odata } from '@azure/data-tables';
import { loadConfig } from '../../src/config';
import { createServices } from '../../functions/shared/services';
import { createDirectory } from '../../src/directory';
import { sweepOutboxes } from '../../src/indexing/drain/outboxSweep';
import { markPending } from '../../src/indexing/drain/pendingMarkers';
import { mapBounded } from '../../src/storage/parallel';
import { DEPARTMENT_LIST_PARTITION_KEY } from '../../src/storage/keys/tables/employees';
import { startBuiltHost } from '../builtHost';
import { benchEmployee } from '../employees';
import { adminPrincipal, asPrincipal } from '../principals';
import {
  creationRate,
  organisationGoals,
  organisationSizes,
  requestsPerCreation,
  type OrganisationData,
  type OrganisationPoint,
} from '../scale/organisation';
import type { BenchCase, BenchEnv, Comparison, Measurement } from '../types';
import { startDataAccounts, type DataAccounts } from './accounts';

const FUNCTIONS = 'dist/functions/{departments,employees,operations}.js';
const CREATORS = 8;
const PENDING = 10;
/** Sorts after every `Org …` name: the last department of the list. */
const LAST = 'zz Org last';
const nameOf = (n: number): string => `Org ${String(n).padStart(6, '0')}`;

/** One HTTP call as admin; throws on an unexpected status. */
async function call(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(
    `${base}/${path}`,
    asPrincipal(adminPrincipal, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The two data accounts of `BENCH_ORG_ACCOUNTS=2` (stopped with the case), or none. */
async function dataAccountsOf(env: BenchEnv): Promise<DataAccounts | undefined> {
  const accounts = process.env.BENCH_ORG_ACCOUNTS ?? '1';
  if (accounts === '1') return undefined;
  if (accounts !== '2') throw new Error(`BENCH_ORG_ACCOUNTS must be 1 or 2, not ${accounts}`);
  const data = await startDataAccounts();
  env.defer(() => data.stop());
  return data;
}

/** `env.measure`, with the data accounts' requests added to the home account's. */
function measuring(env: BenchEnv, data: DataAccounts | undefined): BenchEnv['measure'] {
  const elsewhere = (): number =>
    (data?.proxies ?? []).reduce((sum, proxy) => sum + proxy.counts().requests, 0);
  return async (label, operations, work) => {
    const before = elsewhere();
    const measured = await env.measure(label, operations, work);
    return { ...measured, requests: measured.requests + elsewhere() - before };
  };
}

/** The operations view's outbox part, as far as the case reads it. */
interface OperationsView {
  outbox: { departmentsTruncated: boolean; departments: { department: string }[] };
}

/** The comparisons of one size: each figure beside the raw listing page, the goals judged. */
function comparisonsAt(
  point: OrganisationPoint,
  measured: Record<'create' | 'listing' | 'operations' | 'idle' | 'busy', Measurement>,
  rawListing: Measurement,
  accounts: number,
): Comparison[] {
  const goals = organisationGoals(point);
  const where = `${point.departments.toLocaleString('en-US')} departments${accounts > 1 ? ', two data accounts' : ''}`;
  const against = (pattern: Measurement, name: string, goal?: Comparison['goal']): Comparison => ({
    name: `organisation (${where}): ${name}`,
    pattern,
    baseline: rawListing,
    goal,
  });
  return [
    against(measured.create, 'creation'),
    against(measured.listing, 'a listing page of 1,000 with counts', goals.listing),
    against(measured.operations, 'operations view', goals.operations),
    against(measured.idle, 'idle sweep', goals.idleSweep),
    against(measured.busy, `sweep with ${PENDING} pending`, undefined),
  ];
}

/** One size's figures in a few lines. */
function describePoint(p: OrganisationPoint): string {
  return (
    `\nOrganisation of ${p.departments.toLocaleString('en-US')} departments:\n` +
    `  creation ${creationRate(p).toFixed(1)} departments/s (${requestsPerCreation(p).toFixed(2)} requests each, ${p.creation.created} created)\n` +
    `  listing page: ${p.listing.requests} requests, ${p.listing.ms.toFixed(0)} ms, ${p.listing.items} items\n` +
    `  operations view: ${p.operations.requests} requests, ${p.operations.ms.toFixed(0)} ms, ` +
    `truncated ${p.operations.truncated}, last department shown ${p.operations.lastShown}\n` +
    `  idle sweep: ${p.idleSweep.requests} requests, ${p.idleSweep.ms.toFixed(0)} ms\n` +
    `  sweep with ${p.busySweep.pending} pending: ${p.busySweep.requests} requests, ` +
    `${p.busySweep.ms.toFixed(0)} ms, ${p.busySweep.rows} rows\n`
  );
}

const cost = (m: Measurement): { requests: number; ms: number } => ({
  requests: m.requests,
  ms: Math.round(m.wallMs * 10) / 10,
});

/** What one size's steps run against: the host, its drains, and a way to mark work pending. */
interface OrgRun {
  base: string;
  measure: BenchEnv['measure'];
  drains: ReturnType<ReturnType<typeof createServices>['indexDrains']>;
  /** Writes an employee into `department` that no message stands for, and marks it pending. */
  pendingIn(department: string): Promise<void>;
  /** Sweep steps that walked the table (uncounted). */
  walks: number;
}

/** The host on fresh tables (and the data accounts' settings), with the last department created. */
async function startOrganisation(env: BenchEnv, data: DataAccounts | undefined): Promise<OrgRun> {
  const settings = {
    ...data?.settings,
    EMPLOYEES_TABLE: env.uniqueName('OrgEmp', { table: true }),
    ARCHIVE_TABLE: env.uniqueName('OrgArc', { table: true }),
    EMPLOYEE_INDEX_TABLE: env.uniqueName('OrgIdx', { table: true }),
    OPERATIONS_TABLE: env.uniqueName('OrgOps', { table: true }),
    LASTNAME_INDEX_CONTAINER: env.uniqueName('org-lastname'),
    INDEX_QUEUE: env.uniqueName('org-idx'),
    ARCHIVE_QUEUE: env.uniqueName('org-arc'),
    LOG_QUEUE: env.uniqueName('org-log'),
  };
  const measure = measuring(env, data);
  const host = await startBuiltHost(env, FUNCTIONS, settings);
  const base = host.baseUrl;
  const config = loadConfig({ AzureWebJobsStorage: env.connectionString, ...settings });
  const services = createServices(() => config);
  const drains = services.indexDrains();
  const employees = drains.stores.employees;
  // Writes no message stands for, marked as a cover that could not be stored marks them.
  const silent = createDirectory({ employees, outbox: true });
  let employeeNo = 0;
  const pendingIn = async (department: string): Promise<void> => {
    await silent.employees.create(department, benchEmployee(++employeeNo));
    await markPending(employees, department, 'cover-failed');
  };
  await call(base, 'PUT', `departments/${encodeURIComponent(LAST)}`, {});
  return { base, measure, drains, pendingIn, walks: 0 };
}

/** Creates departments `from + 1`..`size`, {@link CREATORS} at a time. */
async function measureCreation(org: OrgRun, from: number, size: number) {
  const batch = Array.from({ length: size - from }, (_, i) => nameOf(from + i + 1));
  const create = await org.measure(
    `create departments ${from + 1}–${size} (PUT, 8 at a time)`,
    batch.length,
    () =>
      mapBounded(batch, CREATORS, (name) =>
        call(org.base, 'PUT', `departments/${encodeURIComponent(name)}`, {}),
      ).then(() => undefined),
  );
  return { create, created: batch.length };
}

/** One listing page through the API, and the same page read raw. */
async function measureListing(org: OrgRun) {
  let items = 0;
  const listing = await org.measure('GET /departments?pageSize=1000', 1, async () => {
    const page = (await call(org.base, 'GET', 'departments?pageSize=1000')) as {
      items?: unknown[];
    };
    items = page.items?.length ?? 0;
  });
  const rawListing = await org.measure('raw listing page (SDK range)', 1, async () => {
    const pages = org.drains.stores.employees
      .listEntities({
        queryOptions: { filter: odata`PartitionKey eq ${DEPARTMENT_LIST_PARTITION_KEY}` },
      })
      .byPage({ maxPageSize: 1000 });
    for await (const page of pages) return void page;
  });
  return { listing, rawListing, items };
}

/** The operations view with the last department of the list holding pending work. */
async function measureOperationsView(org: OrgRun) {
  await org.pendingIn(LAST);
  let view: OperationsView | undefined;
  const operations = await org.measure('GET /operations', 1, async () => {
    view = (await call(org.base, 'GET', 'operations')) as OperationsView;
  });
  return {
    operations,
    truncated: view!.outbox.departmentsTruncated,
    lastShown: view!.outbox.departments.some((d) => d.department === LAST),
  };
}

/** An idle sweep (the hourly walk finished first), then one with {@link PENDING} pending. */
async function measureSweeps(org: OrgRun, size: number) {
  // Drains the last department; the first sweep of all starts the hourly walk, finished here
  // (in bounded steps) so the idle sweep measures the frequent sweep alone.
  for (let settle = 0; settle < 1_000; settle++) {
    const report = await sweepOutboxes(org.drains);
    if (report.discovered) org.walks++;
    if (!report.discovered || report.walkFinished) break;
  }
  const idle = await org.measure('idle sweep', 1, async () => {
    await sweepOutboxes(org.drains);
  });
  const pendingNames = Array.from({ length: Math.min(PENDING, size) }, (_, i) => nameOf(size - i));
  for (const name of pendingNames) await org.pendingIn(name);
  let rows = 0;
  const busy = await org.measure(`sweep with ${PENDING} departments pending`, PENDING, async () => {
    rows = (await sweepOutboxes(org.drains)).rows;
  });
  return { idle, busy, pending: pendingNames.length, rows };
}

/** Grows the organisation from `from` to `size` departments and measures it there. */
async function measureSize(org: OrgRun, from: number, size: number, accounts: number) {
  const { create, created } = await measureCreation(org, from, size);
  const { listing, rawListing, items } = await measureListing(org);
  const { operations, truncated, lastShown } = await measureOperationsView(org);
  const { idle, busy, pending, rows } = await measureSweeps(org, size);
  const point: OrganisationPoint = {
    departments: size,
    creation: { ...cost(create), created },
    listing: { ...cost(listing), items },
    operations: { ...cost(operations), truncated, lastShown },
    idleSweep: cost(idle),
    busySweep: { ...cost(busy), pending, rows },
  };
  const measured = { create, listing, operations, idle, busy };
  return { point, comparisons: comparisonsAt(point, measured, rawListing, accounts) };
}

const organisation: BenchCase = {
  name: 'organisation: listing, operations view and sweep over many departments',
  onlyWhenNamed: true,
  timeoutMs: 90 * 60_000,
  async run(env: BenchEnv) {
    const sizes = organisationSizes(
      { sizes: process.env.BENCH_ORG_SIZES, departments: process.env.BENCH_ORG_DEPARTMENTS },
      env.size(20_000),
    );
    const data = await dataAccountsOf(env);
    const accounts = data ? 2 : 1;
    const org = await startOrganisation(env, data);
    const points: OrganisationPoint[] = [];
    const comparisons: Comparison[] = [];
    for (const [step, size] of sizes.entries()) {
      const from = step === 0 ? 0 : sizes[step - 1]!;
      const measured = await measureSize(org, from, size, accounts);
      points.push(measured.point);
      process.stdout.write(describePoint(measured.point));
      comparisons.push(...measured.comparisons);
    }
    process.stdout.write(`  (sweep steps that walked the table, uncounted: ${org.walks})\n\n`);
    const result: OrganisationData = { accounts, sizes, points };
    return { comparisons, data: { ...result } };
  },
};

export default organisation;
