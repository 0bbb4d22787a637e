/**
 * Organisation (issue #45): an organisation of many departments, through the built host's HTTP
 * API against the counting proxy. `BENCH_ORG_DEPARTMENTS` departments (default 20,000; a tenth
 * with `BENCH_QUICK=1`) are created 8 at a time (`PUT /departments/{dept}`), then measured: the
 * creation rate, one listing page (`GET /departments?pageSize=1000`, whatever its implementation),
 * the operations view (`GET /operations`) with one department at the end of the list holding
 * pending work, an idle outbox sweep (its hourly walk already run), and a sweep with 10
 * departments pending. The sweeps run in this process over the host's tables (the host loads no
 * timer), so their requests are theirs alone. Goals: a listing page ≤ 5 storage requests, the
 * operations view not truncated and showing the last department, the idle sweep ≤ 50 requests.
 * `BENCH_ORG_ACCOUNTS=2` spreads the departments over two data accounts (each an emulator behind
 * a counting proxy of its own; their requests are added to every measurement).
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
import { atMost, holds, judge } from '../goals';
import { adminPrincipal, asPrincipal } from '../principals';
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

const organisation: BenchCase = {
  name: 'organisation: listing, operations view and sweep over many departments',
  onlyWhenNamed: true,
  timeoutMs: 60 * 60_000,
  async run(env: BenchEnv) {
    const departments = Number(process.env.BENCH_ORG_DEPARTMENTS ?? env.size(20_000));
    if (!Number.isInteger(departments) || departments < 1) {
      throw new Error(`BENCH_ORG_DEPARTMENTS must be a positive integer, not ${departments}`);
    }
    const data = await dataAccountsOf(env);
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
    const names = Array.from({ length: departments }, (_, i) => nameOf(i + 1));

    const create = await measure('create departments (PUT, 8 at a time)', departments, () =>
      mapBounded(names, CREATORS, (name) =>
        call(base, 'PUT', `departments/${encodeURIComponent(name)}`, {}),
      ).then(() => undefined),
    );
    await call(base, 'PUT', `departments/${encodeURIComponent(LAST)}`, {});

    let listed = 0;
    const listing = await measure('GET /departments?pageSize=1000', 1, async () => {
      const page = (await call(base, 'GET', 'departments?pageSize=1000')) as { items?: unknown[] };
      listed = page.items?.length ?? 0;
    });
    const config = loadConfig({ AzureWebJobsStorage: env.connectionString, ...settings });
    const services = createServices(() => config);
    const employees = services.indexDrains().stores.employees;
    const rawListing = await measure('raw listing page (SDK range)', 1, async () => {
      const pages = employees
        .listEntities({
          queryOptions: { filter: odata`PartitionKey eq ${DEPARTMENT_LIST_PARTITION_KEY}` },
        })
        .byPage({ maxPageSize: 1000 });
      for await (const page of pages) return void page;
    });

    // Pending work at the end of the list: a change no message stands for, marked as a cover that
    // could not be stored marks it.
    const silent = createDirectory({ employees, outbox: true });
    await silent.employees.create(LAST, benchEmployee(1));
    await markPending(employees, LAST, 'cover-failed');
    let view: { outbox: { departmentsTruncated: boolean; departments: { department: string }[] } };
    const operations = await measure('GET /operations', 1, async () => {
      view = (await call(base, 'GET', 'operations')) as typeof view;
    });
    const shown = view!.outbox.departments.some((d) => d.department === LAST);

    const drains = services.indexDrains();
    const first = await sweepOutboxes(drains); // the first ever: the walk, and LAST drained
    const idle = await measure('idle sweep', 1, async () => {
      await sweepOutboxes(drains);
    });
    const pendingNames = names.slice(-PENDING);
    for (const [i, name] of pendingNames.entries()) {
      await silent.employees.create(name, benchEmployee(i + 2));
      await markPending(employees, name, 'cover-failed');
    }
    let drained = 0;
    const busy = await measure(`sweep with ${PENDING} departments pending`, PENDING, async () => {
      drained = (await sweepOutboxes(drains)).rows;
    });

    const rate = departments / (create.wallMs / 1000);
    process.stdout.write(
      `\nOrganisation of ${departments.toLocaleString('en-US')} departments:\n` +
        `  creation ${rate.toFixed(1)} departments/s (${(create.requests / departments).toFixed(2)} requests each)\n` +
        `  listing page: ${listing.requests} requests, ${listing.wallMs.toFixed(0)} ms, ${listed} items\n` +
        `  operations view: ${operations.requests} requests, ${operations.wallMs.toFixed(0)} ms, ` +
        `truncated ${view!.outbox.departmentsTruncated}, last department shown ${shown}\n` +
        `  first sweep (walk): ${first.departments} departments, ${first.rows} rows\n` +
        `  idle sweep: ${idle.requests} requests, ${idle.wallMs.toFixed(0)} ms\n` +
        `  sweep with ${PENDING} pending: ${busy.requests} requests, ${busy.wallMs.toFixed(0)} ms, ${drained} rows\n\n`,
    );
    const against = (pattern: Measurement, name: string, goal: Comparison['goal']): Comparison => ({
      name: `organisation (${departments.toLocaleString('en-US')} departments${data ? ', two data accounts' : ''}): ${name}`,
      pattern,
      baseline: rawListing,
      goal,
    });
    return {
      comparisons: [
        against(create, 'creation', undefined),
        against(
          listing,
          'a listing page of 1,000 with counts',
          judge('a page of 1,000 departments in ≤ 5 storage requests', [
            atMost('requests', listing.requests, 5),
          ]),
        ),
        against(
          operations,
          'operations view',
          judge('pending work at the end of the list shown, no truncation', [
            holds(
              `departmentsTruncated ${view!.outbox.departmentsTruncated}`,
              !view!.outbox.departmentsTruncated,
            ),
            holds(`last department shown: ${shown}`, shown),
          ]),
        ),
        against(
          idle,
          'idle sweep',
          judge('an idle sweep ≤ 50 storage requests', [atMost('requests', idle.requests, 50)]),
        ),
        against(busy, `sweep with ${PENDING} pending`, undefined),
      ],
      data: {
        departments,
        ratePerSecond: rate,
        listed,
        firstSweep: { ...first, failed: first.failed.length },
      },
    };
  },
};

export default organisation;
